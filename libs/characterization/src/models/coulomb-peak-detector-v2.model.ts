// coulomb-blockade-peak-detector-v2 — v1's multi-scale cosh⁻² matched filter (Beenakker, Phys. Rev. B 44, 1646
// (1991) lineshape; continuous-wavelet style detection, Du et al., Bioinformatics 22, 2059 (2006)) rebuilt for
// throughput, with physics priors added. Differences from v1:
// - an octave kernel bank, FWHM 1.5·2^k samples up to length/12 (v1: ×1.6 steps up to length/8; the widest
//   kernels mostly picked up 1/f wander); symmetric taps folded (half the multiplies); kernels of FWHM ≥ 12 are
//   evaluated every G/6 samples with parabolic interpolation of the maxima; the same pass stores the
//   cosh⁻²-smoothed trace that the verification reads, so verification does no filtering of its own;
// - kernels wider than length/12 are consulted only when fewer than two narrower peaks were found, at 3× the
//   threshold (an isolated, strong, wide peak such as a sensor-dot peak scanned in detail);
// - width consensus: the peaks of one dot share temperature and lever arm, hence width, so once strong peaks
//   agree on a scale only neighbouring scales may add detections (fewer noise peaks from 1/f and telegraph
//   noise at other widths);
// - peaks cut by an end lower than 30 % of the median height of the others are dropped (outside flanks,
//   background slopes), and a cut peak with no complete peak in the trace needs 12σ;
// - one workspace of preallocated typed arrays per trace length, reused across a batch: no per-sample
//   allocation, selections (quickselect) instead of sorts, insertion sort for the short candidate lists.
// Noise handling, the both-sides fall check and the end-of-window lineshape fit follow v1.
import { measurePeakShape, peakShapeReach } from '../signal/peak-shape.js';
import type { PeakDetection } from './coulomb-peak-detector-v0.model.js';
import { selectInPlace } from '../signal/order-statistics.js';
import { FWHM_PER_COSH_SCALE } from '../signal/thermal-peak-kernel.js';

/** Narrowest kernel FWHM (samples); the bank doubles up to V2_MAX_KERNEL_FWHM_PER_LENGTH × length. */
export const V2_MIN_KERNEL_FWHM_SAMPLES = 1.5;
export const V2_MAX_KERNEL_FWHM_PER_LENGTH = 1 / 6;
/** Kernels wider than this fraction of the length see mostly 1/f wander: they need WIDE_THRESHOLD_FACTOR × the threshold. */
export const V2_WIDE_KERNEL_FWHM_PER_LENGTH = 1 / 12;
export const V2_WIDE_THRESHOLD_FACTOR = 3;
/** A zero-mean cosh⁻² kernel of FWHM G responds most to peaks of FWHM ≈ G / 1.55. */
export const V2_KERNEL_PER_PEAK_FWHM = 1.55;
/** Kernel half-support in kernel FWHM. */
export const V2_KERNEL_HALF_SUPPORT_FWHM = 1.5;
/** Detection threshold, and threshold of the provisional detections kept out of the noise estimates, σ. */
export const V2_THRESHOLD_SIGMA = 5;
export const V2_PROVISIONAL_THRESHOLD_SIGMA = 3;
/** Fraction of first differences, farthest from provisional peaks, that measure the white noise. */
export const V2_QUIET_FRACTION = 0.4;
/** Response samples needed away from provisional peaks to estimate a scale's own noise. */
export const V2_MIN_NOISE_SAMPLES = 16;
/** Two detections closer than this many peak FWHM (of the wider) are one peak; never closer than 3 samples. */
export const V2_MIN_SEPARATION_FWHM = 1;
export const V2_MIN_SEPARATION_SAMPLES = 3;
/** Each side of a peak must fall by this much (σ of the kernel-smoothed trace). */
export const V2_SIDE_DROP_SIGMA = 2.5;
/** Peaks cut by an end: fit span (FWHM), minimum amplitude (σ), how far outside the centre may lie (samples). */
export const V2_EDGE_FIT_SPAN_FWHM = 2.5;
export const V2_EDGE_AMPLITUDE_SIGMA = 4;
export const V2_EDGE_OUTSIDE_SAMPLES = 1;
/** Peaks cut by an end must reach this fraction of the median height of the uncut ones, or, in a trace
 * without uncut peaks, this amplitude in σ (an end-cut bump alone is weak evidence: 1/f wander, steps). */
