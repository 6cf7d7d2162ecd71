// coulomb-blockade-peak-detector-v0 — classical peak picking, as scipy.signal.find_peaks(prominence=…,
// distance=…): binomial smoothing, local maxima, and a topographic-prominence threshold (within a ±8-sample
// window) in units of the white-noise level. The noise is the median-absolute-deviation estimate from the first
// difference (Hampel 1974), taken over the differences farthest from provisional peaks so that dense peak
// trains do not inflate it (see signal/robust-noise.ts). No background model. Unlike find_peaks, a maximum on the
// first or last sample is reported when v1's end test accepts it (issue 29): a cosh⁻² + constant fit of that end
// (Beenakker, Phys. Rev. B 44, 1646 (1991) lineshape; signal/edge-peak-centre.ts) centred inside must beat every fit
// centred ≥ 2 samples outside in residual sum of squares (a likelihood-ratio test; a rise into the end is not a peak).
import { estimateWhiteNoiseStd, quietDifferenceNoise } from '../signal/robust-noise.js';
import { peakProminence } from '../signal/peak-prominence.js';
import { fitEdgePeak } from '../signal/edge-peak-centre.js';

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
/**
 * End maxima: the inside fit must beat the outside ones by this much (σ², stricter than v1's 2: v0 knows no peak
 * width, only the half-height distance of the inner side), its centre at most V0_EDGE_SIDE_SAMPLES − 1 inward and
 * at most this far outside (samples); fitted widths down to V0_EDGE_MIN_FWHM_SAMPLES.
 */
export const V0_EDGE_INSIDE_EVIDENCE_SIGMA2 = 9;
export const V0_EDGE_OUTSIDE_SAMPLES = 1;
export const V0_EDGE_MIN_FWHM_SAMPLES = 1;
/** Fit span beyond the apparent width, as v1: this many FWHM plus 2 samples. */
export const V0_EDGE_FIT_SPAN_FWHM = 2.5;

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

/**
 * A maximum of the smoothed trace on the end sample, prominent on its inner side (within the prominence window),
 * with no reported peak within V0_MIN_SEPARATION_SAMPLES, whose top the end fit puts inside the window.
 */
function endMaximum(
  trace: Float64Array,
  smooth: Float64Array,
  fromStart: boolean,
  sigma: number,
  peaks: readonly { index: number; prominence: number }[],
): { index: number; prominence: number } | null {
  const n = smooth.length;
  const at = (j: number): number => smooth[fromStart ? j : n - 1 - j]!;
  const endIndex = fromStart ? 0 : n - 1;
  if (!(at(0) > at(1)) || peaks.some((p) => Math.abs(p.index - endIndex) < V0_MIN_SEPARATION_SAMPLES)) return null;
  let low = at(0);
  for (let j = 1; j <= Math.min(n - 1, V0_PROMINENCE_HALF_WINDOW_SAMPLES); j++) {
    if (at(j) > at(0)) break;
    low = Math.min(low, at(j));
  }
  const prominence = at(0) - low;
  if (prominence < V0_MIN_PROMINENCE_SIGMA * sigma) return null;
  // Apparent FWHM: twice the distance at which the inner side has fallen by half the prominence.
  let half = 1;
  while (half < n - 1 && at(half) > at(0) - prominence / 2) half++;
  const fwhm = 2 * half;
  const fit = fitEdgePeak(trace, fromStart, fwhm, Math.ceil(V0_EDGE_FIT_SPAN_FWHM * fwhm) + 2, fwhm, 0, n, V0_EDGE_MIN_FWHM_SAMPLES);
  if (!fit || fit.outsideError - fit.insideError < V0_EDGE_INSIDE_EVIDENCE_SIGMA2 * sigma * sigma) return null;
  const inward = fromStart ? fit.centre : n - 1 - fit.centre;
  if (inward < -V0_EDGE_OUTSIDE_SAMPLES || inward > V0_EDGE_SIDE_SAMPLES - 1) return null;
  const index = Math.min(n - 1, Math.max(0, Math.round(fit.centre)));
  if (peaks.some((p) => Math.abs(p.index - index) < V0_MIN_SEPARATION_SAMPLES)) return null;
  return { index, prominence };
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
  for (const fromStart of [true, false]) {
    const end = endMaximum(trace, smooth, fromStart, sigma, peaks);
    if (end) peaks.push(end);
  }
  peaks.sort((a, b) => a.index - b.index);
  return { peakIndices: peaks.map((p) => p.index), peakHeights: peaks.map((p) => p.prominence) };
}
