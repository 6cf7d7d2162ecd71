// coulomb-blockade-peak-detector-v1 — multi-scale matched filtering. The trace is correlated with zero-mean,
// unit-norm cosh⁻² kernels (the thermally broadened Coulomb-peak lineshape, Beenakker, Phys. Rev. B 44, 1646
// (1991)) at geometrically spaced widths: a continuous-wavelet style detector (P. Du, W. A. Kibbe & S. M. Lin,
// Bioinformatics 22, 2059 (2006)) with the peak shape itself as the wavelet. Zero-mean kernels cancel constant
// and linear backgrounds; near the ends they are truncated and re-normalised. The white-noise level is
// re-estimated from the first differences farthest from provisional detections, and each scale's response
// noise from its values away from them (iterative masking, as in source extraction: Bertin & Arnouts,
// A&A Suppl. 117, 393 (1996)), so 1/f and telegraph noise leaking into wide kernels raise that scale's
// threshold. A peak must fall on both sides (steps do not), and a peak cut by an end of the window is kept only
// if a cosh⁻² fit of that end puts its centre inside the window and beats every fit centred outside (a
// likelihood-ratio test: a monotone rise into the end is the tail of a peak or an opening channel outside).
// Maxima without a significant valley between them are one peak (the saddle test of topographic prominence).
import { measurePeakShape, peakShapeReach } from '../signal/peak-shape.js';
import { estimateWhiteNoiseStd, quietDifferenceNoise } from '../signal/robust-noise.js';
import { MAD_TO_SIGMA, median, medianInPlace } from '../signal/order-statistics.js';
import { matchedResponse, smoothedAt, smoothingNoiseGain, thermalPeakKernel, type ThermalPeakKernel } from '../signal/thermal-peak-kernel.js';
import { fitEdgePeak } from '../signal/edge-peak-centre.js';
import type { PeakDetection } from './coulomb-peak-detector-v0.model.js';

/** Narrowest kernel FWHM, samples, and the ratio between successive widths. */
export const V1_MIN_KERNEL_FWHM_SAMPLES = 1.5;
export const V1_KERNEL_FWHM_RATIO = 1.6;
/** Widest kernel FWHM as a fraction of the trace length. */
export const V1_MAX_KERNEL_FWHM_PER_LENGTH = 1 / 8;
/** A zero-mean cosh⁻² kernel of FWHM G responds most to peaks of FWHM ≈ G / 1.55 (mean subtraction). */
export const KERNEL_PER_PEAK_FWHM = 1.55;
/** Detection threshold on the matched-filter response, in units of that response's noise std. */
export const V1_THRESHOLD_SIGMA = 5;
/** Threshold for the provisional detections kept out of the noise estimates, σ. */
export const V1_PROVISIONAL_THRESHOLD_SIGMA = 3;
/** Rounds of (provisional detections → noise re-estimate). */
export const V1_NOISE_PASSES = 2;
/** Fraction of first differences, farthest from provisional peaks (in peak widths), that measure the white noise. */
export const V1_QUIET_FRACTION = 0.4;
/** Response samples needed away from provisional peaks to estimate a scale's own noise. */
export const V1_MIN_NOISE_SAMPLES = 16;
/** Two detections closer than this many peak FWHM (of the wider) are one peak; never closer than 3 samples. */
export const V1_MIN_SEPARATION_FWHM = 1;
export const V1_MIN_SEPARATION_SAMPLES = 3;
/** Each side of a peak must fall by this much (σ of the kernel-smoothed trace) within the kernel support. */
export const V1_SIDE_DROP_SIGMA = 2.5;
/** A side shorter than this many peak FWHM cannot show the fall of a peak: the peak is cut and its end is fitted. */
export const V1_SIDE_NEEDED_FWHM = 1.5;
/** Peaks cut by an end are fitted over this many FWHM inward and need this amplitude (σ of the white noise). */
export const V1_EDGE_FIT_SPAN_FWHM = 2.5;
export const V1_EDGE_AMPLITUDE_SIGMA = 4;
/** A cut peak fitted up to this far outside the window still has its maximum on the end sample, samples. */
export const V1_EDGE_OUTSIDE_SAMPLES = 1;
/**
 * A cut peak's top must be inside: the best fit centred inside must beat the best centred ≥ 2 samples outside (any
 * width up to 6×) by this much in residual sum of squares, units of σ² (a likelihood-ratio test; a monotone rise
 * into the end is the tail of something outside).
 */
