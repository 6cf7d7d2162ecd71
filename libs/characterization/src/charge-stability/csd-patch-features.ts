// Features of a charge-stability patch for the double-dot classifiers: the orientation distribution of charge
// transitions. A double dot shows two families of transitions with different slopes (van der Wiel et al., Rev.
// Mod. Phys. 75, 1 (2003), Fig. 6); both steps (charge sensing) and ridges (transport) put their intensity
// gradient perpendicular to the line, so the gradient orientation θ mod π of strong-gradient pixels, weighted
// by |∇|² (the structure tensor of Bigün & Granlund, ICCV 1987), shows one peak per family.
//
// Pipeline: least-squares plane removal (background tilt); noise σ from the median absolute Laplacian residual
// (Hampel's MAD, robust to the sparse lines); removal of up to MAX_SENSOR_JUMPS sensor charge jumps (a step in
// acquisition order, see removeSensorJumps: left in, a jump is a horizontal edge that looks like a second
// family); Sobel gradient; a magnitude-weighted orientation histogram of
// ORIENTATION_BINS bins over [0, π) with linear bin interpolation, circularly shifted so its strongest bin
// comes first (so features do not depend on which way the gate axes run).
import { MAD_TO_SIGMA, selectInPlace } from '../signal/order-statistics.js';

export const ORIENTATION_BINS = 36;
/** Gradient pixels below this many noise σ (of the Sobel output) are not counted as edges. */
export const EDGE_THRESHOLD_SIGMA = 2.5;
/** Laplacian residual r = p − mean(4 neighbours) has std σ·√(1 + 1/4) for white noise. */
const LAPLACE_NOISE_GAIN = Math.sqrt(1.25);
/** Sobel x/y output std for unit white noise after the binomial pre-smoothing (computed exactly for the 5×5 combined kernel). */
const SOBEL_NOISE_GAIN = 1.6536;
/** At most this many sensor charge jumps are removed per patch. */
export const MAX_SENSOR_JUMPS = 3;
/** A jump's step, estimated over a whole row boundary, must exceed this many σ of its mean (σ_v / √n). */
const JUMP_MIN_Z = 6;
/** …and ¾ of the differences along the boundary must each exceed this many σ_v (a transition line that is not
 * parallel to the fast axis only follows one row boundary over part of the width). */
const JUMP_MIN_QUARTILE_SIGMA = 0.75;

export interface PatchWorkspace {
  rows: number;
  cols: number;
  flat: Float64Array;
  gx: Float64Array;
  gy: Float64Array;
  scratch: Float64Array;
  histogram: Float64Array;
  /** Row-to-row differences and their prefix sums along each row (jump search). */
  rowDiff: Float64Array;
  rowDiffPrefix: Float64Array;
  /** Orientation histogram before alignment, folded onto [0, π/2] (θ and π − θ together: axis flips do not matter). */
  folded: Float64Array;
}

export function createPatchWorkspace(rows: number, cols: number): PatchWorkspace {
  const n = rows * cols;
  return {
    rows,
    cols,
    flat: new Float64Array(n),
    gx: new Float64Array(n),
    gy: new Float64Array(n),
    scratch: new Float64Array(n),
    rowDiff: new Float64Array(n),
    rowDiffPrefix: new Float64Array(rows * (cols + 1)),
    histogram: new Float64Array(ORIENTATION_BINS),
    folded: new Float64Array(ORIENTATION_BINS / 2),
  };
}

/** Plane-subtracted copy of a rows × cols block of `data` (row stride `stride`, starting at `offset`) into ws.flat. */
export function removePlane(data: Float64Array, offset: number, stride: number, ws: PatchWorkspace): void {
  const { rows, cols, flat } = ws;
  // Centred coordinates make the normal equations diagonal.
  const cx = (cols - 1) / 2;
  const cy = (rows - 1) / 2;
  let sum = 0;
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let syy = 0;
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const v = data[offset + y * stride + x]!;
      sum += v;
      sx += v * (x - cx);
      sy += v * (y - cy);
    }
  }
  for (let x = 0; x < cols; x++) sxx += (x - cx) ** 2;
  for (let y = 0; y < rows; y++) syy += (y - cy) ** 2;
  const mean = sum / (rows * cols);
  const ax = sxx > 0 ? sx / (sxx * rows) : 0;
  const ay = syy > 0 ? sy / (syy * cols) : 0;
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) flat[y * cols + x] = data[offset + y * stride + x]! - mean - ax * (x - cx) - ay * (y - cy);
  }
}