export const V2_EDGE_RELATIVE_HEIGHT = 0.3;
export const V2_LONE_EDGE_AMPLITUDE_SIGMA = 12;
/** Strong peaks (z ≥ 2 × threshold) fix the typical scale; detections may come from ± this many octaves. */
export const V2_CONSENSUS_SCALE_STEPS = 1;
/** Largest number of octaves in the bank (kernel FWHM up to 1.5 · 2^19 samples). */
const MAX_SCALES = 20;

const MAD_TO_STD = 1.482602218505602;
/** Histogram of distances to provisional peaks: bins of 1/8 peak width up to 8 widths. */
const DISTANCE_BINS_PER_WIDTH = 8;
const DISTANCE_BINS = 64;
const HALF_NORMAL_LOWER_QUARTILE = 0.31863936396437514;
const HALF_NORMAL_MEDIAN = 0.6744897501960817;

interface Kernel {
  fwhm: number;
  half: number;
  /** cosh⁻² taps; the zero-mean, unit-norm matched filter; noise gain of the cosh⁻²-weighted mean. */
  shape: Float64Array;
  taps: Float64Array;
  smoothingGain: number;
  /** Σ shape, mean of shape and ‖shape − mean‖ over the full support: response = (Σ shape·x − mean Σx) / norm. */
  shapeSum: number;
  shapeMean: number;
  zeroMeanNorm: number;
}

function makeKernel(fwhm: number): Kernel {
  const half = Math.max(2, Math.ceil(V2_KERNEL_HALF_SUPPORT_FWHM * fwhm));
  const size = 2 * half + 1;
  const s = fwhm / FWHM_PER_COSH_SCALE;
  const shape = new Float64Array(size);
  let sum = 0;
  for (let j = -half; j <= half; j++) {
    const c = Math.cosh(j / s);
    shape[j + half] = 1 / (c * c);
    sum += shape[j + half]!;
  }
  const taps = new Float64Array(size);
  let norm = 0;
  let sww = 0;
  for (let k = 0; k < size; k++) {
    taps[k] = shape[k]! - sum / size;
    norm += taps[k]! * taps[k]!;
    sww += shape[k]! * shape[k]!;
  }
  for (let k = 0; k < size; k++) taps[k] = taps[k]! / Math.sqrt(norm);
  return { fwhm, half, shape, taps, smoothingGain: Math.sqrt(sww) / sum, shapeSum: sum, shapeMean: sum / size, zeroMeanNorm: Math.sqrt(norm) };
}

/** Per-octave constants, built once on first use (pure functions of k). */
const KERNELS: Kernel[] = [];
const LOCATORS: Kernel[] = [];
const PEAK_FWHM = new Float64Array(MAX_SCALES);
const STRIDE = new Int32Array(MAX_SCALES);
/** Minimum distance between two detections at scale k, samples (the larger of the pair's applies). */
const SEPARATION = new Float64Array(MAX_SCALES);
for (let k = 0; k < MAX_SCALES; k++) {
  const kernelFwhm = V2_MIN_KERNEL_FWHM_SAMPLES * 2 ** k;
  PEAK_FWHM[k] = Math.max(1, kernelFwhm / V2_KERNEL_PER_PEAK_FWHM);
  SEPARATION[k] = Math.max(V2_MIN_SEPARATION_SAMPLES, V2_MIN_SEPARATION_FWHM * PEAK_FWHM[k]!);
  STRIDE[k] = k >= 3 ? 1 << (k - 2) : 1;
}
function kernelOf(k: number): Kernel {
  return (KERNELS[k] ??= makeKernel(V2_MIN_KERNEL_FWHM_SAMPLES * 2 ** k));
}
function locatorOf(k: number): Kernel {
  return (LOCATORS[k] ??= makeKernel(Math.max(V2_MIN_KERNEL_FWHM_SAMPLES, PEAK_FWHM[k]! / 2)));
}

