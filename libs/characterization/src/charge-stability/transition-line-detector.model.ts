// Charge-transition line segments in a charge stability diagram.
// 1. Background: least-squares plane removed; white-noise σ from the median absolute Laplacian residual.
// 2. Line evidence: charge sensing shows transitions as steps, so the evidence is the gradient magnitude of the
//    Gaussian-smoothed map (Canny, IEEE TPAMI 8, 679 (1986)); direct transport shows them as bright ridges, so
//    the evidence is the ridge strength −λ_min of the Hessian (Lindeberg, IJCV 30, 117 (1998)). The read-out
//    is recognised from the grey-level distribution (transport: the median sits near the floor).
// 3. Thin lines: non-maximum suppression across the line, then hysteresis thresholds in units of the
//    evidence's own robust noise level.
// 4. Segments: line pixels are grown into 8-connected groups of consistent orientation (≤ GROUP_ANGLE apart),
//    each group is fitted by total least squares (principal axis) and split recursively where it bends
//    (split-and-merge, Ramer, CGIP 1, 244 (1972)) so curved lines become short straight pieces; collinear
//    pieces across small gaps are merged.
// Output: segments [x1, y1, x2, y2] in pixel coordinates (x = column, y = row).
import { selectInPlace } from '../signal/order-statistics.js';

export interface TransitionLineOptions {
  /** Gaussian smoothing σ, pixels. */
  smoothing: number;
  /** Hysteresis thresholds in robust-noise units of the evidence map. */
  high: number;
  low: number;
  /** Shortest segment reported, pixels. */
  minLength: number;
  /** Largest perpendicular deviation of a pixel from its fitted segment before the group is split, pixels. */
  maxDeviation: number;
  /** Merge collinear pieces separated by up to this gap, pixels. */
  mergeGap: number;
}

export const TRANSITION_LINE_DEFAULTS: TransitionLineOptions = { smoothing: 1.2, high: 6, low: 3, minLength: 8, maxDeviation: 1.5, mergeGap: 3 };
/** Neighbouring line pixels join one group when their orientations differ by less than this. */
const GROUP_ANGLE = (22 * Math.PI) / 180;

export type Segment = [number, number, number, number];

export interface LineEvidence {
  rows: number;
  cols: number;
  /** Line pixels after non-maximum suppression and hysteresis. */
  mask: Uint8Array;
  /** Line orientation (direction along the line), radians in [0, π). */
  orientation: Float64Array;
  readout: 'sensor' | 'transport';
}

function gaussianKernel(sigma: number): Float64Array {
  const half = Math.max(1, Math.ceil(3 * sigma));
  const k = new Float64Array(2 * half + 1);
  let sum = 0;
  for (let i = -half; i <= half; i++) sum += k[i + half] = Math.exp(-(i * i) / (2 * sigma * sigma));
  for (let i = 0; i < k.length; i++) k[i]! /= sum;
  for (let i = 0; i < k.length; i++) k[i] = k[i]! / 1;
  return k;
}

/** Separable Gaussian blur with edge replication. */
function blur(src: Float64Array, rows: number, cols: number, sigma: number, tmp: Float64Array, out: Float64Array): void {
  const k = gaussianKernel(sigma);
  const half = (k.length - 1) / 2;
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      let s = 0;
      for (let j = -half; j <= half; j++) s += k[j + half]! * src[y * cols + Math.min(cols - 1, Math.max(0, x + j))]!;
      tmp[y * cols + x] = s;
    }
  }
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      let s = 0;
      for (let j = -half; j <= half; j++) s += k[j + half]! * tmp[Math.min(rows - 1, Math.max(0, y + j)) * cols + x]!;
      out[y * cols + x] = s;
    }
  }
}

function quantile(values: Float64Array, count: number, q: number, scratch: Float64Array): number {
  scratch.set(values.subarray(0, count));
  return selectInPlace(scratch, count, Math.min(count - 1, Math.max(0, Math.floor(q * (count - 1)))));
}

