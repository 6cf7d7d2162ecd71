// Step 1 of the transition-line detector: background and read-out. Plane removed; rows levelled to the row before
// by the median difference (scan-line levelling as in scanning-probe software) against sensor charge jumps and
// telegraph offsets; the part of a jump left inside one row removed by a running median along the fast axis;
// read-out recognised from the grey levels (transport: median near the floor); white-noise σ from the Laplacian MAD.
import { MAD_TO_SIGMA, median, quantile, selectInPlace } from '../signal/order-statistics.js';

/** Position of the median between the 2nd and 98th percentiles below which a (σ = 1 smoothed) map is transport. */
const TRANSPORT_MEDIAN_POSITION = 0.33;
/** Running-median window along the fast axis for residual sensor jumps, pixels. */
const JUMP_WINDOW = 15;
/** `robust`: a map has row offsets (charge jumps) when at least JUMP_ROWS row medians depart by JUMP_ROW_SIGMAS σ. */
const JUMP_ROW_SIGMAS = 1.5;
const JUMP_ROWS = 2;

/** Least-squares plane removed; optionally every row levelled to the row before by the median difference. */
export function background(data: Float64Array, rows: number, cols: number, levelRows: boolean): Float64Array {
  const out = new Float64Array(data);
  if (levelRows) {
    const diff = new Float64Array(cols);
    let shift = 0;
    for (let y = 1; y < rows; y++) {
      for (let x = 0; x < cols; x++) diff[x] = data[y * cols + x]! - data[(y - 1) * cols + x]!;
      shift += median(diff);
      for (let x = 0; x < cols; x++) out[y * cols + x] = data[y * cols + x]! - shift;
    }
  }
  const cx = (cols - 1) / 2;
  const cy = (rows - 1) / 2;
  let sum = 0;
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let syy = 0;
  for (let y = 0; y < rows; y++)
    for (let x = 0; x < cols; x++) {
      const v = out[y * cols + x]!;
      sum += v;
      sx += v * (x - cx);
      sy += v * (y - cy);
    }
  for (let x = 0; x < cols; x++) sxx += (x - cx) ** 2;
  for (let y = 0; y < rows; y++) syy += (y - cy) ** 2;
  const mean = sum / (rows * cols);
  const ax = sx / (sxx * rows || 1);
  const ay = sy / (syy * cols || 1);
  for (let y = 0; y < rows; y++) for (let x = 0; x < cols; x++) out[y * cols + x] = out[y * cols + x]! - mean - ax * (x - cx) - ay * (y - cy);
  return out;
}

/**
 * Removes what is left of a sensor charge jump that happened mid-row: that row is offset from some column on, so
 * its deviation from the mean of the rows above and below is a long plateau along the fast axis. The running
 * median (JUMP_WINDOW px) of that deviation is subtracted; a transition line crosses a row in a few pixels and
 * barely moves it.
 */
export function removeRowJumps(flat: Float64Array, rows: number, cols: number): Float64Array {
  const out = new Float64Array(flat);
  const deviation = new Float64Array(cols);
  const window = new Float64Array(JUMP_WINDOW);
  const half = JUMP_WINDOW >> 1;
  for (let y = 1; y < rows - 1; y++) {
    for (let x = 0; x < cols; x++) deviation[x] = flat[y * cols + x]! - 0.5 * (flat[(y - 1) * cols + x]! + flat[(y + 1) * cols + x]!);
    for (let x = 0; x < cols; x++) {
      const from = Math.max(0, Math.min(cols - JUMP_WINDOW, x - half));
      const count = Math.min(JUMP_WINDOW, cols - from);
      for (let k = 0; k < count; k++) window[k] = deviation[from + k]!;
      out[y * cols + x] = flat[y * cols + x]! - selectInPlace(window, count, count >> 1);
    }
  }
  return out;
}

/**
 * True when whole rows are offset from one another (sensor charge jumps, telegraph noise): the median difference
 * between neighbouring rows departs from its typical value by more than JUMP_ROW_SIGMAS white-noise σ in at least
 * JUMP_ROWS rows. A transition line crosses a row in a few pixels and leaves that median alone.
 */
export function hasRowJumps(data: Float64Array, rows: number, cols: number, sigma: number): boolean {
  const diff = new Float64Array(cols);
  const medians = new Float64Array(rows - 1);
  for (let y = 1; y < rows; y++) {
    for (let x = 0; x < cols; x++) diff[x] = data[y * cols + x]! - data[(y - 1) * cols + x]!;
    medians[y - 1] = median(diff);
  }
  const typical = median(medians);
  let count = 0;
  for (const m of medians) if (Math.abs(m - typical) > JUMP_ROW_SIGMAS * sigma) count++;
  return count >= JUMP_ROWS;
}

/** Transport maps are mostly at the current floor with sparse bright lines: the median (of the smoothed map) sits near the bottom. */
export function looksLikeTransport(flat: Float64Array): boolean {
  const p2 = quantile(flat, 0.02);
  const p50 = quantile(flat, 0.5);
  const p98 = quantile(flat, 0.98);
  return p98 > p2 && (p50 - p2) / (p98 - p2) < TRANSPORT_MEDIAN_POSITION;
}

/** White-noise σ of the map from the median absolute 4-neighbour Laplacian (lines are sparse, so it sees noise). */
export function whiteNoiseSigma(flat: Float64Array, rows: number, cols: number): number {
  const lap = new Float64Array((rows - 2) * (cols - 2));
  let c = 0;
  for (let y = 1; y < rows - 1; y++)
    for (let x = 1; x < cols - 1; x++) {
      const i = y * cols + x;
      lap[c++] = Math.abs(4 * flat[i]! - flat[i - 1]! - flat[i + 1]! - flat[i - cols]! - flat[i + cols]!);
    }
  // Var(Laplacian) = 20 σ² for white noise; 1.4826 · median|·| is σ for a Gaussian.
  return (MAD_TO_SIGMA * median(lap)) / Math.sqrt(20);
}