/** cosh⁻²(u) tabulated for the end-of-window fit (1/64 steps up to |u| = 16, linear interpolation). */
const LUT_STEPS_PER_UNIT = 64;
const LUT_LIMIT = 16 * LUT_STEPS_PER_UNIT;
const COSH2_LUT = new Float64Array(LUT_LIMIT + 2);
for (let i = 0; i < COSH2_LUT.length; i++) {
  const c = Math.cosh(i / LUT_STEPS_PER_UNIT);
  COSH2_LUT[i] = 1 / (c * c);
}
function cosh2(u: number): number {
  const x = (u < 0 ? -u : u) * LUT_STEPS_PER_UNIT;
  if (x >= LUT_LIMIT) return 0;
  const i = x | 0;
  return COSH2_LUT[i]! + (x - i) * (COSH2_LUT[i + 1]! - COSH2_LUT[i]!);
}

export interface PeakDetectorV2Workspace {
  readonly length: number;
  readonly scaleCount: number;
  x: Float64Array;
  prefix: Float64Array;
  /** Per scale, at positions j·stride: matched-filter response and cosh⁻²-weighted mean. */
  responses: Float64Array[];
  smooths: Float64Array[];
  noise: Float64Array;
  enabled: Uint8Array;
  /** 1 for kernels wider than V2_WIDE_KERNEL_FWHM_PER_LENGTH × length. */
  wide: Uint8Array;
  scratch: Float64Array;
  distance: Float64Array;
  distanceHistogram: Int32Array;
  mask: Uint8Array;
  candFull: Int32Array;
  candScale: Int32Array;
  candZ: Float64Array;
  order: Int32Array;
  kept: Int32Array;
  keptCount: number;
  provIndex: Float64Array;
  provWidth: Float64Array;
  peakIndex: Int32Array;
  peakHeight: Float64Array;
  peakScale: Int32Array;
  peakCut: Uint8Array;
  found: number;
}

function scaleCountFor(length: number): number {
  const widest = Math.max(V2_MIN_KERNEL_FWHM_SAMPLES, V2_MAX_KERNEL_FWHM_PER_LENGTH * length);
  let k = 0;
  while (k + 1 < MAX_SCALES && V2_MIN_KERNEL_FWHM_SAMPLES * 2 ** (k + 1) <= widest) k++;
  return k + 1;
}

export function createPeakDetectorV2Workspace(length: number): PeakDetectorV2Workspace {
  const n = Math.max(1, length);
  const scaleCount = scaleCountFor(n);
  const capacity = 2 * n + 16;
  return {
    length,
    scaleCount,
    x: new Float64Array(n),
    prefix: new Float64Array(n + 1),
    responses: Array.from({ length: scaleCount }, (_, k) => new Float64Array(Math.ceil(n / STRIDE[k]!))),
    smooths: Array.from({ length: scaleCount }, (_, k) => new Float64Array(Math.ceil(n / STRIDE[k]!))),
    noise: new Float64Array(scaleCount),
    enabled: new Uint8Array(scaleCount),
    wide: Uint8Array.from({ length: scaleCount }, (_, k) => (V2_MIN_KERNEL_FWHM_SAMPLES * 2 ** k > V2_WIDE_KERNEL_FWHM_PER_LENGTH * n ? 1 : 0)),
    scratch: new Float64Array(capacity),
    distance: new Float64Array(n),
    distanceHistogram: new Int32Array(DISTANCE_BINS),
    mask: new Uint8Array(n),
    candFull: new Int32Array(capacity),
    candScale: new Int32Array(capacity),
    candZ: new Float64Array(capacity),
    order: new Int32Array(capacity),
    kept: new Int32Array(capacity),
    keptCount: 0,
    provIndex: new Float64Array(capacity),
    provWidth: new Float64Array(capacity),
    peakIndex: new Int32Array(capacity),
    peakHeight: new Float64Array(capacity),
    peakScale: new Int32Array(capacity),
    peakCut: new Uint8Array(capacity),
    found: 0,
  };
}

/**
 * Response and cosh⁻²-weighted mean of one scale at positions j·stride. Interior: one pass of Σ shape·x, with
 * Σx from the prefix sums. Ends: the kernel is truncated to existing samples and re-normalised.
 */