/** Plane-free copy of the map and its robust white-noise σ. */
function flatten(data: Float64Array, rows: number, cols: number): Float64Array {
  const out = new Float64Array(rows * cols);
  const cx = (cols - 1) / 2;
  const cy = (rows - 1) / 2;
  let sum = 0;
  let sx = 0;
  let sy = 0;
  for (let y = 0; y < rows; y++) for (let x = 0; x < cols; x++) {
    const v = data[y * cols + x]!;
    sum += v;
    sx += v * (x - cx);
    sy += v * (y - cy);
  }
  let sxx = 0;
  let syy = 0;
  for (let x = 0; x < cols; x++) sxx += (x - cx) ** 2;
  for (let y = 0; y < rows; y++) syy += (y - cy) ** 2;
  const mean = sum / (rows * cols);
  const ax = sx / (sxx * rows || 1);
  const ay = sy / (syy * cols || 1);
  for (let y = 0; y < rows; y++) for (let x = 0; x < cols; x++) out[y * cols + x] = data[y * cols + x]! - mean - ax * (x - cx) - ay * (y - cy);
  return out;
}

/** Transport maps are mostly at the current floor with sparse bright lines: the median sits near the bottom. */
export function looksLikeTransport(flat: Float64Array): boolean {
  const n = flat.length;
  const scratch = new Float64Array(n);
  const p2 = quantile(flat, n, 0.02, scratch);
  const p50 = quantile(flat, n, 0.5, scratch);
  const p98 = quantile(flat, n, 0.98, scratch);
  return p98 > p2 && (p50 - p2) / (p98 - p2) < 0.22;
}

/** Thin line pixels and their orientations (steps 1–3 of the header). */
export function lineEvidence(data: Float64Array, rows: number, cols: number, options: TransitionLineOptions = TRANSITION_LINE_DEFAULTS): LineEvidence {
  const n = rows * cols;
  const flat = flatten(data, rows, cols);
  const transport = looksLikeTransport(flat);
  const tmp = new Float64Array(n);
  const smooth = new Float64Array(n);
  blur(flat, rows, cols, options.smoothing, tmp, smooth);
  const strength = new Float64Array(n);
  // Unit normal across the line at each pixel.
  const nx = new Float64Array(n);
  const ny = new Float64Array(n);
  for (let y = 1; y < rows - 1; y++) {
    for (let x = 1; x < cols - 1; x++) {
      const i = y * cols + x;
      if (!transport) {
        const gx = 0.5 * (smooth[i + 1]! - smooth[i - 1]!);
        const gy = 0.5 * (smooth[i + cols]! - smooth[i - cols]!);
        const m = Math.hypot(gx, gy);
        strength[i] = m;
        nx[i] = m > 0 ? gx / m : 1;
        ny[i] = m > 0 ? gy / m : 0;
      } else {
        const hxx = smooth[i + 1]! - 2 * smooth[i]! + smooth[i - 1]!;
        const hyy = smooth[i + cols]! - 2 * smooth[i]! + smooth[i - cols]!;
        const hxy = 0.25 * (smooth[i + cols + 1]! - smooth[i + cols - 1]! - smooth[i - cols + 1]! + smooth[i - cols - 1]!);
        // Most negative eigenvalue and its eigenvector (the direction across a bright ridge).
        const tr = 0.5 * (hxx + hyy);
        const det = Math.sqrt(0.25 * (hxx - hyy) ** 2 + hxy * hxy);
        const lambda = tr - det;
        strength[i] = lambda < 0 ? -lambda : 0;
        let vx = hxy;
        let vy = lambda - hxx;
        if (Math.abs(vx) + Math.abs(vy) < 1e-300) {
          vx = hxx <= hyy ? 1 : 0;
          vy = hxx <= hyy ? 0 : 1;
        }
        const m = Math.hypot(vx, vy);
        nx[i] = vx / m;
        ny[i] = vy / m;
      }
    }
  }
  // Robust noise level of the evidence: the median over the interior is dominated by line-free pixels.
  const interior = new Float64Array((rows - 2) * (cols - 2));
  let c = 0;
  for (let y = 1; y < rows - 1; y++) for (let x = 1; x < cols - 1; x++) interior[c++] = strength[y * cols + x]!;
  const scratch = new Float64Array(c);
  const level = Math.max(quantile(interior, c, 0.5, scratch), 1e-300);
  // Non-maximum suppression along the normal (bilinear-free: nearest neighbour in the rounded direction).
  const thin = new Float64Array(n);
  for (let y = 2; y < rows - 2; y++) {
    for (let x = 2; x < cols - 2; x++) {
      const i = y * cols + x;
      const s = strength[i]!;
      if (s <= options.low * level) continue;
      const dx = Math.round(nx[i]!);
      const dy = Math.round(ny[i]!);
      if (s >= strength[i + dy * cols + dx]! && s > strength[i - dy * cols - dx]!) thin[i] = s;
    }
  }
  // Hysteresis: keep weak line pixels connected to a strong one.
  const mask = new Uint8Array(n);
  const stack: number[] = [];
  for (let i = 0; i < n; i++) {
    if (thin[i]! >= options.high * level && !mask[i]) {
      mask[i] = 1;
      stack.push(i);
      while (stack.length) {
        const j = stack.pop()!;
        const jy = Math.floor(j / cols);
        const jx = j - jy * cols;
        for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
          const yy = jy + dy;
          const xx = jx + dx;
          if (yy < 0 || yy >= rows || xx < 0 || xx >= cols) continue;
          const k = yy * cols + xx;
          if (!mask[k] && thin[k]! > 0) {
            mask[k] = 1;
            stack.push(k);
          }
        }
      }
    }
  }
  const orientation = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    // Along the line = normal rotated by 90°.
    let t = Math.atan2(nx[i]!, -ny[i]!);
    if (t < 0) t += Math.PI;
    if (t >= Math.PI) t -= Math.PI;
    orientation[i] = t;
  }
  return { rows, cols, mask, orientation, readout: transport ? 'transport' : 'sensor' };
}