export const V1_EDGE_INSIDE_EVIDENCE_SIGMA2 = 2;
/** Two reported maxima closer than this many peak FWHM (of the wider) need a valley between them… */
export const V1_VALLEY_CHECK_FWHM = 2.5;
/** …at least this deep below the lower one, σ of the trace smoothed at the locator scale; else they are one peak. */
export const V1_VALLEY_DEPTH_SIGMA = 2.5;

export interface MultiScaleOptions {
  /** Kernel FWHMs, samples. */
  kernelWidths: readonly number[];
  /** Drop peaks cut by an end that are lower than this fraction of the median height of the others (0 = off). */
  edgeRelativeHeight: number;
  /** Keep only scales within this many steps of the median scale of strong peaks (Infinity = off). */
  consensusScaleSteps: number;
}

interface Candidate {
  index: number;
  scale: number;
  z: number;
}

interface Scale {
  kernel: ThermalPeakKernel;
  /** FWHM of the peaks this kernel responds to most. */
  peakFwhm: number;
  response: Float64Array;
  noise: number;
  enabled: boolean;
}

export function v1KernelWidths(length: number): number[] {
  const widths = [V1_MIN_KERNEL_FWHM_SAMPLES];
  const widest = Math.max(V1_MIN_KERNEL_FWHM_SAMPLES, V1_MAX_KERNEL_FWHM_PER_LENGTH * length);
  while (widths.at(-1)! * V1_KERNEL_FWHM_RATIO <= widest) widths.push(widths.at(-1)! * V1_KERNEL_FWHM_RATIO);
  return widths;
}

/** Local maxima of every enabled scale's response above threshold, strongest first, merged across scales. */
function pickCandidates(scales: Scale[], threshold: number): Candidate[] {
  const found: Candidate[] = [];
  scales.forEach(({ response: r, noise, enabled }, s) => {
    if (!enabled) return;
    const n = r.length;
    for (let i = 0; i < n; i++) {
      const v = r[i]!;
      const z = v / noise;
      if (z < threshold) continue;
      if ((i > 0 && !(v > r[i - 1]!)) || (i < n - 1 && !(v >= r[i + 1]!))) continue;
      found.push({ index: i, scale: s, z });
    }
  });
  found.sort((a, b) => b.z - a.z || a.index - b.index);
  const kept: Candidate[] = [];
  for (const c of found) {
    const clash = kept.some((k) => {
      const separation = Math.max(V1_MIN_SEPARATION_SAMPLES, V1_MIN_SEPARATION_FWHM * Math.max(scales[k.scale]!.peakFwhm, scales[c.scale]!.peakFwhm));
      return Math.abs(k.index - c.index) < separation;
    });
    if (!clash) kept.push(c);
  }
  return kept;
}

function reestimateNoise(trace: Float64Array, scales: Scale[], provisional: Candidate[], scratch: Float64Array, sigma: number): number {
  const n = trace.length;
  const refined = quietDifferenceNoise(
    trace,
    provisional.map((c) => c.index),
    provisional.map((c) => scales[c.scale]!.peakFwhm),
    V1_QUIET_FRACTION,
    0,
    n,
    scratch,
  );
  const white = refined > 0 ? refined : sigma;
  const masked = new Uint8Array(n);
  for (const c of provisional) {
    const k = scales[c.scale]!.kernel;
    const reach = k.halfSupport + Math.ceil(k.fwhm);
    for (let i = Math.max(0, c.index - reach); i <= Math.min(n - 1, c.index + reach); i++) masked[i] = 1;
  }
  for (const scale of scales) {
    let count = 0;
    for (let i = 0; i < n; i++) if (!masked[i]) scratch[count++] = Math.abs(scale.response[i]!);
    scale.noise = count < V1_MIN_NOISE_SAMPLES ? white : Math.max(white, MAD_TO_SIGMA * medianInPlace(scratch, count));
  }
  return white;
}

