// Axis calibration of a plot: tick marks found as short ink strokes outside the spines, their labels read by
// glyph matching, and the pixel→data map fitted as a line through (tick pixel, tick value) pairs with RANSAC
// (M. A. Fischler, R. C. Bolles, Commun. ACM 24, 381 (1981)) so that one misread label cannot bend the axis.
import { NUMBER_CHARS, glyphsOf, inkComponents, parseNumber, readGlyphs, textLines, type Glyph } from './glyph-reader.js';
import { darkness, type Box, type Component, type PixelPlanes } from './pixel-masks.js';
import type { PlotFrame } from './plot-frame.js';

export interface AxisMap {
  /** value = offset + scale · pixel */
  offset: number;
  scale: number;
  ticks: { pixel: number; value: number }[];
}

export interface AxisReading {
  map: AxisMap | null;
  /** Axis title text (x: the line below the tick labels; y: the rotated text left of them). */
  label: string;
  notes: string[];
}

/** Tick marks are thin strokes; wider runs along the probe line are markers or text, not ticks. */
const MAX_TICK_WIDTH_PX = 4;

/** Centres of thin runs of ink along a line of probes; `probe(k)` is the summed darkness at position k. */
function strokeCentres(from: number, to: number, probe: (k: number) => number, threshold: number): number[] {
  const centres: number[] = [];
  let sum = 0;
  let weighted = 0;
  let width = 0;
  for (let k = from; k <= to + 1; k++) {
    const v = k <= to ? probe(k) : 0;
    if (v > threshold) {
      sum += v;
      weighted += v * k;
      width++;
    } else if (sum > 0) {
      if (width <= MAX_TICK_WIDTH_PX) centres.push(weighted / sum + 0.5);
      sum = 0;
      weighted = 0;
      width = 0;
    }
  }
  return centres;
}

/** Typical distance between neighbouring ticks (median, so one stray stroke does not shrink it). */
function tickSpacing(ticks: number[], fallback: number): number {
  if (ticks.length < 2) return fallback;
  const gaps = ticks
    .slice(1)
    .map((t, i) => t - ticks[i]!)
    .sort((a, b) => a - b);
  return gaps[gaps.length >> 1]!;
}

function fitMap(pairs: { pixel: number; value: number }[]): AxisMap | null {
  if (pairs.length < 2) return null;
  let best: { inliers: { pixel: number; value: number }[] } | null = null;
  for (let i = 0; i < pairs.length; i++) {
    for (let j = i + 1; j < pairs.length; j++) {
      const a = pairs[i]!;
      const b = pairs[j]!;
      if (a.pixel === b.pixel || a.value === b.value) continue;
      const scale = (b.value - a.value) / (b.pixel - a.pixel);
      const offset = a.value - scale * a.pixel;
      const tolerance = Math.abs(scale) * 2.5; // 2.5 px
      const inliers = pairs.filter((p) => Math.abs(offset + scale * p.pixel - p.value) <= tolerance);
      if (!best || inliers.length > best.inliers.length) best = { inliers };
    }
  }
  if (!best || best.inliers.length < 2) return null;
  const n = best.inliers.length;
  const mp = best.inliers.reduce((s, p) => s + p.pixel, 0) / n;
  const mv = best.inliers.reduce((s, p) => s + p.value, 0) / n;
  let spp = 0;
  let spv = 0;
  for (const p of best.inliers) {
    spp += (p.pixel - mp) ** 2;
    spv += (p.pixel - mp) * (p.value - mv);
  }
  const scale = spv / spp;
  return { scale, offset: mv - scale * mp, ticks: best.inliers };
}