/** Robust white-noise σ of ws.flat from the interior Laplacian residuals (MAD). 0 for a noiseless plane. */
export function laplacianNoise(ws: PatchWorkspace): number {
  const { rows, cols, flat, scratch } = ws;
  let count = 0;
  for (let y = 1; y < rows - 1; y++) {
    for (let x = 1; x < cols - 1; x++) {
      const i = y * cols + x;
      scratch[count++] = Math.abs(flat[i]! - 0.25 * (flat[i - 1]! + flat[i + 1]! + flat[i - cols]! + flat[i + cols]!));
    }
  }
  if (count === 0) return 0;
  return (MAD_TO_SIGMA * selectInPlace(scratch, count, count >> 1)) / LAPLACE_NOISE_GAIN;
}

/**
 * Removes up to MAX_SENSOR_JUMPS sensor charge jumps from ws.flat and returns how many it removed. The map is
 * acquired row by row (fast axis = columns); a charge trap switching near the sensor at scan index k = y0·cols + x0
 * shifts every later sample by one step s. Seen row-to-row (v(y, x) = f(y, x) − f(y − 1, x)) the step lies on one
 * path: row y0 + 1 for x < x0 and row y0 for x ≥ x0, plus the fast-axis difference at (y0, x0). The candidate
 * with the largest mean path difference (prefix sums, O(1) per candidate) is accepted when its mean is
 * significant and ¾ of the path differences carry the step (robust to a transition crossing the path), and the
 * median path difference is then subtracted from every sample from k on.
 */
export function removeSensorJumps(ws: PatchWorkspace): number {
  const { rows, cols, flat, rowDiff, rowDiffPrefix, scratch } = ws;
  if (rows < 3 || cols < 3) return 0;
  let removed = 0;
  for (; removed < MAX_SENSOR_JUMPS; removed++) {
    // Row-to-row differences (row 0 unused), their robust σ, and prefix sums along each row.
    let count = 0;
    for (let y = 1; y < rows; y++) {
      for (let x = 0; x < cols; x++) {
        const v = flat[y * cols + x]! - flat[(y - 1) * cols + x]!;
        rowDiff[y * cols + x] = v;
        scratch[count++] = Math.abs(v);
      }
    }
    const sigmaV = MAD_TO_SIGMA * selectInPlace(scratch, count, count >> 1) || 1e-300;
    for (let y = 1; y < rows; y++) {
      let sum = 0;
      rowDiffPrefix[y * (cols + 1)] = 0;
      for (let x = 0; x < cols; x++) rowDiffPrefix[y * (cols + 1) + x + 1] = sum += rowDiff[y * cols + x]!;
    }
    let bestZ = 0;
    let bestK = -1;
    for (let y0 = 0; y0 < rows; y0++) {
      for (let x0 = 0; x0 < cols; x0++) {
        if (y0 === 0 && x0 === 0) continue;
        let sum = 0;
        let n = 0;
        if (y0 + 1 < rows) {
          sum += rowDiffPrefix[(y0 + 1) * (cols + 1) + x0]!;
          n += x0;
        }
        if (y0 >= 1) {
          sum += rowDiffPrefix[y0 * (cols + 1) + cols]! - rowDiffPrefix[y0 * (cols + 1) + x0]!;
          n += cols - x0;
        }
        if (x0 > 0) {
          sum += flat[y0 * cols + x0]! - flat[y0 * cols + x0 - 1]!;
          n++;
        }
        if (2 * n < cols) continue;
        const z = Math.abs(sum) / (sigmaV * Math.sqrt(n));
        if (z > bestZ) {
          bestZ = z;
          bestK = y0 * cols + x0;
        }
      }
    }
    if (bestK < 0 || bestZ < JUMP_MIN_Z) break;
    const y0 = Math.floor(bestK / cols);
    const x0 = bestK - y0 * cols;
    let n = 0;
    if (y0 + 1 < rows) for (let x = 0; x < x0; x++) scratch[n++] = rowDiff[(y0 + 1) * cols + x]!;
    if (y0 >= 1) for (let x = x0; x < cols; x++) scratch[n++] = rowDiff[y0 * cols + x]!;
    if (x0 > 0) scratch[n++] = flat[bestK]! - flat[bestK - 1]!;
    const step = selectInPlace(scratch, n, n >> 1);
    const quartile = step > 0 ? selectInPlace(scratch, n, n >> 2) : -selectInPlace(scratch, n, n - 1 - (n >> 2));
    if (quartile < JUMP_MIN_QUARTILE_SIGMA * sigmaV) break;
    for (let i = bestK; i < rows * cols; i++) flat[i] -= step;
  }
  return removed;
}