function filterScale(ws: PeakDetectorV2Workspace, n: number, k: number): void {
  const kernel = kernelOf(k);
  const { half: h, shape, shapeSum, shapeMean, zeroMeanNorm } = kernel;
  const x = ws.x;
  const prefix = ws.prefix;
  const response = ws.responses[k]!;
  const smooth = ws.smooths[k]!;
  const stride = STRIDE[k]!;
  const inverseNorm = 1 / zeroMeanNorm;
  const inverseSum = 1 / shapeSum;
  for (let j = 0, i = 0; j < response.length; j++, i += stride) {
    if (i >= h && i + h < n) {
      // Symmetric taps: fold the two halves, half the multiplies; two accumulators.
      let a0 = shape[h]! * x[i]!;
      let a1 = 0;
      let q = 1;
      for (; q < h; q += 2) {
        a0 += shape[h - q]! * (x[i - q]! + x[i + q]!);
        a1 += shape[h - q - 1]! * (x[i - q - 1]! + x[i + q + 1]!);
      }
      if (q === h) a0 += shape[0]! * (x[i - h]! + x[i + h]!);
      const spx = a0 + a1;
      response[j] = (spx - shapeMean * (prefix[i + h + 1]! - prefix[i - h]!)) * inverseNorm;
      smooth[j] = spx * inverseSum;
      continue;
    }
    const lo = i < h ? -i : -h;
    const hi = n - 1 - i < h ? n - 1 - i : h;
    let sp = 0;
    let spp = 0;
    let spx = 0;
    for (let q = lo; q <= hi; q++) {
      const p = shape[q + h]!;
      sp += p;
      spp += p * p;
      spx += p * x[i + q]!;
    }
    const count = hi - lo + 1;
    const sx = prefix[i + hi + 1]! - prefix[i + lo]!;
    const norm2 = spp - (sp * sp) / count;
    response[j] = norm2 > 1e-12 * spp ? (spx - (sp / count) * sx) / Math.sqrt(norm2) : 0;
    smooth[j] = spx / sp;
  }
}

/** Candidates of enabled scales above threshold, strongest first and merged; result in ws.kept[0 … keptCount). */
function pick(ws: PeakDetectorV2Workspace, n: number, threshold: number): void {
  let count = 0;
  for (let k = 0; k < ws.scaleCount; k++) {
    if (!ws.enabled[k]) continue;
    const r = ws.responses[k]!;
    const stride = STRIDE[k]!;
    const m = r.length;
    const noise = ws.noise[k]!;
    const limit = threshold * noise;
    for (let j = 0; j < m; j++) {
      let v = r[j]!;
      if (v < limit) continue;
      if ((j > 0 && !(v > r[j - 1]!)) || (j < m - 1 && !(v >= r[j + 1]!))) continue;
      let position = j * stride;
      if (stride > 1 && j > 0 && j < m - 1) {
        // Parabola through the coarse maximum and its neighbours.
        const left = r[j - 1]!;
        const right = r[j + 1]!;
        const curvature = left - 2 * v + right;
        if (curvature < 0) {
          const delta = (0.5 * (left - right)) / curvature;
          v -= 0.25 * (left - right) * delta;
          position = Math.min(n - 1, Math.max(0, Math.round((j + delta) * stride)));
        }
      }
      if (count >= ws.candFull.length) break;
      ws.candFull[count] = position;
      ws.candScale[count] = k;
      ws.candZ[count] = v / noise;
      ws.order[count] = count;
      count++;
    }
  }
  const order = ws.order;
  for (let a = 1; a < count; a++) {
    const item = order[a]!;
    const z = ws.candZ[item]!;
    const full = ws.candFull[item]!;
    let b = a - 1;
    while (b >= 0) {
      const other = order[b]!;
      const zo = ws.candZ[other]!;
      if (zo > z || (zo === z && ws.candFull[other]! <= full)) break;
      order[b + 1] = other;
      b--;
    }
    order[b + 1] = item;
  }
  let kept = 0;
  for (let a = 0; a < count; a++) {
    const c = order[a]!;
    const full = ws.candFull[c]!;
    const separation = SEPARATION[ws.candScale[c]!]!;
    let clash = false;
    for (let b = 0; b < kept; b++) {
      const o = ws.kept[b]!;
      const other = SEPARATION[ws.candScale[o]!]!;
      const gap = ws.candFull[o]! - full;
      if ((gap < 0 ? -gap : gap) < (other > separation ? other : separation)) {
        clash = true;
        break;
      }
    }
    if (!clash) ws.kept[kept++] = c;
  }
  ws.keptCount = kept;
}