const angleGap = (a: number, b: number): number => {
  const d = Math.abs(a - b) % Math.PI;
  return Math.min(d, Math.PI - d);
};

/** Principal-axis (total least squares) segment through points; null for fewer than 2. */
function fitSegment(xs: number[], ys: number[], from: number, to: number): { seg: Segment; worst: number; worstAt: number } | null {
  const count = to - from;
  if (count < 2) return null;
  let mx = 0;
  let my = 0;
  for (let k = from; k < to; k++) {
    mx += xs[k]!;
    my += ys[k]!;
  }
  mx /= count;
  my /= count;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let k = from; k < to; k++) {
    const dx = xs[k]! - mx;
    const dy = ys[k]! - my;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  const theta = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  const tx = Math.cos(theta);
  const ty = Math.sin(theta);
  let lo = Infinity;
  let hi = -Infinity;
  let worst = 0;
  let worstAt = from;
  for (let k = from; k < to; k++) {
    const dx = xs[k]! - mx;
    const dy = ys[k]! - my;
    const s = dx * tx + dy * ty;
    lo = Math.min(lo, s);
    hi = Math.max(hi, s);
    const d = Math.abs(-dx * ty + dy * tx);
    if (d > worst) {
      worst = d;
      worstAt = k;
    }
  }
  return { seg: [mx + lo * tx, my + lo * ty, mx + hi * tx, my + hi * ty], worst, worstAt };
}

/** Recursive split of points ordered along their principal axis until every piece is straight. */
function splitFit(xs: number[], ys: number[], from: number, to: number, options: TransitionLineOptions, out: Segment[]): void {
  const fit = fitSegment(xs, ys, from, to);
  if (!fit) return;
  const length = Math.hypot(fit.seg[2] - fit.seg[0], fit.seg[3] - fit.seg[1]);
  if (fit.worst <= options.maxDeviation || to - from < 2 * options.minLength) {
    if (length >= options.minLength && fit.worst <= 2 * options.maxDeviation) out.push(fit.seg);
    return;
  }
  const cut = Math.min(to - 2, Math.max(from + 2, fit.worstAt));
  splitFit(xs, ys, from, cut, options, out);
  splitFit(xs, ys, cut, to, options, out);
}

