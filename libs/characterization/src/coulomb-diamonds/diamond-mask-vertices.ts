// Diamond vertices from a blockade mask (axis 0 = bias, axis 1 = gate). In the constant-interaction model each
// Coulomb diamond is a parallelogram (Kouwenhoven et al., NATO ASI E 345 (1997), Fig. 2.6): its upper-left and
// lower-right edges share the slope −C_g/C_s, its upper-right and lower-left edges the slope C_g/(C_g + C_d).
// Steps: 4-connected components; components joined at a degeneracy point are split at the narrow neck of their
// column-height profile; per diamond the sub-pixel boundary (half a pixel outside the outermost mask pixel of each
// column) is fitted by four lines with two shared slopes (linear least squares, points reassigned to the nearer
// active line and outliers trimmed over a few iterations); vertices are the line intersections.
// Only diamonds whose four vertices fall inside the window are reported (cut diamonds are not measurable).
import { MAD_TO_SIGMA, medianInPlace } from '../signal/order-statistics.js';
import type { DiamondVertices, Vertex } from './diamond-score.js';

export interface MaskDiamond {
  vertices: DiamondVertices;
  /** Slopes (rows per column) of the upper-left/lower-right edges (a) and upper-right/lower-left edges (c), both > 0. */
  slopeA: number;
  slopeC: number;
}

/** Smallest diamond reported: gate width and bias height in pixels, as a fraction of the window side. */
const MIN_SIZE_FRACTION = 0.04;
/** A column-height minimum at most this fraction of the smaller neighbouring maximum splits a component. */
const NECK_FRACTION = 0.25;
const FIT_ITERATIONS = 6;
/** Smallest component considered, as a fraction of the smallest diamond's bounding box. */
const MIN_FILL = 0.85;
/** Shape checks: at most this fraction of holes in the column spans, and this IoU with the fitted parallelogram. */
const MAX_HOLE_FRACTION = 0.05;
const MIN_SHAPE_IOU = 0.9;
/** Points farther than this many robust residual std from their line are left out of the next fit. */
const TRIM_SIGMA = 3;

/** 4-connected components of the mask; returns the label image (0 = background) and the count. */
function components(mask: Uint8Array, rows: number, cols: number): { labels: Int32Array; count: number } {
  const labels = new Int32Array(rows * cols);
  const stack = new Int32Array(rows * cols);
  let count = 0;
  for (let start = 0; start < rows * cols; start++) {
    if (!mask[start] || labels[start]) continue;
    count++;
    let top = 0;
    stack[top++] = start;
    labels[start] = count;
    while (top > 0) {
      const i = stack[--top]!;
      const y = Math.floor(i / cols);
      const x = i - y * cols;
      const push = (j: number): void => {
        if (mask[j] && !labels[j]) {
          labels[j] = count;
          stack[top++] = j;
        }
      };
      if (x > 0) push(i - 1);
      if (x + 1 < cols) push(i + 1);
      if (y > 0) push(i - cols);
      if (y + 1 < rows) push(i + cols);
    }
  }
  return { labels, count };
}

interface ColumnSpan {
  x: number;
  top: number;
  bottom: number;
  /** Mask pixels of the component in this column (< bottom − top + 1 when it has holes). */
  pixels: number;
}

/** Splits a run of column spans at necks (column-height minima well below both neighbouring maxima). */
function splitAtNecks(spans: ColumnSpan[]): ColumnSpan[][] {
  const h = spans.map((s) => s.bottom - s.top + 1);
  const cuts: number[] = [];
  for (let i = 1; i + 1 < spans.length; i++) {
    if (!(h[i]! <= h[i - 1]! && h[i]! <= h[i + 1]!)) continue;
    let leftMax = 0;
    for (let j = i - 1; j >= 0; j--) leftMax = Math.max(leftMax, h[j]!);
    let rightMax = 0;
    for (let j = i + 1; j < spans.length; j++) rightMax = Math.max(rightMax, h[j]!);
    if (h[i]! <= Math.max(2, NECK_FRACTION * Math.min(leftMax, rightMax))) {
      // Keep one cut per valley (the first column of a flat minimum).
      if (cuts.length && i - cuts[cuts.length - 1]! <= 1) continue;
      cuts.push(i);
    }
  }
  const pieces: ColumnSpan[][] = [];
  let from = 0;
  for (const c of cuts) {
    pieces.push(spans.slice(from, c));
    from = c + 1;
  }
  pieces.push(spans.slice(from));
  return pieces.filter((p) => p.length > 0);
}