/**
 * Two maxima are two peaks only if the trace (smoothed at the finer locator scale) falls between them by
 * V1_VALLEY_DEPTH_SIGMA below the lower one; otherwise the lower is a second maximum of one peak (an asymmetric or
 * wide top seen by a kernel narrower than the peak) and is dropped.
 */
function mergeWithoutValley<P extends { index: number; height: number; width: number; scale: number }>(
  trace: Float64Array,
  peaks: P[],
  locators: ThermalPeakKernel[],
  scales: Scale[],
): P[] {
  const sorted = [...peaks].sort((a, b) => a.index - b.index);
  const kept: P[] = [];
  for (const p of sorted) {
    const q = kept.at(-1);
    if (q && p.index - q.index < V1_VALLEY_CHECK_FWHM * Math.max(p.width, q.width)) {
      const fine = Math.min(p.scale, q.scale);
      const locator = locators[fine]!;
      const noise = scales[fine]!.noise * smoothingNoiseGain(locator);
      const topP = smoothedAt(trace, locator, p.index);
      const topQ = smoothedAt(trace, locator, q.index);
      let valley = Infinity;
      for (let i = q.index + 1; i < p.index; i++) valley = Math.min(valley, smoothedAt(trace, locator, i));
      if (!(Math.min(topP, topQ) - valley >= V1_VALLEY_DEPTH_SIGMA * noise)) {
        if (topP > topQ) kept[kept.length - 1] = p;
        continue;
      }
    }
    kept.push(p);
  }
  return kept;
}

