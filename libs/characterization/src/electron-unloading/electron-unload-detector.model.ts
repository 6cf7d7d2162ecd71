// electron-unload-detector-v0: plunger indices where an electron leaves the dot, from a (plunger × time|barrier)
// charge-sensor map. Classical step detection on the column-averaged sweep:
// 1. Average the 51 columns (each a plunger sweep) with the interquartile mean: white noise averages down, telegraph
//    rows follow their majority state, a step that moves by a few rows across a barrier sweep stays one step.
// 2. Step filter: difference of the means of H rows after and H rows before each boundary (the optimal step
//    detector for white noise, Canny, IEEE PAMI 8, 679 (1986), 1-D box version), minus a robust line (iteratively
//    clipped least squares; removes the sensor-flank slope and curvature).
// 3. Noise: the larger of the white-noise σ of the averaged sweep (MAD of its first differences) and the pixel σ
//    (MAD of neighbouring-column differences) / sqrt(columns), propagated through the filter; steps = local extrema ≥ STEP_SIGMA σ with the polarity of the
//    strongest (every unloading moves the sensor the same way), ≥ MIN_SEPARATION_ROWS apart with the response falling below half the smaller between them, refined by a
//    parabola and reported as the row just above the boundary rounded.
import { MAD_TO_SIGMA, medianAbsoluteDeviation, medianInPlace } from '../signal/order-statistics.js';

/** Fraction of the columns dropped at each end before averaging a row (interquartile mean). */
const TRIM_FRACTION = 0.25;
/** Rows averaged on each side of a boundary. */
const STEP_HALF_ROWS = 3;
/** Robust line fit of the filtered trace's background: clip beyond this many σ, iterations. */
const BACKGROUND_CLIP_SIGMA = 2.5;
const BACKGROUND_ITERATIONS = 6;
/** Detection threshold, robust σ of the filtered trace. */
const STEP_SIGMA = 4.5;
/** Weaker steps than this fraction of the strongest are not reported (slope residue, telegraph bias). */
const MIN_RELATIVE_STEP = 0.2;
const MIN_SEPARATION_ROWS = 6;
/** Noise floor as a fraction of the sweep's range, so a noise-free staircase still has a finite σ. */
const NOISE_FLOOR = 1e-6;
/** Two extrema are distinct steps only if the response between them falls below this fraction of the smaller. */
const VALLEY_FRACTION = 0.5;

export interface UnloadDetection {
  unload_indices: number[];
  /** Step sizes (sensor units, signed) at the reported indices. */
  step_heights: number[];
  /** Robust noise σ of the step filter, sensor units. */
  noise: number;
}

/** σ from the MAD, with the model's four-digit Gaussian factor (kept: the detector's outputs are defined with it). */
const robustSigma = (values: Float64Array): number => MAD_TO_SIGMA * medianAbsoluteDeviation(values);

/**
 * Column-averaged sweep of a (rows, cols) C-order map: per row the interquartile mean over the columns (the mean of
 * the middle half), which follows the majority charge state in telegraph rows and ignores outliers.
 */
export function columnAverage(data: Float64Array, rows: number, cols: number): Float64Array {
  const out = new Float64Array(rows);
  const values = new Float64Array(cols);
  const trim = Math.floor(TRIM_FRACTION * cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) values[c] = data[r * cols + c]!;
    values.sort();
    let sum = 0;
    for (let c = trim; c < cols - trim; c++) sum += values[c]!;
    out[r] = sum / (cols - 2 * trim);
  }
  return out;
}

/** Step filter at boundary b (between rows b and b + 1), b = 0 … rows − 2, background removed. */
export function stepResponse(trace: Float64Array, half = STEP_HALF_ROWS): Float64Array {
  const n = trace.length;
  const response = new Float64Array(n - 1);
  for (let b = 0; b < n - 1; b++) {
    const h = Math.min(half, b + 1, n - 1 - b);
    let after = 0;
    let before = 0;
    for (let k = 0; k < h; k++) {
      after += trace[b + 1 + k]!;
      before += trace[b - k]!;
    }
    response[b] = (after - before) / h;
  }
  // Background (sensor-flank slope and curvature → a linear trend of the response): least-squares line, refitted
  // without points beyond BACKGROUND_CLIP_SIGMA robust σ (the steps) until stable.
  const inlier = new Uint8Array(n - 1).fill(1);
  let a = 0;
  let slope = 0;
  for (let iteration = 0; iteration < BACKGROUND_ITERATIONS; iteration++) {
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let sy = 0;
    let sxy = 0;
    for (let b = 0; b < n - 1; b++) {
      if (!inlier[b]) continue;
      const x = b - (n - 2) / 2;
      s0++;
      s1 += x;
      s2 += x * x;
      sy += response[b]!;
      sxy += x * response[b]!;
    }
    const det = s0 * s2 - s1 * s1;
    if (s0 < 3 || det <= 0) break;
    a = (s2 * sy - s1 * sxy) / det;
    slope = (s0 * sxy - s1 * sy) / det;
    const residuals = Float64Array.from(response, (v, b) => v - a - slope * (b - (n - 2) / 2));
    const sigma = robustSigma(residuals.filter((_, b) => inlier[b] === 1));
    for (let b = 0; b < n - 1; b++) inlier[b] = Math.abs(residuals[b]!) <= BACKGROUND_CLIP_SIGMA * sigma ? 1 : 0;
  }
  for (let b = 0; b < n - 1; b++) response[b] = response[b]! - a - slope * (b - (n - 2) / 2);
  return response;
}