/** Splits a line of glyphs into labels at gaps wider than 0.6 × the line height. */
function labelsOf(glyphs: Glyph[], horizontal: boolean): Glyph[][] {
  if (!glyphs.length) return [];
  const lineHeight = Math.max(...glyphs.map((g) => g.y1 - g.y0));
  const out: Glyph[][] = [[glyphs[0]!]];
  for (let i = 1; i < glyphs.length; i++) {
    const gap = horizontal ? glyphs[i]!.x0 - glyphs[i - 1]!.x1 : 0;
    if (gap > 0.6 * lineHeight) out.push([]);
    out.at(-1)!.push(glyphs[i]!);
  }
  return out;
}

/**
 * x tick labels by nearest tick: each glyph joins the tick closest to its centre (labels of long numbers on a
 * narrow axis can nearly touch, so gaps alone do not separate them); without ticks, by gaps.
 */
function labelsByTick(glyphs: Glyph[], ticks: number[], spacing: number): Glyph[][] {
  if (ticks.length < 2) return labelsOf(glyphs, true);
  const groups = new Map<number, Glyph[]>();
  for (const g of glyphs) {
    const centre = (g.x0 + g.x1) / 2;
    let best = -1;
    for (let k = 0; k < ticks.length; k++) if (best < 0 || Math.abs(ticks[k]! - centre) < Math.abs(ticks[best]! - centre)) best = k;
    if (Math.abs(ticks[best]! - centre) > spacing * 0.75) continue;
    const group = groups.get(best) ?? [];
    group.push(g);
    groups.set(best, group);
  }
  return [...groups.entries()].sort((a, b) => a[0] - b[0]).map(([, group]) => group);
}

const boxOf = (items: Box[]): Box => ({
  x0: Math.min(...items.map((g) => g.x0)),
  x1: Math.max(...items.map((g) => g.x1)),
  y0: Math.min(...items.map((g) => g.y0)),
  y1: Math.max(...items.map((g) => g.y1)),
});

/** Length of the outward tick at `pixel` (probing away from the spine). */
function tickLength(planes: PixelPlanes, start: number, pixel: number, horizontalAxis: boolean, max: number): number {
  let k = 0;
  for (; k < max; k++) {
    const i = horizontalAxis ? (start + k) * planes.width + Math.round(pixel - 0.5) : Math.round(pixel - 0.5) * planes.width + (start - k);
    if (i < 0 || i >= planes.lum.length || darkness(planes, i) < 0.25) break;
  }
  return k;
}

export function readXAxis(planes: PixelPlanes, frame: PlotFrame): AxisReading {
  const notes: string[] = [];
  const first = frame.bottomOuter + 1;
  const probe = (x: number) => {
    let s = 0;
    for (let y = first; y < Math.min(planes.height, first + 3); y++) s += darkness(planes, y * planes.width + x);
    return s;
  };
  let ticks = strokeCentres(Math.max(0, frame.x0 - 4), Math.min(planes.width - 1, frame.x1 + 3), probe, 1.2);
  const length = ticks.length ? Math.max(...ticks.map((t) => tickLength(planes, first, t, true, 30))) : 0;
  if (ticks.length < 2) {
    // Ticks pointing into the frame (matplotlib's classic style): probe the rows just above the x axis.
    const inward = (x: number) => [1, 2, 3].reduce((s, k) => s + darkness(planes, (frame.y1 - k) * planes.width + x), 0);
    ticks = strokeCentres(frame.x0 + 2, frame.x1 - 3, inward, 1.5);
  }
  const region = { x0: 0, x1: planes.width, y0: first + length + 1, y1: planes.height };
  const lines = textLines(inkComponents(planes, region)).sort((a, b) => boxOf(a).y0 - boxOf(b).y0);
  const spacing = tickSpacing(ticks, planes.width);
  // The tick labels: the first text line below the axis whose labels sit under ticks and read as numbers (a
  // y tick label hanging below the x axis may come first).
  let pairs: { pixel: number; value: number }[] = [];
  let labelLineIndex = -1;
  for (let li = 0; li < Math.min(lines.length, 3) && labelLineIndex < 0; li++) {
    const found: { pixel: number; value: number }[] = [];
    for (const label of labelsByTick(glyphsOf(lines[li]!), ticks, spacing)) {
      const box = boxOf(label);
      const centre = (box.x0 + box.x1) / 2;
      const tick = ticks.reduce<number | null>(
        (best, t) => (Math.abs(t - centre) < spacing / 2 && (best === null || Math.abs(t - centre) < Math.abs(best - centre)) ? t : best),
        null,
      );
      const value = parseNumber(readGlyphs(planes, label, NUMBER_CHARS));
      if (tick !== null && value !== null) found.push({ pixel: tick, value });
    }
    if (found.length >= 2) {
      pairs = found;
      labelLineIndex = li;
    }
  }
  const map = fitMap(pairs);
  if (!map) notes.push(`x axis: ${ticks.length} ticks, ${pairs.length} readable labels — not enough to calibrate`);
  // matplotlib writes an axis offset ("+4.2", "1e−6") at the right end of the line below the tick labels.
  let titleGlyphs = labelLineIndex >= 0 && lines[labelLineIndex + 1] ? glyphsOf(lines[labelLineIndex + 1]!) : [];
  const groups = labelsOf(titleGlyphs, true);
  const last = groups.at(-1);
  if (map && last && groups.length > 0 && boxOf(last).x0 > (frame.x0 + frame.x1) / 2) {
    const offset = parseAxisOffset(readGlyphs(planes, last, NUMBER_CHARS));
    if (offset) {
      applyOffset(map, offset);
      titleGlyphs = groups.slice(0, -1).flat();
    }
  }
  const title = readGlyphs(planes, titleGlyphs);
  return { map, label: title, notes };
}

