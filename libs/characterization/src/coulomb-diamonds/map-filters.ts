// Smoothing and robust level estimates of a 2-D map (row-major, rows × cols) used by the blockade-edge search
// (blockade-edges.ts): binomial smoothing, the histogram mode, the white-noise level from first differences (MAD,
// Hampel 1974), the sub-pixel minimum of a profile and a 3-point running median.

import { MAD_TO_SIGMA, median as medianOf, sortedQuantile as quantile } from '../signal/order-statistics.js';

/** Upper median of the values (left untouched); 0 when empty. */
export const median = (values: Float64Array): number => (values.length ? medianOf(values) : 0);

export function binomialSmooth(data: Float64Array, rows: number, cols: number): Float64Array {
  const tmp = new Float64Array(rows * cols);
  const out = new Float64Array(rows * cols);
  for (let y = 0; y < rows; y++) {
    const o = y * cols;
    for (let x = 0; x < cols; x++) {
      const l = data[o + Math.max(0, x - 1)]!;
      const r = data[o + Math.min(cols - 1, x + 1)]!;
      tmp[o + x] = 0.25 * l + 0.5 * data[o + x]! + 0.25 * r;
    }
  }
  for (let y = 0; y < rows; y++) {
    const u = Math.max(0, y - 1) * cols;
    const d = Math.min(rows - 1, y + 1) * cols;
    const o = y * cols;
    for (let x = 0; x < cols; x++) out[o + x] = 0.25 * tmp[u + x]! + 0.5 * tmp[o + x]! + 0.25 * tmp[d + x]!;
  }
  return out;
}

/** Mode of the values (the level most pixels sit at: the blockade, or the zero-conductance background). */
export function histogramMode(sorted: Float64Array, binWidth: number): number {
  const lo = quantile(sorted, 0.01);
  const hi = quantile(sorted, 0.99);
  if (!(hi > lo) || !(binWidth > 0)) return median(sorted);
  const bins = Math.min(4096, Math.max(8, Math.ceil((hi - lo) / binWidth)));
  const width = (hi - lo) / bins;
  const counts = new Float64Array(bins);
  for (const v of sorted) {
    if (v < lo || v > hi) continue;
    counts[Math.min(bins - 1, Math.floor((v - lo) / width))]! += 1;
  }
  let best = 0;
  let bestCount = -1;
  for (let b = 0; b < bins; b++) {
    const c = (counts[b - 1] ?? 0) + 2 * counts[b]! + (counts[b + 1] ?? 0);
    if (c > bestCount) {
      bestCount = c;
      best = b;
    }
  }
  // Mean of the values in the modal bin and its neighbours.
  const a = lo + (best - 1) * width;
  const b = lo + (best + 2) * width;
  let sum = 0;
  let n = 0;
  for (const v of sorted) {
    if (v >= a && v < b) {
      sum += v;
      n++;
    }
  }
  return n ? sum / n : lo + (best + 0.5) * width;
}

/** Robust std of the first differences along the gate axis of the raw map (white-noise level). */
export function differenceNoise(data: Float64Array, rows: number, cols: number): number {
  const d = new Float64Array(rows * (cols - 1));
  let k = 0;
  for (let y = 0; y < rows; y++) for (let x = 0; x + 1 < cols; x++) d[k++] = Math.abs(data[y * cols + x + 1]! - data[y * cols + x]!);
  return (median(d) * MAD_TO_SIGMA) / Math.SQRT2;
}

/** Sub-pixel minimum of a profile (parabola through the minimum and its neighbours). */
export function subPixelArgMin(profile: Float64Array): number {
  let best = 0;
  for (let i = 1; i < profile.length; i++) if (profile[i]! < profile[best]!) best = i;
  if (best === 0 || best === profile.length - 1) return best;
  const a = profile[best - 1]!;
  const b = profile[best]!;
  const c = profile[best + 1]!;
  const den = a - 2 * b + c;
  return den > 0 ? best + (0.5 * (a - c)) / den : best;
}

export function smoothProfile(profile: Float64Array, passes: number): Float64Array {
  let p = profile;
  for (let k = 0; k < passes; k++) {
    const q = new Float64Array(p.length);
    for (let i = 0; i < p.length; i++) q[i] = 0.25 * p[Math.max(0, i - 1)]! + 0.5 * p[i]! + 0.25 * p[Math.min(p.length - 1, i + 1)]!;
    p = q;
  }
  return p;
}

/** 3-point median along the columns (removes single-column outliers, keeps ramps and corners). */
export function medianAlongColumns(values: Float64Array): Float64Array {
  const out = Float64Array.from(values);
  for (let x = 1; x + 1 < values.length; x++) {
    const a = values[x - 1]!;
    const b = values[x]!;
    const c = values[x + 1]!;
    if (Number.isNaN(a) || Number.isNaN(b) || Number.isNaN(c)) continue;
    out[x] = Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
  }
  return out;
}