/** White σ from the quietest V2_QUIET_FRACTION of first differences (farthest from provisional peaks, in widths). */
function quietNoise(ws: PeakDetectorV2Workspace, n: number, provisional: number): number {
  const { x, distance, scratch, provIndex, provWidth } = ws;
  const pairs = n - 1;
  for (let a = 1; a < provisional; a++) {
    const c = provIndex[a]!;
    const w = provWidth[a]!;
    let b = a - 1;
    while (b >= 0 && provIndex[b]! > c) {
      provIndex[b + 1] = provIndex[b]!;
      provWidth[b + 1] = provWidth[b]!;
      b--;
    }
    provIndex[b + 1] = c;
    provWidth[b + 1] = w;
  }
  let p = 0;
  for (let i = 0; i < pairs; i++) {
    const at = i + 0.5;
    while (p + 1 < provisional && provIndex[p + 1]! <= at) p++;
    let d = Infinity;
    if (provisional > 0) {
      d = Math.abs(at - provIndex[p]!) / provWidth[p]!;
      if (p + 1 < provisional) d = Math.min(d, Math.abs(provIndex[p + 1]! - at) / provWidth[p + 1]!);
    }
    distance[i] = d;
  }
  // The farthest ≥ V2_QUIET_FRACTION of the differences, at a distance resolution of 1/8 peak width (histogram, no sort).
  const keep = Math.min(pairs, Math.max(2, Math.ceil(V2_QUIET_FRACTION * pairs)));
  const bins = ws.distanceHistogram;
  bins.fill(0);
  for (let i = 0; i < pairs; i++) bins[Math.min(DISTANCE_BINS - 1, (distance[i]! * DISTANCE_BINS_PER_WIDTH) | 0)]!++;
  let cutBin = DISTANCE_BINS - 1;
  for (let total = bins[cutBin]!; total < keep && cutBin > 0; ) total += bins[--cutBin]!;
  const cut = provisional > 0 ? cutBin / DISTANCE_BINS_PER_WIDTH : -Infinity;
  let count = 0;
  for (let i = 0; i < pairs; i++) if (distance[i]! >= cut) scratch[count++] = Math.abs(x[i + 1]! - x[i]!);
  return selectInPlace(scratch, count, (count - 1) >> 1) / (Math.SQRT2 * HALF_NORMAL_MEDIAN);
}

const EDGE_WIDTH_FACTORS = [0.7, 1, 1.3];
const EDGE_COARSE_STEP = 0.5;
// Result registers of fitEnd (scratch within one call, avoids allocating a result object per fit).
let fitCentre = 0;
let fitAmplitude = 0;
let fitError = Infinity;

/** Least squares of a cosh⁻² (centre c, given FWHM) plus a constant over the `count` samples nearest one end. */
function fitEndAt(x: Float64Array, n: number, fromStart: boolean, count: number, inverseScale: number, c: number, sy: number, syy: number): void {
  let sp = 0;
  let spp = 0;
  let spy = 0;
  for (let j = 0; j < count; j++) {
    const p = cosh2((j - c) * inverseScale);
    sp += p;
    spp += p * p;
    spy += p * x[fromStart ? j : n - 1 - j]!;
  }
  const det = count * spp - sp * sp;
  if (!(det > 1e-12 * count * spp)) return;
  const a = (count * spy - sp * sy) / det;
  if (!(a > 0)) return;
  const error = syy - a * spy - ((sy - a * sp) / count) * sy;
  if (error < fitError) {
    fitError = error;
    fitCentre = c;
    fitAmplitude = a;
  }
}

/**
 * As signal/edge-peak-centre.ts (cosh⁻² + constant, centre and width scanned; c < 0 is outside the window),
 * with a tabulated cosh⁻² and a coarse-to-fine centre scan. Result in fitCentre (trace index) and fitAmplitude.
 */
function fitEnd(x: Float64Array, n: number, fromStart: boolean, nominalFwhm: number, span: number, maxCentre: number): boolean {
  const count = Math.min(n, Math.max(3, Math.round(span)));
  let sy = 0;
  let syy = 0;
  for (let j = 0; j < count; j++) {
    const y = x[fromStart ? j : n - 1 - j]!;
    sy += y;
    syy += y * y;
  }
  fitError = Infinity;
  let bestFactor = -1;
  for (let f = 0; f < EDGE_WIDTH_FACTORS.length; f++) {
    const fwhm = EDGE_WIDTH_FACTORS[f]! * nominalFwhm;
    const before = fitError;
    for (let c = -fwhm - 2; c <= maxCentre; c += EDGE_COARSE_STEP) fitEndAt(x, n, fromStart, count, FWHM_PER_COSH_SCALE / fwhm, c, sy, syy);
    if (fitError < before) bestFactor = f;
  }
  if (bestFactor < 0) return false;
  const inverseScale = FWHM_PER_COSH_SCALE / (EDGE_WIDTH_FACTORS[bestFactor]! * nominalFwhm);
  const coarse = fitCentre;
  fitEndAt(x, n, fromStart, count, inverseScale, coarse - EDGE_COARSE_STEP / 2, sy, syy);
  fitEndAt(x, n, fromStart, count, inverseScale, coarse + EDGE_COARSE_STEP / 2, sy, syy);
  if (!fromStart) fitCentre = n - 1 - fitCentre;
  return true;
}