export function readYAxis(planes: PixelPlanes, frame: PlotFrame): AxisReading {
  const notes: string[] = [];
  const first = frame.leftOuter - 1;
  const probe = (y: number) => {
    let s = 0;
    for (let x = first; x > Math.max(-1, first - 3); x--) s += darkness(planes, y * planes.width + x);
    return s;
  };
  let ticks = strokeCentres(Math.max(0, frame.y0 - 4), Math.min(planes.height - 1, frame.y1 + 3), probe, 1.2);
  const length = ticks.length ? Math.max(...ticks.map((t) => tickLength(planes, first, t, false, 30))) : 0;
  if (ticks.length < 2) {
    const inward = (y: number) => [0, 1, 2].reduce((s, k) => s + darkness(planes, y * planes.width + frame.x0 + k), 0);
    ticks = strokeCentres(frame.y0 + 2, frame.y1 - 3, inward, 1.5);
  }
  const right = first - length;
  const region = { x0: 0, x1: right, y0: 0, y1: planes.height };
  const components = inkComponents(planes, region);
  const pairs: { pixel: number; value: number }[] = [];
  const used = new Set<Component>();
  const spacing = tickSpacing(ticks, planes.height);
  // Tick labels are right-aligned next to the ticks: grow each label leftwards from a component that ends at the
  // right edge, taking neighbours on the same row (the rotated axis title further left must not join them).
  const heights = components.map((c) => c.y1 - c.y0).sort((a, b) => a - b);
  const typical = heights.length ? heights[heights.length >> 1]! : 8;
  const seeds = components.filter((c) => right - c.x1 <= 2.5 * Math.max(typical, 4)).sort((a, b) => b.x1 - a.x1);
  for (const seed of seeds) {
    if (used.has(seed)) continue;
    const label: Component[] = [seed];
    used.add(seed);
    const box = { x0: seed.x0, x1: seed.x1, y0: seed.y0, y1: seed.y1 };
    for (let grown = true; grown; ) {
      grown = false;
      for (const c of components) {
        if (used.has(c)) continue;
        const overlap = Math.min(box.y1, c.y1) - Math.max(box.y0, c.y0);
        const gap = box.x0 - c.x1;
        const inside = c.x0 >= box.x0 && c.x1 <= box.x1;
        if (overlap > 0.4 * Math.min(c.y1 - c.y0, box.y1 - box.y0) && (inside || (gap >= -1 && gap < 0.6 * (box.y1 - box.y0)))) {
          label.push(c);
          used.add(c);
          box.x0 = Math.min(box.x0, c.x0);
          box.y0 = Math.min(box.y0, c.y0);
          box.y1 = Math.max(box.y1, c.y1);
          grown = true;
        }
      }
    }
    if (box.y1 - box.y0 > spacing * 1.2) continue;
    const centre = (box.y0 + box.y1) / 2;
    const tick = ticks.reduce<number | null>(
      (best, t) => (Math.abs(t - centre) < spacing / 2 && (best === null || Math.abs(t - centre) < Math.abs(best - centre)) ? t : best),
      null,
    );
    const value = parseNumber(readGlyphs(planes, glyphsOf(label), NUMBER_CHARS));
    if (tick !== null && value !== null) pairs.push({ pixel: tick, value });
  }
  const map = fitMap(pairs);
  if (!map) notes.push(`y axis: ${ticks.length} ticks, ${pairs.length} readable labels — not enough to calibrate`);
  // The y offset ("1e−6", "+0.5") sits above the frame's top-left corner.
  if (map) {
    const above = textLines(
      inkComponents(planes, {
        x0: Math.max(0, frame.x0 - 30),
        x1: frame.x0 + Math.round((frame.x1 - frame.x0) * 0.3),
        y0: Math.max(0, frame.y0 - 40),
        y1: frame.y0 - 1,
      }),
    );
    const line = above.sort((a, b) => boxOf(b).y1 - boxOf(a).y1)[0];
    const first = line ? labelsOf(glyphsOf(line), true)[0] : undefined;
    const offset = first ? parseAxisOffset(readGlyphs(planes, first, NUMBER_CHARS)) : null;
    if (offset) applyOffset(map, offset);
  }
  // The axis title: the remaining ink left of the tick labels, rotated 90° (reads bottom to top).
  const labelsLeft = pairs.length ? Math.min(...[...used].map((c) => c.x0)) : right;
  const rest = components.filter((c) => !used.has(c) && c.x1 <= labelsLeft - 1 && c.y0 >= frame.y0 - 20 && c.y1 <= frame.y1 + 20);
  const columns = textLines(rest, true);
  const column = columns.sort((a, b) => boxOf(b).x1 - boxOf(a).x1)[0];
  const label = column ? readGlyphs(planes, glyphsOf(column, true), undefined, true) : '';
  return { map, label, notes };
}

