// Data series inside the plot frame: coloured (and black) marks are clustered by hue; per colour, compact blobs
// are markers (one point per blob at its centroid, merged blobs split by their area) and thin strokes are lines
// (one point per pixel column, the median row). Markers are taken as the measured data and lines as fitted
// curves, unless a plot has only lines. Grid lines (light grey) and the legend box are left out.
import { connectedComponents, isInk, type Box, type Component, type PixelPlanes } from './pixel-masks.js';

export interface PixelSeries {
  kind: 'markers' | 'line';
  /** Mean hue in degrees, or -1 for black. */
  hue: number;
  points: { px: number; py: number }[];
}

const HUE_BINS = 36;
const MIN_COLOURED_SATURATION = 0.3;

/** Legend boxes (matplotlib: a light-grey rectangle with white face) inside the frame, to be ignored. */
function legendBoxes(planes: PixelPlanes, frame: Box): Box[] {
  const edge = (i: number) => planes.lum[i]! > 150 && planes.lum[i]! < 235 && planes.sat[i]! < 0.08;
  const frameWidth = frame.x1 - frame.x0;
  const rows: { y: number; from: number; to: number }[] = [];
  for (let y = frame.y0 + 1; y < frame.y1 - 1; y++) {
    let start = -1;
    for (let x = frame.x0; x <= frame.x1; x++) {
      const on = x < frame.x1 && edge(y * planes.width + x);
      if (on && start < 0) start = x;
      if (!on && start >= 0) {
        const len = x - start;
        if (len >= 0.06 * frameWidth && len <= 0.8 * frameWidth) rows.push({ y, from: start, to: x });
        start = -1;
      }
    }
  }
  const boxes: Box[] = [];
  for (const top of rows) {
    const bottom = rows.find((r) => r.y > top.y + 8 && Math.abs(r.from - top.from) <= 2 && Math.abs(r.to - top.to) <= 2);
    if (!bottom) continue;
    if (boxes.some((b) => Math.abs(b.y0 - top.y) <= 2)) continue;
    boxes.push({ x0: top.from - 3, x1: top.to + 3, y0: top.y - 3, y1: bottom.y + 3 });
  }
  return boxes;
}

function hueDistance(a: number, b: number): number {
  const d = Math.abs(a - b) % 360;
  return Math.min(d, 360 - d);
}

export function extractSeries(planes: PixelPlanes, frame: Box): PixelSeries[] {
  const inner: Box = { x0: frame.x0 + 1, x1: frame.x1 - 1, y0: frame.y0 + 1, y1: frame.y1 - 1 };
  const legends = legendBoxes(planes, inner);
  const inLegend = (i: number) => {
    const x = i % planes.width;
    const y = (i - x) / planes.width;
    return legends.some((b) => x >= b.x0 && x < b.x1 && y >= b.y0 && y < b.y1);
  };
  const coloured = (i: number) => planes.sat[i]! >= MIN_COLOURED_SATURATION && planes.lum[i]! < 235 && !inLegend(i);
  // Hue histogram → cluster centres (local maxima with enough pixels).
  const histogram = new Float64Array(HUE_BINS);
  for (let y = inner.y0; y < inner.y1; y++) {
    for (let x = inner.x0; x < inner.x1; x++) {
      const i = y * planes.width + x;
      if (!coloured(i)) continue;
      histogram[Math.floor(planes.hue[i]! / (360 / HUE_BINS)) % HUE_BINS]! += planes.sat[i]!;
    }
  }
  const smoothed = Array.from(histogram, (_, b) => histogram[(b + HUE_BINS - 1) % HUE_BINS]! + histogram[b]! + histogram[(b + 1) % HUE_BINS]!);
  const total = smoothed.reduce((s, v) => s + v, 0) / 3;
  const centres: number[] = [];
  for (let b = 0; b < HUE_BINS; b++) {
    const v = smoothed[b]!;
    if (v < 0.03 * total || v < 15) continue;
    if (v >= smoothed[(b + HUE_BINS - 1) % HUE_BINS]! && v > smoothed[(b + 1) % HUE_BINS]!) centres.push((b + 0.5) * (360 / HUE_BINS));
  }
  const series: PixelSeries[] = [];
  for (const hue of centres) {
    const mask = (i: number) => coloured(i) && hueDistance(planes.hue[i]!, hue) <= 20;
    const s = seriesOf(planes, inner, mask, hue);
    if (s) series.push(...s);
  }
  // Black marks (markers or dashed fit lines drawn in 'k'): frame interior ink that is not text-sized clutter.
  const black = seriesOf(planes, inner, (i) => isInk(planes, i) && !inLegend(i), -1);
  if (black) series.push(...black);
  return series;
}