/** Step 4 of the header: grouped, fitted and merged segments from line evidence. */
export function segmentsFromEvidence(evidence: LineEvidence, options: TransitionLineOptions = TRANSITION_LINE_DEFAULTS): Segment[] {
  const { rows, cols, mask, orientation } = evidence;
  const n = rows * cols;
  const group = new Int32Array(n).fill(-1);
  const pieces: Segment[] = [];
  const stack: number[] = [];
  for (let seed = 0; seed < n; seed++) {
    if (!mask[seed] || group[seed]! >= 0) continue;
    const members: number[] = [];
    group[seed] = seed;
    stack.push(seed);
    // Orientation of the group so far (running circular mean of the doubled angle).
    let cx = Math.cos(2 * orientation[seed]!);
    let cy = Math.sin(2 * orientation[seed]!);
    while (stack.length) {
      const j = stack.pop()!;
      members.push(j);
      const jy = Math.floor(j / cols);
      const jx = j - jy * cols;
      const mean = 0.5 * Math.atan2(cy, cx);
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
        const yy = jy + dy;
        const xx = jx + dx;
        if (yy < 0 || yy >= rows || xx < 0 || xx >= cols) continue;
        const k = yy * cols + xx;
        if (!mask[k] || group[k]! >= 0) continue;
        if (angleGap(orientation[k]!, orientation[j]!) > GROUP_ANGLE || angleGap(orientation[k]!, mean < 0 ? mean + Math.PI : mean) > GROUP_ANGLE) continue;
        group[k] = seed;
        cx += Math.cos(2 * orientation[k]!);
        cy += Math.sin(2 * orientation[k]!);
        stack.push(k);
      }
    }
    if (members.length < options.minLength * 0.7) continue;
    // Order the members along the group's principal axis, then split-and-fit.
    const xs0 = members.map((i) => i % cols);
    const ys0 = members.map((i) => Math.floor(i / cols));
    const fit = fitSegment(xs0, ys0, 0, members.length);
    if (!fit) continue;
    const tx = fit.seg[2] - fit.seg[0];
    const ty = fit.seg[3] - fit.seg[1];
    const order = members.map((_, k) => k).sort((a, b) => xs0[a]! * tx + ys0[a]! * ty - (xs0[b]! * tx + ys0[b]! * ty));
    splitFit(order.map((k) => xs0[k]!), order.map((k) => ys0[k]!), 0, order.length, options, pieces);
  }
  return mergeCollinear(pieces, options);
}

function mergeCollinear(segments: Segment[], options: TransitionLineOptions): Segment[] {
  const list = segments.slice();
  let merged = true;
  while (merged) {
    merged = false;
    outer: for (let a = 0; a < list.length; a++) {
      for (let b = a + 1; b < list.length; b++) {
        const joined = tryMerge(list[a]!, list[b]!, options);
        if (joined) {
          list[a] = joined;
          list.splice(b, 1);
          merged = true;
          break outer;
        }
      }
    }
  }
  return list;
}

function tryMerge(p: Segment, q: Segment, options: TransitionLineOptions): Segment | null {
  const ap = Math.atan2(p[3] - p[1], p[2] - p[0]);
  const aq = Math.atan2(q[3] - q[1], q[2] - q[0]);
  if (angleGap(ap < 0 ? ap + Math.PI : ap, aq < 0 ? aq + Math.PI : aq) > (4 * Math.PI) / 180) return null;
  const lp = Math.hypot(p[2] - p[0], p[3] - p[1]);
  const tx = (p[2] - p[0]) / lp;
  const ty = (p[3] - p[1]) / lp;
  const off = (x: number, y: number): number => Math.abs(-(x - p[0]) * ty + (y - p[1]) * tx);
  if (off(q[0], q[1]) > 1.2 || off(q[2], q[3]) > 1.2) return null;
  const s = (x: number, y: number): number => (x - p[0]) * tx + (y - p[1]) * ty;
  const sq = [s(q[0], q[1]), s(q[2], q[3])].sort((u, v) => u - v) as [number, number];
  const gap = Math.max(sq[0] - lp, -sq[1], 0);
  if (gap > options.mergeGap) return null;
  const lo = Math.min(0, sq[0]);
  const hi = Math.max(lp, sq[1]);
  return [p[0] + lo * tx, p[1] + lo * ty, p[0] + hi * tx, p[1] + hi * ty];
}

const round2 = (v: number): number => Math.round(v * 100) / 100;

/** Transition segments of a rows × cols map, [x1, y1, x2, y2] rounded to 0.01 px. */
export function detectTransitionLines(data: Float64Array, rows: number, cols: number, options: TransitionLineOptions = TRANSITION_LINE_DEFAULTS): { segments: Segment[]; evidence: LineEvidence } {
  const evidence = lineEvidence(data, rows, cols, options);
  const segments = segmentsFromEvidence(evidence, options).map((s) => s.map(round2) as Segment);
  return { segments, evidence };
}
