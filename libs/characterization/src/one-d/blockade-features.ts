// Peak statistics of a trace for Coulomb-blockade classification. Coulomb oscillations are a train of ≥ 2
// thermally broadened peaks of similar width (one temperature and lever arm per dot; Beenakker, Phys. Rev. B 44,
// 1646 (1991)) standing clear of the noise; the negatives (a lone peak, a pinch-off step, an open channel, noise
// on a sloped background) fail one of these. Peaks come from the catalogue's Coulomb-peak detectors (v0: find_peaks
// style prominence; v2: multi-scale cosh⁻² matched filter), noise σ from the first differences (Hampel 1974).
import { detectCoulombPeaksV0, type PeakDetection } from '../coulomb-peaks/coulomb-peak-detector-v0.model.js';
import { detectCoulombPeaksV2 } from '../coulomb-peaks/coulomb-peak-detector-v2.model.js';
import { estimateWhiteNoiseStd } from '../signal/robust-noise.js';

/** Height (σ) a peak needs to count in the peak-count features. */
export const COUNTED_PEAK_SIGMA = 5;
/** v1's rule: ≥ 2 matched-filter peaks, the second ≥ V1_SECOND_PEAK_SIGMA above its local background, confirmed by
 * the prominence detector (its second peak ≥ V1_CONFIRM_PEAK_SIGMA): two detectors with different failure modes. */
export const V1_SECOND_PEAK_SIGMA = 1.5;
export const V1_CONFIRM_PEAK_SIGMA = 2.5;

export function v1Rule(matched: PeakStatistics, prominence: PeakStatistics): boolean {
  return matched.count >= 2 && matched.second >= V1_SECOND_PEAK_SIGMA && prominence.second >= V1_CONFIRM_PEAK_SIGMA;
}
const LOG_CAP = 4;

export interface PeakStatistics {
  count: number;
  /** Heights of the strongest and second-strongest peak, in σ (0 when absent). */
  first: number;
  second: number;
  /** Peaks ≥ COUNTED_PEAK_SIGMA. */
  counted: number;
  /** |ln(FWHM ratio)| of the two strongest (0 when unknown). */
  widthSpread: number;
}

export function noiseSigma(trace: Float64Array, offset = 0, length = trace.length - offset): number {
  const s = estimateWhiteNoiseStd(trace, { offset, length });
  if (s > 0) return s;
  let min = Infinity;
  let max = -Infinity;
  for (let i = offset; i < offset + length; i++) {
    min = Math.min(min, trace[i]!);
    max = Math.max(max, trace[i]!);
  }
  // Noise-free input: measure heights against 0.1 % of the range (or 1 for a constant trace).
  return max > min ? 1e-3 * (max - min) : 1;
}

export function peakStatistics(detection: PeakDetection, sigma: number): PeakStatistics {
  const order = detection.peakHeights.map((h, k) => [h, k] as const).sort((a, b) => b[0] - a[0]);
  const first = order[0] ? order[0][0] / sigma : 0;
  const second = order[1] ? order[1][0] / sigma : 0;
  const widths = detection.peakWidths;
  const widthSpread = widths && order[1] ? Math.abs(Math.log(widths[order[0]![1]]! / widths[order[1][1]]!)) : 0;
  return {
    count: detection.peakIndices.length,
    first,
    second,
    counted: detection.peakHeights.filter((h) => h >= COUNTED_PEAK_SIGMA * sigma).length,
    widthSpread,
  };
}

const logSigma = (x: number): number => Math.min(LOG_CAP, Math.log10(1 + Math.max(0, x)));

/** Range of the trace / σ, and how much of the range a straight end-to-end change explains (steps, slopes). */
function shapeFeatures(trace: Float64Array, sigma: number): [number, number] {
  const n = trace.length;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    min = Math.min(min, trace[i]!);
    max = Math.max(max, trace[i]!);
  }
  const k = Math.max(1, Math.round(n / 10));
  let a = 0;
  let b = 0;
  for (let i = 0; i < k; i++) {
    a += trace[i]! / k;
    b += trace[n - 1 - i]! / k;
  }
  const range = max - min;
  return [logSigma(range / sigma), range > 0 ? Math.abs(b - a) / range : 0];
}

function detectorFeatures(stats: PeakStatistics): number[] {
  return [
    Math.min(stats.count, 6),
    Math.min(stats.counted, 6),
    logSigma(stats.first),
    logSigma(stats.second),
    stats.first > 0 ? stats.second / stats.first : 0,
    Math.min(2, stats.widthSpread),
  ];
}

/** v2 features: v1's decision, the matched-filter detector's peak statistics and the trace shape. */
export function blockadeFeaturesV2(trace: Float64Array): number[] {
  const sigma = noiseSigma(trace);
  const v2 = peakStatistics(detectCoulombPeaksV2(trace), sigma);
  const v0 = peakStatistics(detectCoulombPeaksV0(trace), sigma);
  return [v1Rule(v2, v0) ? 1 : 0, ...detectorFeatures(v2), ...shapeFeatures(trace, sigma)];
}

/** v3 features: v2's plus the prominence detector's full statistics. */
export function blockadeFeaturesV3(trace: Float64Array): number[] {
  const sigma = noiseSigma(trace);
  const v2 = peakStatistics(detectCoulombPeaksV2(trace), sigma);
  const v0 = peakStatistics(detectCoulombPeaksV0(trace), sigma);
  return [v1Rule(v2, v0) ? 1 : 0, ...detectorFeatures(v2), ...shapeFeatures(trace, sigma), ...detectorFeatures(v0).slice(0, 5)];
}
