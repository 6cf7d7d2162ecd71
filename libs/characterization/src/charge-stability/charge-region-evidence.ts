// Steps 1–3 of the charge-region segmenter: background removal, boundary evidence in white-noise units and its
// local normalisation.
// 1. Least-squares plane removed, then per-row offsets (median row-to-row difference, summed) so that sensor charge
//    jumps, telegraph and 1/f offsets between fast-axis sweeps do not read as horizontal transitions.
// 2. Charge sensing shows transitions as steps between plateaus: evidence = gradient magnitude of the
//    Gaussian-smoothed map minus the map's median (plateau ramp) gradient (Canny, IEEE TPAMI 8, 679 (1986)); direct
//    transport shows them as bright lines: evidence = Hessian ridge strength −λ_min (Lindeberg, IJCV 30, 117 (1998)).
//    The read-out is recognised from the skew of the Laplacian (bright ridges: strongly negative at their crests).
// 3. Local line level: a high quantile of the evidence within ±LEVEL_REACH px, bilinear between blocks.
import { gaussianBlur } from './gaussian-blur.js';
import { MAD_TO_SIGMA, quantile, selectInPlace } from '../signal/order-statistics.js';
import { CHARGE_REGION_DEFAULTS, type ChargeRegionOptions } from './charge-region-options.js';

/** Plane- and row-offset-free copy of the map (step 1). */
function flattenMap(data: Float64Array, rows: number, cols: number): Float64Array {
  const out = new Float64Array(rows * cols);
  const cx = (cols - 1) / 2;
  const cy = (rows - 1) / 2;
  let sum = 0;
  let sx = 0;
  let sy = 0;
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const v = data[y * cols + x]!;
      sum += v;
      sx += v * (x - cx);
      sy += v * (y - cy);
    }
  }
  let sxx = 0;
  let syy = 0;
  for (let x = 0; x < cols; x++) sxx += (x - cx) ** 2;
  for (let y = 0; y < rows; y++) syy += (y - cy) ** 2;
  const mean = sum / (rows * cols);
  const ax = sx / (sxx * rows || 1);
  const ay = sy / (syy * cols || 1);
  for (let y = 0; y < rows; y++) for (let x = 0; x < cols; x++) out[y * cols + x] = data[y * cols + x]! - mean - ax * (x - cx) - ay * (y - cy);
  // Row offsets: a transition crosses a pair of rows in few columns, an offset shifts all of them.
  const diff = new Float64Array(cols);
  let offset = 0;
  const offsets = new Float64Array(rows);
  for (let y = 1; y < rows; y++) {
    for (let x = 0; x < cols; x++) diff[x] = out[y * cols + x]! - out[(y - 1) * cols + x]!;
    offset += quantile(diff, 0.5);
    offsets[y] = offset;
  }
  let offsetMean = 0;
  for (let y = 0; y < rows; y++) offsetMean += offsets[y]! / rows;
  for (let y = 0; y < rows; y++) for (let x = 0; x < cols; x++) out[y * cols + x] = out[y * cols + x]! - offsets[y]! + offsetMean;
  return out;
}

/** Transport lines are bright ridges: the Laplacian is strongly negative on them and only mildly positive beside them; steps give a symmetric Laplacian. */
export const TRANSPORT_LAPLACIAN_SKEW = -0.2;

function laplacianSkew(smooth: Float64Array, rows: number, cols: number): number {
  const values: number[] = [];
  for (let y = 1; y < rows - 1; y++) {
    for (let x = 1; x < cols - 1; x++) {
      const i = y * cols + x;
      values.push(smooth[i - 1]! + smooth[i + 1]! + smooth[i - cols]! + smooth[i + cols]! - 4 * smooth[i]!);
    }
  }
  const lo = quantile(values, 0.005);
  const mid = quantile(values, 0.5);
  const hi = quantile(values, 0.995);
  return hi > lo ? (hi + lo - 2 * mid) / (hi - lo) : 0;
}

/** White-noise σ from the median absolute difference of fast-axis neighbours (transitions touch few pairs). */
function whiteNoiseSigma(flat: Float64Array, rows: number, cols: number): number {
  const diffs: number[] = [];
  for (let y = 0; y < rows; y++) for (let x = 1; x < cols; x++) diffs.push(Math.abs(flat[y * cols + x]! - flat[y * cols + x - 1]!));
  return (MAD_TO_SIGMA * quantile(diffs, 0.5)) / Math.SQRT2;
}