/** Solves the small dense system A x = b in place (Gaussian elimination, partial pivoting); null if singular. */
function solve(a: number[][], b: number[]): number[] | null {
  const n = b.length;
  for (let i = 0; i < n; i++) {
    let p = i;
    for (let r = i + 1; r < n; r++) if (Math.abs(a[r]![i]!) > Math.abs(a[p]![i]!)) p = r;
    if (Math.abs(a[p]![i]!) < 1e-12) return null;
    [a[i], a[p]] = [a[p]!, a[i]!];
    [b[i], b[p]] = [b[p]!, b[i]!];
    for (let r = i + 1; r < n; r++) {
      const f = a[r]![i]! / a[i]![i]!;
      for (let k = i; k < n; k++) a[r]![k]! -= f * a[i]![k]!;
      b[r]! -= f * b[i]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    let s = b[i]!;
    for (let k = i + 1; k < n; k++) s -= a[i]![k]! * x[k]!;
    x[i] = s / a[i]![i]!;
  }
  return x;
}

/** A boundary point (x, y) on the upper (true) or lower (false) side of a diamond. */
export interface BoundaryPoint {
  x: number;
  y: number;
  upper: boolean;
}

/**
 * Parallelogram fit: lines UL y = u1 − a·x, LR y = u2 − a·x, UR y = u3 + c·x, LL y = u4 + c·x. The upper boundary
 * is max(UL, UR) in y, the lower min(LL, LR). Returns [a, c, u1, u2, u3, u4] or null.
 */
export function fitParallelogram(points: readonly BoundaryPoint[], init: { xTop: number; xBottom: number }): number[] | null {
  // line index per point: 0 UL, 1 LR, 2 UR, 3 LL
  const line = points.map((p) => (p.upper ? (p.x < init.xTop ? 0 : 2) : p.x < init.xBottom ? 3 : 1));
  const use = points.map(() => true);
  let params: number[] | null = null;
  for (let iter = 0; iter < FIT_ITERATIONS; iter++) {
    const ata = Array.from({ length: 6 }, () => new Array<number>(6).fill(0));
    const atb = new Array<number>(6).fill(0);
    const counts = [0, 0, 0, 0];
    points.forEach((p, i) => {
      if (!use[i]) return;
      const l = line[i]!;
      counts[l]!++;
      const row = [0, 0, 0, 0, 0, 0];
      if (l === 0 || l === 1) row[0] = -p.x;
      else row[1] = p.x;
      row[2 + l] = 1;
      for (let r = 0; r < 6; r++) {
        if (row[r] === 0) continue;
        atb[r]! += row[r]! * p.y;
        for (let k = 0; k < 6; k++) ata[r]![k]! += row[r]! * row[k]!;
      }
    });
    if (counts.some((c) => c < 2)) return params;
    const next = solve(ata, atb);
    if (!next || !(next[0]! > 0) || !(next[1]! > 0)) return params;
    params = next;
    const [a, c, u1, u2, u3, u4] = next as [number, number, number, number, number, number];
    const residuals: number[] = [];
    points.forEach((p, i) => {
      if (p.upper) line[i] = u1 - a * p.x > u3 + c * p.x ? 0 : 2;
      else line[i] = u4 + c * p.x < u2 - a * p.x ? 3 : 1;
      const l = line[i]!;
      const model = l === 0 ? u1 - a * p.x : l === 1 ? u2 - a * p.x : l === 2 ? u3 + c * p.x : u4 + c * p.x;
      residuals.push(Math.abs(p.y - model));
    });
    const scale = Math.max(0.5, MAD_TO_SIGMA * medianInPlace(Float64Array.from(residuals), residuals.length));
    residuals.forEach((r, i) => {
      use[i] = r <= TRIM_SIGMA * scale;
    });
  }
  return params;
}

/** The four vertices [left, top, right, bottom] of the fitted parallelogram. */
export function parallelogramVertices(params: readonly number[]): DiamondVertices {
  const [a, c, u1, u2, u3, u4] = params as [number, number, number, number, number, number];
  const s = a + c;
  const at = (x: number, u: number, slope: number): Vertex => [x, u + slope * x];
  return [at((u1 - u4) / s, u4, c), at((u1 - u3) / s, u3, c), at((u2 - u3) / s, u3, c), at((u2 - u4) / s, u4, c)];
}

function insideWindow(v: Vertex, rows: number, cols: number): boolean {
  return v[0] >= -0.5 && v[0] <= cols - 0.5 && v[1] >= -0.5 && v[1] <= rows - 0.5;
}

/** Diamonds in a binary mask (non-zero = blockade), sorted by left vertex. */
export function diamondsFromMask(mask: ArrayLike<number>, rows: number, cols: number): MaskDiamond[] {
  const binary = new Uint8Array(rows * cols);
  for (let i = 0; i < rows * cols; i++) binary[i] = mask[i]! > 0.5 ? 1 : 0;
  const { labels, count } = components(binary, rows, cols);
  const minWidth = Math.max(3, MIN_SIZE_FRACTION * cols);
  const minHeight = Math.max(3, MIN_SIZE_FRACTION * rows);
  const found: MaskDiamond[] = [];
  // Column spans and pixel counts of every component in one pass.
  const top = new Int32Array((count + 1) * cols).fill(-1);
  const bottom = new Int32Array((count + 1) * cols).fill(-1);
  const pixels = new Int32Array(count + 1);
  const columnPixels = new Int32Array((count + 1) * cols);
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const label = labels[y * cols + x]!;
      if (!label) continue;
      pixels[label]!++;
      const k = label * cols + x;
      columnPixels[k]!++;
      if (top[k]! < 0) top[k] = y;
      bottom[k] = y;
    }
  }
  for (let label = 1; label <= count; label++) {
    if (pixels[label]! < minWidth * minHeight * MIN_FILL * 0.5) continue;
    const spans: ColumnSpan[] = [];
    for (let x = 0; x < cols; x++) {
      const k = label * cols + x;
      if (top[k]! >= 0) spans.push({ x, top: top[k]!, bottom: bottom[k]!, pixels: columnPixels[k]! });
    }
    for (const piece of splitAtNecks(spans)) {
      if (piece.length < minWidth) continue;
      let xTop = piece[0]!.x;
      let yTop = Infinity;
      let xBottom = piece[0]!.x;
      let yBottom = -Infinity;
      for (const s of piece) {
        if (s.top < yTop) [yTop, xTop] = [s.top, s.x];
        if (s.bottom > yBottom) [yBottom, xBottom] = [s.bottom, s.x];
      }
      if (yBottom - yTop + 1 < minHeight) continue;
      const points: BoundaryPoint[] = [];
      for (const s of piece) {
        if (s.x === 0 || s.x === cols - 1) continue;
        if (s.top > 0) points.push({ x: s.x, y: s.top - 0.5, upper: true });
        if (s.bottom < rows - 1) points.push({ x: s.x, y: s.bottom + 0.5, upper: false });
      }
      const params = fitParallelogram(points, { xTop, xBottom });
      if (!params) continue;
      const vertices = parallelogramVertices(params);
      if (!vertices.every((v) => insideWindow(v, rows, cols))) continue;
      const [left, vTop, right, vBottom] = vertices;
      if (!(right[0] - left[0] >= minWidth && vBottom[1] - vTop[1] >= minHeight)) continue;
      // The piece must be a solid parallelogram: few holes, and its column spans overlap the fitted shape
      // (IoU ≥ MIN_SHAPE_IOU); rejects noise blobs.
      const [a, c, u1, u2, u3, u4] = params as [number, number, number, number, number, number];
      let spanLength = 0;
      let holes = 0;
      let overlap = 0;
      let union = 0;
      for (const s of piece) {
        const length = s.bottom - s.top + 1;
        spanLength += length;
        holes += length - s.pixels;
        const fitTop = Math.max(u1 - a * s.x, u3 + c * s.x);
        const fitBottom = Math.min(u4 + c * s.x, u2 - a * s.x);
        const lo = s.top - 0.5;
        const hi = s.bottom + 0.5;
        const inter = Math.max(0, Math.min(hi, fitBottom) - Math.max(lo, fitTop));
        overlap += inter;
        union += hi - lo + Math.max(0, fitBottom - fitTop) - inter;
      }
      if (holes > MAX_HOLE_FRACTION * spanLength || overlap < MIN_SHAPE_IOU * union) continue;
      found.push({ vertices, slopeA: params[0]!, slopeC: params[1]! });
    }
  }
  return found.sort((p, q) => p.vertices[0][0] - q.vertices[0][0]);
}
