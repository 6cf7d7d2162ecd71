// Wide maps (issue 29: e.g. 100 bias × 700 gate points with 4–8 diamonds): resampled whole to the 128 × 128 working
// grid, one working pixel spans 5.5 gate columns, so a vertex off by under one working pixel misses by more than 4
// caller pixels, and narrow diamonds lose their degeneracy points. Here the map is first read whole (resampled) to
// measure the median diamond width w, then read again in overlapping gate windows of TILE_WIDTHS·w columns (all bias
// rows, stride STRIDE_WIDTHS·w, the last window flush with the map's end), each resampled to the working grid: about
// 2–3 diamonds per window, as on the maps the models were tuned on, and every diamond narrower than
// (TILE_WIDTHS − STRIDE_WIDTHS)·w lies whole in some window. A diamond seen by several windows is kept once: the
// medoid of the windows' reads when MIN_VOTES or more read it (a robust consensus: one window's wrong read is
// outvoted), else the read of the window whose centre is nearest to it (furthest from the window's cut sides).
import type { DiamondVertices } from './diamond-score.js';

export interface TileDiamond {
  vertices: DiamondVertices;
  /** Per-diamond extras carried along (e.g. charging energy, lever arm). */
  extra: number[];
}

export type RegionDetector = (data: Float64Array, rows: number, cols: number) => TileDiamond[];

const TILE_WIDTHS = 2.4;
const STRIDE_WIDTHS = 0.5;
/** Tiling only when the window is narrower than this fraction of the map (else the whole map is the window). */
const MAX_TILE_FRACTION = 0.75;
const MIN_TILE = 32;
/** Maps at least this many times wider than tall are probed in windows when the whole map gives nothing. */
const PROBE_ASPECT = 2;
/** A diamond read by at least this many windows is reported as their medoid. */
const MIN_VOTES = 3;

function columns(data: Float64Array, rows: number, cols: number, from: number, width: number): Float64Array {
  const out = new Float64Array(rows * width);
  for (let y = 0; y < rows; y++) out.set(data.subarray(y * cols + from, y * cols + from + width), y * width);
  return out;
}

/**
 * The first read when the whole map gives nothing: windows of 1/2, 1/4, … of the gate axis (stride half a window, at
 * least MIN_TILE and, for the coarsest, narrower than MAX_TILE_FRACTION of the map) until some window finds diamonds
 * (issue 29: many small diamonds on a wide map, 15 working pixels each when resampled whole, are found by no read of
 * the whole map, so their width could not be measured).
 */
function probeWindows(data: Float64Array, rows: number, cols: number, detect: RegionDetector): TileDiamond[] {
  for (let parts = 2; cols / parts >= MIN_TILE; parts *= 2) {
    const tile = Math.round(cols / parts);
    const found: TileDiamond[] = [];
    const stride = Math.max(1, Math.round(tile / 2));
    for (let s = 0; s + tile <= cols; s += stride) {
      for (const d of detect(columns(data, rows, cols, s, tile), rows, tile)) {
        found.push({ vertices: d.vertices.map(([x, y]) => [x + s, y]) as DiamondVertices, extra: d.extra });
      }
    }
    if (found.length) return found;
  }
  return [];
}

export function detectInGateTiles(data: Float64Array, rows: number, cols: number, detect: RegionDetector): TileDiamond[] {
  let whole = detect(data, rows, cols);
  // Only wide maps are probed in windows (a square map with no diamond stays empty).
  const probed = whole.length === 0 && cols >= PROBE_ASPECT * rows;
  if (probed) whole = probeWindows(data, rows, cols, detect);
  if (whole.length === 0) return whole;
  const widths = whole.map((d) => d.vertices[2][0] - d.vertices[0][0]).sort((a, b) => a - b);
  const w = widths[Math.floor(widths.length / 2)]!;
  const tile = Math.max(MIN_TILE, Math.round(TILE_WIDTHS * w));
  if (tile > MAX_TILE_FRACTION * cols) return probed ? [] : whole;
  const stride = Math.max(1, Math.round(STRIDE_WIDTHS * w));
  const starts: number[] = [];
  for (let s = 0; s + tile < cols; s += stride) starts.push(s);
  starts.push(cols - tile);
  const candidates: { d: TileDiamond; offCentre: number }[] = [];
  for (const s of starts) {
    for (const d of detect(columns(data, rows, cols, s, tile), rows, tile)) {
      const vertices = d.vertices.map(([x, y]) => [x + s, y]) as DiamondVertices;
      const centre = (vertices[0][0] + vertices[2][0]) / 2;
      candidates.push({ d: { vertices, extra: d.extra }, offCentre: Math.abs(centre - (s + (tile - 1) / 2)) });
    }
  }
  candidates.sort((a, b) => a.offCentre - b.offCentre);
  const sameDiamond = (p: DiamondVertices, q: DiamondVertices): boolean => {
    const pc = (p[0][0] + p[2][0]) / 2;
    const qc = (q[0][0] + q[2][0]) / 2;
    return (pc > q[0][0] && pc < q[2][0]) || (qc > p[0][0] && qc < p[2][0]);
  };
  const groups: TileDiamond[][] = [];
  for (const { d } of candidates) {
    // The same diamond: its centre inside a kept one (or a kept one's centre inside it); the group's first member
    // comes from the window whose centre is nearest.
    const group = groups.find((g) => sameDiamond(g[0]!.vertices, d.vertices));
    if (group) group.push(d);
    else groups.push([d]);
  }
  // Seen by MIN_VOTES windows or more: the medoid (smallest summed vertex distance to the others), so one window's
  // wrong read (a cut neighbour, a lattice that merged two diamonds) is outvoted; else the most central window's.
  const distance = (p: DiamondVertices, q: DiamondVertices): number => p.reduce((s, v, i) => s + Math.hypot(v[0] - q[i]![0], v[1] - q[i]![1]), 0);
  const kept = groups.map((g) => {
    if (g.length < MIN_VOTES) return g[0]!;
    let best = g[0]!;
    let bestSum = Infinity;
    for (const d of g) {
      const sum = g.reduce((s, o) => s + distance(d.vertices, o.vertices), 0);
      if (sum < bestSum) [best, bestSum] = [d, sum];
    }
    return best;
  });
  return kept.sort((a, b) => a.vertices[0][0] - b.vertices[0][0]);
}