/** Step 2: evidence in noise units and the read-out. */
export function boundaryEvidence(
  data: Float64Array,
  rows: number,
  cols: number,
  options: ChargeRegionOptions = CHARGE_REGION_DEFAULTS,
): { evidence: Float64Array; readout: 'sensor' | 'transport' } {
  const n = rows * cols;
  const flat = flattenMap(data, rows, cols);
  const sigma = Math.max(whiteNoiseSigma(flat, rows, cols), 1e-300);
  let smooth = gaussianBlur(flat, rows, cols, options.smoothing);
  const transport = laplacianSkew(smooth, rows, cols) < TRANSPORT_LAPLACIAN_SKEW;
  // Steps are sharper than thermally broadened transport lines: less smoothing keeps adjacent steps apart.
  const sigmaS = transport ? options.smoothing : options.sensorSmoothing;
  if (sigmaS !== options.smoothing) smooth = gaussianBlur(flat, rows, cols, sigmaS);
  const evidence = new Float64Array(n);
  const s2 = sigmaS * sigmaS;
  if (transport) {
    // Ridge strength −λ_min of the Hessian (Lindeberg, IJCV 30, 117 (1998)): bright lines stand out whatever the
    // current floor; second derivatives of smoothed white noise have σ·√(3/(16π)) / σ_s³.
    const scale = (sigma * Math.sqrt(3 / (16 * Math.PI))) / (s2 * sigmaS);
    for (let y = 0; y < rows; y++) {
      for (let x = 0; x < cols; x++) {
        const i = y * cols + x;
        const xm1 = Math.max(0, x - 1);
        const xp1 = Math.min(cols - 1, x + 1);
        const ym1 = Math.max(0, y - 1);
        const yp1 = Math.min(rows - 1, y + 1);
        const hxx = smooth[y * cols + xp1]! - 2 * smooth[i]! + smooth[y * cols + xm1]!;
        const hyy = smooth[yp1 * cols + x]! - 2 * smooth[i]! + smooth[ym1 * cols + x]!;
        const hxy = 0.25 * (smooth[yp1 * cols + xp1]! - smooth[yp1 * cols + xm1]! - smooth[ym1 * cols + xp1]! + smooth[ym1 * cols + xm1]!);
        const lambda = 0.5 * (hxx + hyy) - Math.sqrt(0.25 * (hxx - hyy) ** 2 + hxy * hxy);
        evidence[i] = lambda < 0 ? -lambda / scale : 0;
      }
    }
  } else {
    // One gradient component of Gaussian-smoothed white noise has σ / (σ_s² √(8π)).
    // The plateaus are ramps (the sensor's residual gate cross-talk): the typical (median) gradient is removed so
    // that only steps remain.
    const scale = sigma / (s2 * Math.sqrt(8 * Math.PI));
    const gx = new Float64Array(n);
    const gy = new Float64Array(n);
    for (let y = 0; y < rows; y++) {
      for (let x = 0; x < cols; x++) {
        gx[y * cols + x] = 0.5 * (smooth[y * cols + Math.min(cols - 1, x + 1)]! - smooth[y * cols + Math.max(0, x - 1)]!);
        gy[y * cols + x] = 0.5 * (smooth[Math.min(rows - 1, y + 1) * cols + x]! - smooth[Math.max(0, y - 1) * cols + x]!);
      }
    }
    const rampX = quantile(gx, 0.5);
    const rampY = quantile(gy, 0.5);
    for (let i = 0; i < n; i++) evidence[i] = Math.hypot(gx[i]! - rampX, gy[i]! - rampY) / scale;
  }
  return { evidence, readout: transport ? 'transport' : 'sensor' };
}

/** Blocks of this size (px) carry one local line level, a quantile of the evidence within ±LEVEL_REACH px. */
const LEVEL_BLOCK = 8;
const LEVEL_REACH = 16;

/** Local line level, bilinear between block centres. */
export function localLineLevel(evidence: Float64Array, rows: number, cols: number, levelQuantile: number): Float64Array {
  const by = Math.ceil(rows / LEVEL_BLOCK);
  const bx = Math.ceil(cols / LEVEL_BLOCK);
  const grid = new Float64Array(by * bx);
  const centre = (b: number, size: number): number => Math.min(size - 1, (b + 0.5) * LEVEL_BLOCK);
  const values = new Float64Array(4 * (LEVEL_REACH + 1) * (LEVEL_REACH + 1));
  for (let j = 0; j < by; j++) {
    for (let i = 0; i < bx; i++) {
      const cy = centre(j, rows);
      const cx = centre(i, cols);
      let count = 0;
      for (let y = Math.max(0, Math.floor(cy - LEVEL_REACH)); y < Math.min(rows, Math.ceil(cy + LEVEL_REACH)); y++) {
        for (let x = Math.max(0, Math.floor(cx - LEVEL_REACH)); x < Math.min(cols, Math.ceil(cx + LEVEL_REACH)); x++) values[count++] = evidence[y * cols + x]!;
      }
      grid[j * bx + i] = selectInPlace(values, count, Math.min(count - 1, Math.max(0, Math.floor(levelQuantile * (count - 1)))));
    }
  }
  const out = new Float64Array(rows * cols);
  for (let y = 0; y < rows; y++) {
    const fy = Math.min(by - 1, Math.max(0, (y + 0.5) / LEVEL_BLOCK - 0.5));
    const j0 = Math.floor(fy);
    const j1 = Math.min(by - 1, j0 + 1);
    const ty = fy - j0;
    for (let x = 0; x < cols; x++) {
      const fx = Math.min(bx - 1, Math.max(0, (x + 0.5) / LEVEL_BLOCK - 0.5));
      const i0 = Math.floor(fx);
      const i1 = Math.min(bx - 1, i0 + 1);
      const tx = fx - i0;
      out[y * cols + x] =
        (1 - ty) * ((1 - tx) * grid[j0 * bx + i0]! + tx * grid[j0 * bx + i1]!) + ty * ((1 - tx) * grid[j1 * bx + i0]! + tx * grid[j1 * bx + i1]!);
    }
  }
  return out;
}