/** Sobel gradient of ws.flat on the interior (border pixels get 0). */
export function sobel(ws: PatchWorkspace): void {
  const { rows, cols, gx, gy } = ws;
  const flat = ws.scratch;
  // Binomial [1 2 1]² pre-smoothing (a discrete Gaussian, σ ≈ 0.7 px) steadies the orientation estimate.
  flat.set(ws.flat);
  for (let y = 1; y < rows - 1; y++) {
    for (let x = 1; x < cols - 1; x++) {
      const i = y * cols + x;
      const f = ws.flat;
      flat[i] =
        (4 * f[i]! + 2 * (f[i - 1]! + f[i + 1]! + f[i - cols]! + f[i + cols]!) + f[i - cols - 1]! + f[i - cols + 1]! + f[i + cols - 1]! + f[i + cols + 1]!) /
        16;
    }
  }
  gx.fill(0);
  gy.fill(0);
  for (let y = 1; y < rows - 1; y++) {
    for (let x = 1; x < cols - 1; x++) {
      const i = y * cols + x;
      const a = flat[i - cols - 1]!;
      const b = flat[i - cols]!;
      const c = flat[i - cols + 1]!;
      const d = flat[i - 1]!;
      const f = flat[i + 1]!;
      const g = flat[i + cols - 1]!;
      const h = flat[i + cols]!;
      const k = flat[i + cols + 1]!;
      gx[i] = c + 2 * f + k - a - 2 * d - g;
      gy[i] = g + 2 * h + k - a - 2 * b - c;
    }
  }
}

export interface OrientationSummary {
  /** Noise σ (input units) and edge energy Σ|∇|² / (Sobel σ)² over edge pixels. */
  sigma: number;
  edgeEnergy: number;
  edgePixels: number;
  /** Fraction of interior pixels whose horizontal-edge gradient is mostly row-to-row (fast-axis jumps). */
  rowJumpShare: number;
}

/**
 * Fills ws.histogram (normalised, strongest bin first) from ws.gx/gy with edges above
 * EDGE_THRESHOLD_SIGMA × Sobel noise, and returns the summary numbers.
 */
export function orientationHistogram(ws: PatchWorkspace, sigma: number, thresholdSigma = EDGE_THRESHOLD_SIGMA): OrientationSummary {
  const { rows, cols, gx, gy, histogram } = ws;
  histogram.fill(0);
  const floor = Math.max(sigma * SOBEL_NOISE_GAIN, 1e-300);
  const threshold2 = (thresholdSigma * floor) ** 2;
  let energy = 0;
  let edges = 0;
  let rowJump = 0;
  for (let y = 1; y < rows - 1; y++) {
    for (let x = 1; x < cols - 1; x++) {
      const i = y * cols + x;
      const m2 = gx[i]! * gx[i]! + gy[i]! * gy[i]!;
      if (m2 <= threshold2) continue;
      edges++;
      const w = m2 / (floor * floor);
      energy += w;
      let theta = Math.atan2(gy[i]!, gx[i]!);
      if (theta < 0) theta += Math.PI;
      if (Math.abs(gy[i]!) > 3 * Math.abs(gx[i]!)) rowJump += w;
      const t = (theta / Math.PI) * ORIENTATION_BINS - 0.5;
      const k = Math.floor(t);
      const f = t - k;
      histogram[(k + ORIENTATION_BINS) % ORIENTATION_BINS] += w * (1 - f);
      histogram[(k + 1) % ORIENTATION_BINS] += w * f;
    }
  }
  const half = ORIENTATION_BINS / 2;
  for (let b = 0; b < half; b++) ws.folded[b] = energy > 0 ? (histogram[b]! + histogram[ORIENTATION_BINS - 1 - b]!) / energy : 0;
  if (energy > 0) {
    let best = 0;
    for (let b = 1; b < ORIENTATION_BINS; b++) if (histogram[b]! > histogram[best]!) best = b;
    const shifted = new Float64Array(ORIENTATION_BINS);
    for (let b = 0; b < ORIENTATION_BINS; b++) shifted[b] = histogram[(b + best) % ORIENTATION_BINS]! / energy;
    histogram.set(shifted);
  }
  return { sigma, edgeEnergy: energy, edgePixels: edges, rowJumpShare: energy > 0 ? rowJump / energy : 0 };
}