/** Smoothed value of scale k at the stored position nearest to i. */
function smoothNear(ws: PeakDetectorV2Workspace, k: number, i: number): number {
  const s = ws.smooths[k]!;
  const j = Math.round(i / STRIDE[k]!);
  return s[j < s.length ? j : s.length - 1]!;
}

/** ws.mask = 1 within kernel reach of the candidates in ws.kept. */
function maskCandidates(ws: PeakDetectorV2Workspace, n: number): void {
  const mask = ws.mask;
  mask.fill(0, 0, n);
  for (let p = 0; p < ws.keptCount; p++) {
    const c = ws.kept[p]!;
    const kernel = kernelOf(ws.candScale[c]!);
    const centre = ws.candFull[c]!;
    const reach = kernel.half + Math.ceil(kernel.fwhm);
    const to = Math.min(n - 1, centre + reach);
    for (let i = Math.max(0, centre - reach); i <= to; i++) mask[i] = 1;
  }
}

/** Each enabled scale's response noise: MAD away from the mask, never below the white-noise level σ. */
function scaleNoise(ws: PeakDetectorV2Workspace, n: number, sigma: number): void {
  const { mask, scratch } = ws;
  for (let k = 0; k < ws.scaleCount; k++) {
    if (!ws.enabled[k]) continue;
    const r = ws.responses[k]!;
    const stride = STRIDE[k]!;
    let count = 0;
    for (let j = 0; j < r.length; j++) if (!mask[j * stride]) scratch[count++] = r[j]! < 0 ? -r[j]! : r[j]!;
    const mad = count >= V2_MIN_NOISE_SAMPLES ? MAD_TO_STD * selectInPlace(scratch, count, count >> 1) : 0;
    ws.noise[k] = Math.max(sigma, mad);
  }
}

/** Verification and location of candidate c as in v1, reading the stored smoothed traces; appends to ws.peak*. */
function verify(ws: PeakDetectorV2Workspace, n: number, c: number, sigma: number): boolean {
  const x = ws.x;
  const k = ws.candScale[c]!;
  const peakFwhm = PEAK_FWHM[k]!;
  const kernel = kernelOf(k);
  // Locate on the trace smoothed at about half the peak width (scale k − 2, full resolution for k ≤ 3).
  const locate = k >= 2 ? k - 2 : 0;
  const locateStride = STRIDE[locate]!;
  const reach = Math.max(1, Math.ceil(peakFwhm / 2));
  let index = ws.candFull[c]!;
  let best = -Infinity;
  const from = Math.max(0, index - reach);
  const to = Math.min(n - 1, index + reach);
  const locateSmooth = ws.smooths[locate]!;
  for (let i = from + ((locateStride - (from % locateStride)) % locateStride); i <= to; i += locateStride) {
    const v = locateSmooth[i / locateStride]!;
    if (v > best) {
      best = v;
      index = i;
    }
  }
  // Both sides must fall (a step has one flat side).
  const top = smoothNear(ws, k, index);
  const dropNeeded = V2_SIDE_DROP_SIGMA * ws.noise[k]! * kernel.smoothingGain;
  const stride = STRIDE[k]!;
  const span = Math.ceil((kernel.half + Math.ceil(kernel.fwhm)) / stride);
  const smooth = ws.smooths[k]!;
  const centreJ = Math.round(index / stride);
  let leftMin = top;
  let rightMin = top;
  for (let j = Math.max(0, centreJ - span); j < centreJ; j++) if (smooth[j]! < leftMin) leftMin = smooth[j]!;
  for (let j = centreJ + 1; j <= Math.min(smooth.length - 1, centreJ + span); j++) if (smooth[j]! < rightMin) rightMin = smooth[j]!;
  const sideNeeded = Math.max(2, peakFwhm);
  const leftCounts = index >= sideNeeded;
  const rightCounts = n - 1 - index >= sideNeeded;
  if (leftCounts && top - leftMin < dropNeeded) return false;
  if (rightCounts && top - rightMin < dropNeeded) return false;
  let height = top - (leftCounts && rightCounts ? Math.max(leftMin, rightMin) : leftCounts ? leftMin : rightMin);
  const cut = !leftCounts || !rightCounts;
  if (cut) {
    const fromStart = !leftCounts;
    const fromEnd = fromStart ? index : n - 1 - index;
    if (!fitEnd(x, n, fromStart, peakFwhm, fromEnd + Math.ceil(V2_EDGE_FIT_SPAN_FWHM * peakFwhm) + 2, fromEnd + peakFwhm)) return false;
    if (fitAmplitude < V2_EDGE_AMPLITUDE_SIGMA * sigma) return false;
    if (fitCentre < -V2_EDGE_OUTSIDE_SAMPLES || fitCentre > n - 1 + V2_EDGE_OUTSIDE_SAMPLES) return false;
    index = Math.min(n - 1, Math.max(0, Math.round(fitCentre)));
    height = fitAmplitude;
  }
  const found = ws.found++;
  ws.peakIndex[found] = index;
  ws.peakHeight[found] = height;
  ws.peakScale[found] = k;
  ws.peakCut[found] = cut ? 1 : 0;
  return true;
}

