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
//   background slopes), and a cut peak with no complete peak in the trace needs 12σ; since issue 29 a cut peak
//   must also pass v1's inside-versus-outside lineshape test (a monotone rise into the end is not a peak), and
//   as in v1 a side shorter than 1.5 peak widths counts as cut;
// - one workspace of preallocated typed arrays per trace length, reused across a batch: no per-sample
//   allocation, selections (quickselect) instead of sorts, insertion sort for the short candidate lists.
// Noise handling, the both-sides fall check and the end-of-window lineshape fit follow v1. Files: the kernel bank and
// workspace in coulomb-peak-v2-filter-bank.ts, the end-of-window fit in coulomb-peak-v2-end-fit.ts.
import { measurePeakShape, peakShapeReach } from '../signal/peak-shape.js';
import { HALF_NORMAL_LOWER_QUARTILE, HALF_NORMAL_MEDIAN, MAD_TO_SIGMA, selectInPlace } from '../signal/order-statistics.js';
import type { PeakDetection } from './coulomb-peak-detector-v0.model.js';
import { fitEnd } from './coulomb-peak-v2-end-fit.js';
import { fitEdgePeak } from '../signal/edge-peak-centre.js';
import { V1_EDGE_INSIDE_EVIDENCE_SIGMA2, V1_SIDE_NEEDED_FWHM } from './coulomb-peak-detector-v1.model.js';
import {
  createPeakDetectorV2Workspace,
  filterScale,
  kernelOf,
  PEAK_FWHM,
  SEPARATION,
  STRIDE,
  V2_MIN_SEPARATION_SAMPLES,
  type PeakDetectorV2Workspace,
} from './coulomb-peak-v2-filter-bank.js';

export { createPeakDetectorV2Workspace, type PeakDetectorV2Workspace } from './coulomb-peak-v2-filter-bank.js';

/** Kernels wider than V2_WIDE_KERNEL_FWHM_PER_LENGTH × length need this factor × the threshold. */
export const V2_WIDE_THRESHOLD_FACTOR = 3;
/** Detection threshold, and threshold of the provisional detections kept out of the noise estimates, σ. */
export const V2_THRESHOLD_SIGMA = 5;
export const V2_PROVISIONAL_THRESHOLD_SIGMA = 3;
/** Rounds of (provisional detections → noise re-estimate), as v1's V1_NOISE_PASSES. */
export const V2_NOISE_PASSES = 2;
/** Fraction of first differences, farthest from provisional peaks, that measure the white noise… */
export const V2_QUIET_FRACTION = 0.4;
/** …or all those this far from every provisional peak (peak FWHM) if more: a cosh⁻² peak is below 0.1 % there. */
export const V2_QUIET_DISTANCE_FWHM = 2.5;
/** Response samples needed away from provisional peaks to estimate a scale's own noise. */
export const V2_MIN_NOISE_SAMPLES = 16;
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
      if ((gap < 0 ? -gap : gap) < Math.max(other, separation)) {
        clash = true;
        break;
      }
    }
    if (!clash) ws.kept[kept++] = c;
  }
  ws.keptCount = kept;
}