/** The title: the text line just above the frame. */
export function readTitle(planes: PixelPlanes, frame: PlotFrame): string {
  const lines = textLines(inkComponents(planes, { x0: frame.x0, x1: frame.x1, y0: 0, y1: frame.y0 - 2 }));
  const line = lines.sort((a, b) => boxOf(b).y1 - boxOf(a).y1)[0];
  return line ? readGlyphs(planes, glyphsOf(line)) : '';
}

/** An axis offset text: additive ("+4.2", "−0.5") or a multiplier ("1e−6", "×10−6" read flat). */
export function parseAxisOffset(text: string): { add: number; multiply: number } | null {
  const t = text.replace(/\s+/g, '');
  const multiplier = /^(?:1e|×10)([-+]?\d+)$/.exec(t);
  if (multiplier) return { add: 0, multiply: 10 ** Number(multiplier[1]) };
  if (/^[-+]/.test(t)) {
    const value = parseNumber(t);
    if (value !== null) return { add: value, multiply: 1 };
  }
  return null;
}

function applyOffset(map: AxisMap, offset: { add: number; multiply: number }): void {
  map.offset = map.offset * offset.multiply + offset.add;
  map.scale *= offset.multiply;
  for (const tick of map.ticks) tick.value = tick.value * offset.multiply + offset.add;
}