function emptyDetection(): PeakDetection {
  return { peakIndices: [], peakHeights: [], peakWidths: [] };
}

/** Peaks of trace[offset … offset+length−1]; pass a workspace created for `length` to avoid allocation. */
export function detectCoulombPeaksV2(trace: Float64Array, offset = 0, length = trace.length - offset, workspace?: PeakDetectorV2Workspace): PeakDetection {
  const n = length;
  if (n < 3) return emptyDetection();
  const ws = workspace && workspace.length === n ? workspace : createPeakDetectorV2Workspace(n);
  const { x, scratch, mask, prefix } = ws;
  // Copy, prefix sums and |Δx|.
  let smallestStep = Infinity;
  let running = 0;
  prefix[0] = 0;
  let previous = trace[offset]!;
  for (let i = 0; i < n; i++) {
    const v = trace[offset + i]!;
    x[i] = v;
    running += v;
    prefix[i + 1] = running;
    if (i > 0) {
      const d = v > previous ? v - previous : previous - v;
      scratch[i - 1] = d;
      if (d > 0 && d < smallestStep) smallestStep = d;
    }
    previous = v;
  }
  if (smallestStep === Infinity) return emptyDetection();
  // Rough white noise: lower quartile of |Δx| (robust to dense peak trains), with a quantisation floor.
  const floor = smallestStep / Math.sqrt(12);
  let sigma = Math.max(floor, selectInPlace(scratch, n - 1, Math.floor(0.25 * (n - 2))) / (Math.SQRT2 * HALF_NORMAL_LOWER_QUARTILE));
  if (!(sigma > 0 && sigma < Infinity)) return emptyDetection();

  for (let k = 0; k < ws.scaleCount; k++) {
    ws.noise[k] = sigma;
    ws.enabled[k] = ws.wide[k] ? 0 : 1;
    if (!ws.wide[k]) filterScale(ws, n, k);
  }

  // Provisional detections → white noise from the quiet differences, each scale's noise away from the peaks.
  pick(ws, n, V2_PROVISIONAL_THRESHOLD_SIGMA);
  const provisional = ws.keptCount;
  for (let p = 0; p < provisional; p++) {
    const c = ws.kept[p]!;
    ws.provIndex[p] = ws.candFull[c]!;
    ws.provWidth[p] = PEAK_FWHM[ws.candScale[c]!]!;
  }
  maskCandidates(ws, n);
  sigma = Math.max(floor, quietNoise(ws, n, provisional));
  scaleNoise(ws, n, sigma);

  pick(ws, n, V2_THRESHOLD_SIGMA);
  // Width consensus among strong peaks.
  let strong = 0;
  for (let p = 0; p < ws.keptCount; p++) {
    const c = ws.kept[p]!;
    if (ws.candZ[c]! >= 2 * V2_THRESHOLD_SIGMA) scratch[strong++] = ws.candScale[c]!;
  }
  if (strong >= 2) {
    const typical = selectInPlace(scratch, strong, strong >> 1);
    let changed = false;
    for (let k = 0; k < ws.scaleCount; k++) {
      if (Math.abs(k - typical) > V2_CONSENSUS_SCALE_STEPS && ws.enabled[k]) {
        ws.enabled[k] = 0;
        changed = true;
      }
    }
    if (changed) pick(ws, n, V2_THRESHOLD_SIGMA);
  }

  ws.found = 0;
  for (let p = 0; p < ws.keptCount; p++) verify(ws, n, ws.kept[p]!, sigma);
  // Kernels wider than length/12 mostly see 1/f wander: they are only consulted when the trace has fewer than
  // two narrower peaks (a dot's peaks share one width), and only add very strong, isolated wide peaks.
  let anyWide = false;
  for (let k = 0; k < ws.scaleCount; k++) {
    ws.enabled[k] = ws.wide[k]!;
    if (ws.wide[k] && ws.found < 2) {
      anyWide = true;
      filterScale(ws, n, k);
    }
  }
  if (anyWide) {
    const narrowFound = ws.found;
    // Their own provisional pass: white-noise scaling, then each wide scale's noise away from its candidates.
    for (let k = 0; k < ws.scaleCount; k++) if (ws.wide[k]) ws.noise[k] = sigma;
    pick(ws, n, V2_PROVISIONAL_THRESHOLD_SIGMA);
    maskCandidates(ws, n);
    scaleNoise(ws, n, sigma);
    pick(ws, n, V2_WIDE_THRESHOLD_FACTOR * V2_THRESHOLD_SIGMA);
    for (let p = 0; p < ws.keptCount; p++) {
      const c = ws.kept[p]!;
      const reach = Math.max(V2_MIN_SEPARATION_SAMPLES, PEAK_FWHM[ws.candScale[c]!]!);
      let clash = false;
      for (let q = 0; q < narrowFound && !clash; q++) clash = Math.abs(ws.peakIndex[q]! - ws.candFull[c]!) < reach;
      if (!clash) verify(ws, n, c, sigma);
    }
  }
  const found = ws.found;

  // Cut peaks must be comparable in height to the uncut ones.
  let uncut = 0;
  for (let p = 0; p < found; p++) if (!ws.peakCut[p]) scratch[uncut++] = ws.peakHeight[p]!;
  const typicalHeight = uncut > 0 ? selectInPlace(scratch, uncut, uncut >> 1) : 0;
  const order = ws.order;
  for (let p = 0; p < found; p++) {
    let b = p - 1;
    while (b >= 0 && ws.peakIndex[order[b]!]! > ws.peakIndex[p]!) {
      order[b + 1] = order[b]!;
      b--;
    }
    order[b + 1] = p;
  }
  const out = emptyDetection();
  for (let a = 0; a < found; a++) {
    const p = order[a]!;
    if (ws.peakCut[p] && ws.peakHeight[p]! < (uncut > 0 ? V2_EDGE_RELATIVE_HEIGHT * typicalHeight : V2_LONE_EDGE_AMPLITUDE_SIGMA * sigma)) continue;
    if (out.peakIndices.length > 0 && out.peakIndices[out.peakIndices.length - 1] === ws.peakIndex[p]) continue;
    const kernelFwhm = PEAK_FWHM[ws.peakScale[p]!]!;
    // Heights and widths measured on the trace (uncut peaks); cut peaks keep their lineshape fit.
    const shape = ws.peakCut[p] ? undefined : measurePeakShape(trace, offset, n, ws.peakIndex[p]!, peakShapeReach(kernelFwhm));
    out.peakIndices.push(ws.peakIndex[p]!);
    out.peakHeights.push(shape?.height ?? ws.peakHeight[p]!);
    out.peakWidths!.push(shape?.fwhm ?? kernelFwhm);
  }
  return out;
}

/** Row-by-row detection over a C-order (count, length) block; element i equals detectCoulombPeaksV2(row i). */
export function detectCoulombPeaksV2Batch(data: Float64Array, count: number, length: number): PeakDetection[] {
  const workspace = createPeakDetectorV2Workspace(length);
  const results: PeakDetection[] = new Array(count);
  for (let i = 0; i < count; i++) results[i] = detectCoulombPeaksV2(data, i * length, length, workspace);
  return results;
}