/** White σ from the quiet first differences, far from provisional peaks (distances in peak widths). */
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
  // Every difference ≥ V2_QUIET_DISTANCE_FWHM from all provisional peaks, or, if they are fewer, exactly the farthest
  // V2_QUIET_FRACTION (quickselect of the cut, ties in index order, as v1). Issue 29: a 1/8-width histogram took the
  // whole bin at the cut, peak flanks included, and σ came out high in dense short traces.
  const keep = Math.min(pairs, Math.max(2, Math.ceil(V2_QUIET_FRACTION * pairs)));
  let far = 0;
  for (let i = 0; i < pairs; i++) if (distance[i]! >= V2_QUIET_DISTANCE_FWHM) far++;
  let count = 0;
  if (far >= keep) {
    for (let i = 0; i < pairs; i++) if (distance[i]! >= V2_QUIET_DISTANCE_FWHM) scratch[count++] = Math.abs(x[i + 1]! - x[i]!);
  } else {
    scratch.set(distance.subarray(0, pairs));
    const cut = selectInPlace(scratch, pairs, pairs - keep);
    for (let i = 0; i < pairs; i++) if (distance[i]! > cut) scratch[count++] = Math.abs(x[i + 1]! - x[i]!);
    for (let i = 0; i < pairs && count < keep; i++) if (distance[i] === cut) scratch[count++] = Math.abs(x[i + 1]! - x[i]!);
  }
  return selectInPlace(scratch, count, (count - 1) >> 1) / (Math.SQRT2 * HALF_NORMAL_MEDIAN);
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
function scaleNoise(ws: PeakDetectorV2Workspace, sigma: number): void {
  const { mask, scratch } = ws;
  for (let k = 0; k < ws.scaleCount; k++) {
    if (!ws.enabled[k]) continue;
    const r = ws.responses[k]!;
    const stride = STRIDE[k]!;
    let count = 0;
    for (let j = 0; j < r.length; j++) if (!mask[j * stride]) scratch[count++] = r[j]! < 0 ? -r[j]! : r[j]!;
    const mad = count >= V2_MIN_NOISE_SAMPLES ? MAD_TO_SIGMA * selectInPlace(scratch, count, count >> 1) : 0;
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
  const sideNeeded = Math.max(2, V1_SIDE_NEEDED_FWHM * peakFwhm);
  const leftCounts = index >= sideNeeded;
  const rightCounts = n - 1 - index >= sideNeeded;
  if (leftCounts && top - leftMin < dropNeeded) return false;
  if (rightCounts && top - rightMin < dropNeeded) return false;
  let height = top - (leftCounts && rightCounts ? Math.max(leftMin, rightMin) : leftCounts ? leftMin : rightMin);
  const cut = !leftCounts || !rightCounts;
  if (cut) {
    const fromStart = !leftCounts;
    const fromEnd = fromStart ? index : n - 1 - index;
    const fit = ws.endFit;
    if (!fitEnd(x, n, fromStart, peakFwhm, fromEnd + Math.ceil(V2_EDGE_FIT_SPAN_FWHM * peakFwhm) + 2, fromEnd + peakFwhm, fit)) return false;
    if (fit.amplitude < V2_EDGE_AMPLITUDE_SIGMA * sigma) return false;
    if (fit.centre < -V2_EDGE_OUTSIDE_SAMPLES || fit.centre > n - 1 + V2_EDGE_OUTSIDE_SAMPLES) return false;
    // v1's inside-versus-outside test (signal/edge-peak-centre.ts): a monotone rise into the end is not a peak.
    const evidence = fitEdgePeak(x, fromStart, peakFwhm, fromEnd + Math.ceil(V2_EDGE_FIT_SPAN_FWHM * peakFwhm) + 2, fromEnd + peakFwhm, 0, n, PEAK_FWHM[0]!);
    if (!evidence || evidence.outsideError - evidence.insideError < V1_EDGE_INSIDE_EVIDENCE_SIGMA2 * sigma * sigma) return false;
    index = Math.min(n - 1, Math.max(0, Math.round(fit.centre)));
    height = fit.amplitude;
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
  const { x, scratch, prefix } = ws;
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

  // Provisional detections → white noise from the quiet differences, each scale's noise away from the peaks; twice,
  // as v1 (the first σ, from the lower quartile of all differences, misses faint peaks of dense trains).
  for (let pass = 0; pass < V2_NOISE_PASSES; pass++) {
    pick(ws, n, V2_PROVISIONAL_THRESHOLD_SIGMA);
    const provisional = ws.keptCount;
    for (let p = 0; p < provisional; p++) {
      const c = ws.kept[p]!;
      ws.provIndex[p] = ws.candFull[c]!;
      ws.provWidth[p] = PEAK_FWHM[ws.candScale[c]!]!;
    }
    maskCandidates(ws, n);
    sigma = Math.max(floor, quietNoise(ws, n, provisional));
    scaleNoise(ws, sigma);
  }

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
    scaleNoise(ws, sigma);
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