/** The detector shared by v1, v1-mini (fewer kernels) and v2's reference behaviour. */
export function detectCoulombPeaksMultiScale(trace: Float64Array, options: MultiScaleOptions): PeakDetection {
  const n = trace.length;
  let sigma = estimateWhiteNoiseStd(trace);
  if (n < 3 || !(sigma > 0)) return { peakIndices: [], peakHeights: [], peakWidths: [] };
  const scales: Scale[] = options.kernelWidths.map((fwhm) => {
    const kernel = thermalPeakKernel(fwhm);
    return {
      kernel,
      peakFwhm: Math.max(1, fwhm / KERNEL_PER_PEAK_FWHM),
      response: matchedResponse(trace, kernel, new Float64Array(n)),
      noise: sigma,
      enabled: true,
    };
  });
  const scratch = new Float64Array(n);
  for (let pass = 0; pass < V1_NOISE_PASSES; pass++) {
    sigma = reestimateNoise(trace, scales, pickCandidates(scales, V1_PROVISIONAL_THRESHOLD_SIGMA), scratch, sigma);
  }

  let chosen = pickCandidates(scales, V1_THRESHOLD_SIGMA);
  if (Number.isFinite(options.consensusScaleSteps)) {
    // Peaks of one dot share a temperature and lever arm, hence a width: keep the scales near the typical one.
    const strong = chosen.filter((c) => c.z >= 2 * V1_THRESHOLD_SIGMA).map((c) => c.scale);
    if (strong.length >= 2) {
      const typical = median(strong);
      scales.forEach((s, i) => {
        s.enabled = Math.abs(i - typical) <= options.consensusScaleSteps;
      });
      chosen = pickCandidates(scales, V1_THRESHOLD_SIGMA);
    }
  }

  const locators = scales.map((s) => thermalPeakKernel(Math.max(V1_MIN_KERNEL_FWHM_SAMPLES, s.peakFwhm / 2)));
  const peaks: { index: number; height: number; width: number; cut: boolean; scale: number }[] = [];
  for (const c of chosen) {
    const { kernel, noise, peakFwhm } = scales[c.scale]!;
    // The maximum of the trace smoothed at half the peak width, near the response maximum.
    const reach = Math.max(1, Math.ceil(peakFwhm / 2));
    let index = c.index;
    let best = -Infinity;
    for (let i = Math.max(0, c.index - reach); i <= Math.min(n - 1, c.index + reach); i++) {
      const v = smoothedAt(trace, locators[c.scale]!, i);
      if (v > best) {
        best = v;
        index = i;
      }
    }
    // Both sides must fall (a step has one flat side); a side shorter than a peak width is cut by the window.
    const top = smoothedAt(trace, kernel, index);
    const dropNeeded = V1_SIDE_DROP_SIGMA * noise * smoothingNoiseGain(kernel);
    const span = kernel.halfSupport + Math.ceil(kernel.fwhm);
    let leftMin = top;
    let rightMin = top;
    for (let i = Math.max(0, index - span); i < index; i++) leftMin = Math.min(leftMin, smoothedAt(trace, kernel, i));
    for (let i = index + 1; i <= Math.min(n - 1, index + span); i++) rightMin = Math.min(rightMin, smoothedAt(trace, kernel, i));
    const sideNeeded = Math.max(2, V1_SIDE_NEEDED_FWHM * peakFwhm);
    const leftCounts = index >= sideNeeded;
    const rightCounts = n - 1 - index >= sideNeeded;
    if (leftCounts && top - leftMin < dropNeeded) continue;
    if (rightCounts && top - rightMin < dropNeeded) continue;
    let height = top - (leftCounts && rightCounts ? Math.max(leftMin, rightMin) : leftCounts ? leftMin : rightMin);
    const cut = !leftCounts || !rightCounts;
    if (cut) {
      const fromStart = !leftCounts;
      const fromEnd = fromStart ? index : n - 1 - index;
      const fit = fitEdgePeak(
        trace,
        fromStart,
        peakFwhm,
        fromEnd + Math.ceil(V1_EDGE_FIT_SPAN_FWHM * peakFwhm) + 2,
        fromEnd + peakFwhm,
        0,
        n,
        V1_MIN_KERNEL_FWHM_SAMPLES / KERNEL_PER_PEAK_FWHM,
      );
      if (!fit || fit.amplitude < V1_EDGE_AMPLITUDE_SIGMA * sigma) continue;
      if (fit.centre < -V1_EDGE_OUTSIDE_SAMPLES || fit.centre > n - 1 + V1_EDGE_OUTSIDE_SAMPLES) continue;
      if (fit.outsideError - fit.insideError < V1_EDGE_INSIDE_EVIDENCE_SIGMA2 * sigma * sigma) continue;
      index = Math.min(n - 1, Math.max(0, Math.round(fit.centre)));
      height = fit.amplitude;
    }
    peaks.push({ index, height, width: peakFwhm, cut, scale: c.scale });
  }
  const distinct = mergeWithoutValley(trace, peaks, locators, scales);

  let accepted = distinct;
  if (options.edgeRelativeHeight > 0) {
    // Peaks of one dot have comparable heights: a small bump cut by an end next to large peaks is a background
    // slope or the flank of a peak outside.
    const inner = Float64Array.from(distinct.filter((p) => !p.cut).map((p) => p.height));
    const typical = inner.length > 0 ? medianInPlace(inner, inner.length) : 0;
    accepted = distinct.filter((p) => !p.cut || p.height >= options.edgeRelativeHeight * typical);
  }
  accepted.sort((a, b) => a.index - b.index);
  // Report heights and widths measured on the trace (uncut peaks); cut peaks keep their lineshape fit.
  const shapes = accepted.map((p) => (p.cut ? undefined : measurePeakShape(trace, 0, n, p.index, peakShapeReach(p.width))));
  return {
    peakIndices: accepted.map((p) => p.index),
    peakHeights: accepted.map((p, k) => shapes[k]?.height ?? p.height),
    peakWidths: accepted.map((p, k) => shapes[k]?.fwhm ?? p.width),
  };
}

export function detectCoulombPeaksV1(trace: Float64Array): PeakDetection {
  return detectCoulombPeaksMultiScale(trace, { kernelWidths: v1KernelWidths(trace.length), edgeRelativeHeight: 0, consensusScaleSteps: Infinity });
}