/**
 * Two-peak structure of the aligned histogram: mass of the dominant family and of the best second family at least
 * `minSeparationDegrees` away (30° by default; 15° also matters: at 16×16 two families can be only 20–30° apart).
 */
export function familyMasses(histogram: Float64Array, minSeparationDegrees = 30): { first: number; second: number; separationBins: number } {
  const B = ORIENTATION_BINS;
  const window = (c: number): number => histogram[(c - 1 + B) % B]! + histogram[c % B]! + histogram[(c + 1) % B]!;
  const first = window(0);
  let second = 0;
  let separation = 0;
  const minSeparation = Math.ceil((B * minSeparationDegrees) / 180 - 1e-9);
  for (let c = minSeparation; c <= B - minSeparation; c++) {
    // A true second peak: a local maximum of the histogram.
    const v = histogram[c]!;
    if (v < histogram[c - 1]! || v < histogram[(c + 1) % B]!) continue;
    const m = window(c);
    if (m > second) {
      second = m;
      separation = Math.min(c, B - c);
    }
  }
  return { first, second, separationBins: separation };
}

/** Positions of the scalar features after the aligned (ORIENTATION_BINS) and folded (ORIENTATION_BINS / 2) histograms. */
export const PATCH_FEATURE = (() => {
  const base = ORIENTATION_BINS + ORIENTATION_BINS / 2;
  return {
    firstFamily: base,
    secondFamily: base + 1,
    separation: base + 2,
    nearSecondFamily: base + 3,
    nearSeparation: base + 4,
    edgeEnergy: base + 5,
    edgeFraction: base + 6,
    rowJumpShare: base + 7,
    contrast: base + 8,
    sensorJumps: base + 9,
  } as const;
})();
export const PATCH_FEATURE_COUNT = PATCH_FEATURE.sensorJumps + 1;

/**
 * The classifier feature vector of a rows × cols patch (written into `out`, length PATCH_FEATURE_COUNT):
 * aligned orientation histogram, family masses and separation (second family ≥ 30° and ≥ 15° away), log edge
 * energy per pixel, edge-pixel fraction, the row-jump share, log(contrast / σ), and the number of sensor jumps removed.
 */
export function patchFeatures(data: Float64Array, offset: number, stride: number, ws: PatchWorkspace, out: Float64Array): OrientationSummary {
  removePlane(data, offset, stride, ws);
  const jumps = removeSensorJumps(ws);
  const sigma = laplacianNoise(ws);
  sobel(ws);
  const summary = orientationHistogram(ws, sigma > 0 ? sigma : fallbackScale(ws));
  const interior = Math.max(1, (ws.rows - 2) * (ws.cols - 2));
  out.set(ws.histogram, 0);
  out.set(ws.folded, ORIENTATION_BINS);
  const masses = familyMasses(ws.histogram);
  let k = ORIENTATION_BINS + ORIENTATION_BINS / 2;
  out[k++] = masses.first;
  out[k++] = masses.second;
  out[k++] = masses.separationBins / (ORIENTATION_BINS / 2);
  const near = familyMasses(ws.histogram, 15);
  out[k++] = near.second;
  out[k++] = near.separationBins / (ORIENTATION_BINS / 2);
  out[k++] = Math.log1p(summary.edgeEnergy / interior);
  out[k++] = summary.edgePixels / interior;
  out[k++] = summary.rowJumpShare;
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < ws.rows * ws.cols; i++) {
    lo = Math.min(lo, ws.flat[i]!);
    hi = Math.max(hi, ws.flat[i]!);
  }
  out[k++] = Math.log1p((hi - lo) / Math.max(summary.sigma, 1e-300)) / 5;
  out[k++] = jumps / MAX_SENSOR_JUMPS;
  return summary;
}

/** Scale for a noiseless input (σ̂ = 0): a millionth of the range, so any real structure is an edge. */
function fallbackScale(ws: PatchWorkspace): number {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < ws.rows * ws.cols; i++) {
    lo = Math.min(lo, ws.flat[i]!);
    hi = Math.max(hi, ws.flat[i]!);
  }
  return hi > lo ? (hi - lo) * 1e-6 : 1;
}
