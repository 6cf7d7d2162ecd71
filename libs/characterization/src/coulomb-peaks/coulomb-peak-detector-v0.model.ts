// coulomb-blockade-peak-detector-v0 — classical peak picking, as scipy.signal.find_peaks(prominence=…,
// distance=…): binomial smoothing, local maxima, and a topographic-prominence threshold (within a ±8-sample
// window) in units of the white-noise level. The noise is the median-absolute-deviation estimate from the first
// difference (Hampel 1974), taken over the differences farthest from provisional peaks so that dense peak
// trains do not inflate it (see signal/robust-noise.ts). No background model and no lineshape: like find_peaks,
// maxima on the first or last sample are never reported.
import { estimateWhiteNoiseStd, quietDifferenceNoise } from '../signal/robust-noise.js';
import { peakProminence } from '../signal/peak-prominence.js';

/** Minimum prominence of the smoothed trace, in σ of the raw white noise. */
export const V0_MIN_PROMINENCE_SIGMA = 3.2;
/** Prominence for provisional peaks that are kept out of the noise estimate, σ. */
export const V0_PROVISIONAL_PROMINENCE_SIGMA = 2.5;
/** Fraction of first differences, farthest from provisional peaks, that measure the noise. */
export const V0_QUIET_FRACTION = 0.4;
/** Minimum distance between reported peaks, samples. */
export const V0_MIN_SEPARATION_SAMPLES = 3;
/** A peak this close to an end is judged on its inner side only (its outer base is cut off), samples. */
export const V0_EDGE_SIDE_SAMPLES = 3;
/** Prominence is measured within ± this many samples (scipy's wlen / 2), so slow backgrounds do not count. */
export const V0_PROMINENCE_HALF_WINDOW_SAMPLES = 8;

export interface PeakDetection {
  peakIndices: number[];
  /** Height above the surrounding background, trace units. */
  peakHeights: number[];
  /** Estimated FWHM, samples (where the detector knows it). */
  peakWidths?: number[];
}

function binomialSmooth(values: Float64Array): Float64Array {
  const n = values.length;
  const out = new Float64Array(n);
  out[0] = (2 * values[0]! + values[1]!) / 3;
  out[n - 1] = (2 * values[n - 1]! + values[n - 2]!) / 3;
  for (let i = 1; i < n - 1; i++) out[i] = 0.25 * values[i - 1]! + 0.5 * values[i]! + 0.25 * values[i + 1]!;
  return out;
}

function prominentMaxima(smooth: Float64Array, minProminence: number): { index: number; prominence: number }[] {
  const n = smooth.length;
  const found: { index: number; prominence: number }[] = [];
  for (let i = 1; i < n - 1; i++) {
    const v = smooth[i]!;
    if (!(v > smooth[i - 1]! && v >= smooth[i + 1]!)) continue;
    const prominence = peakProminence(smooth, i, V0_EDGE_SIDE_SAMPLES, V0_PROMINENCE_HALF_WINDOW_SAMPLES);
    if (prominence >= minProminence) found.push({ index: i, prominence });
  }
  found.sort((a, b) => b.prominence - a.prominence || a.index - b.index);
  const kept: typeof found = [];
  for (const c of found) if (kept.every((k) => Math.abs(k.index - c.index) >= V0_MIN_SEPARATION_SAMPLES)) kept.push(c);
  return kept.sort((a, b) => a.index - b.index);
}

export function detectCoulombPeaksV0(trace: Float64Array): PeakDetection {
  const n = trace.length;
  const roughSigma = estimateWhiteNoiseStd(trace);
  if (n < 3 || !(roughSigma > 0)) return { peakIndices: [], peakHeights: [] };
  const smooth = binomialSmooth(trace);
  const provisional = prominentMaxima(smooth, V0_PROVISIONAL_PROMINENCE_SIGMA * roughSigma).map((p) => p.index);
  const sigma = quietDifferenceNoise(
    trace,
    provisional,
    provisional.map(() => 1),
    V0_QUIET_FRACTION,
  );
  const peaks = prominentMaxima(smooth, V0_MIN_PROMINENCE_SIGMA * sigma);
  return { peakIndices: peaks.map((p) => p.index), peakHeights: peaks.map((p) => p.prominence) };
}