function range(values: Float64Array): number {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return max - min;
}

/** White-noise σ of the averaged sweep from its first differences (MAD; steps are a few of the 100 differences). */
function sweepNoise(trace: Float64Array): number {
  return robustSigma(Float64Array.from({ length: trace.length - 1 }, (_, i) => trace[i + 1]! - trace[i]!)) / Math.SQRT2;
}

/** Per-pixel white-noise σ from differences of neighbouring columns after removing each column's median (1/f offsets). */
export function pixelNoise(data: Float64Array, rows: number, cols: number): number {
  const centred = new Float64Array(rows * cols);
  const column = new Float64Array(rows);
  for (let c = 0; c < cols; c++) {
    for (let r = 0; r < rows; r++) column[r] = data[r * cols + c]!;
    const med = medianInPlace(column, rows);
    for (let r = 0; r < rows; r++) centred[r * cols + c] = data[r * cols + c]! - med;
  }
  const differences = new Float64Array(rows * (cols - 1));
  for (let r = 0; r < rows; r++) for (let c = 0; c + 1 < cols; c++) differences[r * (cols - 1) + c] = centred[r * cols + c + 1]! - centred[r * cols + c]!;
  return robustSigma(differences) / Math.SQRT2;
}

export function detectElectronUnloads(data: Float64Array, rows: number, cols: number): UnloadDetection {
  const trace = columnAverage(data, rows, cols);
  const response = stepResponse(trace);
  const sigma = Math.max(sweepNoise(trace), pixelNoise(data, rows, cols) / Math.sqrt(cols), NOISE_FLOOR * range(trace)) * Math.sqrt(2 / STEP_HALF_ROWS);
  const noise = Math.round(sigma * 1e6) / 1e6;
  if (!(sigma > 0)) return { unload_indices: [], step_heights: [], noise };
  let strongest = 0;
  for (let b = 0; b < response.length; b++) if (Math.abs(response[b]!) > Math.abs(strongest)) strongest = response[b]!;
  const polarity = Math.sign(strongest);
  const candidates: { boundary: number; value: number }[] = [];
  for (let b = STEP_HALF_ROWS - 1; b <= response.length - STEP_HALF_ROWS; b++) {
    const v = polarity * response[b]!;
    const left = b > 0 ? polarity * response[b - 1]! : -Infinity;
    const right = b + 1 < response.length ? polarity * response[b + 1]! : -Infinity;
    if (v > left && v >= right && v >= STEP_SIGMA * sigma && v >= MIN_RELATIVE_STEP * Math.abs(strongest)) candidates.push({ boundary: b, value: v });
  }
  candidates.sort((a, b) => b.value - a.value);
  const kept: { position: number; value: number; boundary: number }[] = [];
  for (const c of candidates) {
    const b = c.boundary;
    let position = b + 0.5;
    if (b > 0 && b + 1 < response.length) {
      const l = polarity * response[b - 1]!;
      const r = polarity * response[b + 1]!;
      const den = l - 2 * c.value + r;
      if (den < 0) position += Math.max(-0.5, Math.min(0.5, (0.5 * (l - r)) / den));
    }
    const distinct = kept.every((k) => {
      if (Math.abs(k.position - position) < MIN_SEPARATION_ROWS) return false;
      // One step split by telegraph switching keeps the response high between its parts.
      let valley = Infinity;
      for (let j = Math.min(k.boundary, b); j <= Math.max(k.boundary, b); j++) valley = Math.min(valley, polarity * response[j]!);
      return valley < VALLEY_FRACTION * Math.min(k.value, c.value);
    });
    if (distinct) kept.push({ position, value: c.value, boundary: b });
  }
  kept.sort((a, b) => a.position - b.position);
  return {
    unload_indices: kept.map((k) => Math.min(rows - 1, Math.max(0, Math.round(k.position)))),
    step_heights: kept.map((k) => Math.round(polarity * k.value * 1e6) / 1e6),
    noise,
  };
}