/** Splits one colour's marks into a marker series and a line series (either may be absent). */
function seriesOf(planes: PixelPlanes, box: Box, mask: (i: number) => boolean, hue: number): PixelSeries[] | null {
  // Inward tick marks touch the frame; they are not data.
  const atEdge = (c: Component) => (c.x0 <= box.x0 || c.x1 >= box.x1 || c.y0 <= box.y0 || c.y1 >= box.y1) && Math.max(c.x1 - c.x0, c.y1 - c.y0) <= 10;
  const width = planes.width;
  const on = new Uint8Array(planes.lum.length);
  for (let y = box.y0; y < box.y1; y++) for (let x = box.x0; x < box.x1; x++) if (mask(y * width + x)) on[y * width + x] = 1;
  const components = connectedComponents(width, box, (i) => on[i] === 1, true).filter((c) => c.area >= 3 && !atEdge(c));
  if (!components.length) return null;
  // Markers survive an erosion by a 3×3 square; lines up to two pixels wide (fits drawn through the markers) do not.
  const eroded = (i: number) => {
    if (!on[i]) return false;
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) if (!on[i + dy * width + dx]) return false;
    return true;
  };
  const inner: Box = { x0: box.x0 + 1, x1: box.x1 - 1, y0: box.y0 + 1, y1: box.y1 - 1 };
  const compact = (c: Component) => {
    const w = c.x1 - c.x0;
    const h = c.y1 - c.y0;
    return Math.max(w, h) <= 2.2 * Math.min(w, h) && c.area >= 0.45 * w * h;
  };
  let cores = connectedComponents(width, inner, eroded, true).filter((c) => c.area >= 2);
  let blobs = cores.filter(compact);
  if (blobs.length < 4 || blobs.length < 0.5 * cores.length) {
    // Small markers vanish under erosion: take compact components of the marks themselves.
    cores = components;
    blobs = components.filter((c) => compact(c) && c.area / Math.max(c.x1 - c.x0, c.y1 - c.y0) >= 2.5);
  }
  const out: PixelSeries[] = [];
  const taken = new Uint8Array(planes.lum.length);
  if (blobs.length >= 4) {
    const blobArea = blobs.map((c) => c.area).sort((a, b) => a - b)[Math.floor(blobs.length / 2)]!;
    const size = Math.sqrt(blobArea);
    // Overlapping markers form bigger cores: one point per marker-sized piece.
    const pieces = cores.filter((c) => compact(c) || c.area / Math.max(c.x1 - c.x0, c.y1 - c.y0) >= 0.6 * size);
    const points: { px: number; py: number }[] = [];
    for (const c of pieces) {
      const count = Math.round(c.area / blobArea);
      if (count <= 1) points.push({ px: c.cx, py: c.cy });
      else points.push(...columnPoints(width, c.pixels, count));
      const pad = Math.ceil(size / 2) + 2;
      for (let y = Math.max(0, c.y0 - pad); y < Math.min(planes.height, c.y1 + pad); y++)
        for (let x = Math.max(0, c.x0 - pad); x < Math.min(width, c.x1 + pad); x++) taken[y * width + x] = 1;
    }
    out.push({ kind: 'markers', hue, points });
  }
  const rest = out.length ? components.flatMap((c) => c.pixels.filter((i) => !taken[i])) : components.flatMap((c) => c.pixels);
  const markerArea = out.length ? components.reduce((s, c) => s + c.area, 0) - rest.length : 0;
  if (rest.length > 40 && rest.length >= 0.1 * (markerArea + rest.length)) {
    out.push({ kind: 'line', hue, points: columnMedians(width, rest) });
  }
  return out.length ? out : null;
}

/** Median row per pixel column. */
function columnMedians(width: number, pixels: number[]): { px: number; py: number }[] {
  const columns = new Map<number, number[]>();
  for (const i of pixels) {
    const x = i % width;
    const y = (i - x) / width;
    let list = columns.get(x);
    if (!list) {
      list = [];
      columns.set(x, list);
    }
    list.push(y);
  }
  return [...columns.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([x, ys]) => {
      ys.sort((a, b) => a - b);
      return { px: x + 0.5, py: ys[ys.length >> 1]! + 0.5 };
    });
}

/** `count` points from a merged blob: its columns cut into `count` bands of equal pixel mass, centroid of each. */
function columnPoints(width: number, pixels: number[], count: number): { px: number; py: number }[] {
  const sorted = pixels.map((i) => ({ x: i % width, y: Math.floor(i / width) })).sort((a, b) => a.x - b.x);
  const out: { px: number; py: number }[] = [];
  for (let k = 0; k < count; k++) {
    const part = sorted.slice(Math.floor((k * sorted.length) / count), Math.floor(((k + 1) * sorted.length) / count));
    if (!part.length) continue;
    out.push({ px: part.reduce((s, p) => s + p.x, 0) / part.length + 0.5, py: part.reduce((s, p) => s + p.y, 0) / part.length + 0.5 });
  }
  return out;
}
