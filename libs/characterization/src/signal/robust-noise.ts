// Robust white-noise level of a trace from its first difference. For i.i.d. Gaussian noise of std σ, Δx is
// Gaussian with std √2 σ, so a quantile q of |Δx| gives σ̂ = Q_q(|Δx|) / (√2 Φ⁻¹((1 + q)/2)); q = ½ is the
// median absolute deviation (Hampel, J. Am. Stat. Assoc. 69, 383 (1974)). Densely packed narrow peaks make
// most differences signal, so the first estimate uses the lower quartile (q = ¼: only a quarter of the
// differences need be noise-dominated), and callers refine it with the median over differences away from
// detected peaks (`mask`). Integer-valued (quantised) traces can have Q_q = 0; the quantisation noise of the
// smallest non-zero step q₀, q₀/√12, is the floor.
import { HALF_NORMAL_LOWER_QUARTILE, HALF_NORMAL_MEDIAN, selectInPlace } from './order-statistics.js';

/** Φ⁻¹((1 + q)/2) for the two quantiles used: the q-quantile of |N(0, 1)|. */
const HALF_NORMAL_QUANTILE = { 0.25: HALF_NORMAL_LOWER_QUARTILE, 0.5: HALF_NORMAL_MEDIAN } as const;
export type NoiseQuantile = keyof typeof HALF_NORMAL_QUANTILE;

export interface NoiseEstimateOptions {
  offset?: number;
  length?: number;
  /** Reused buffer of length ≥ length − 1. */
  scratch?: Float64Array;
  /** Differences Δx_i = x_{i+1} − x_i with mask[i] or mask[i+1] set are left out. */
  mask?: Uint8Array;
  quantile?: NoiseQuantile;
  /** Fewest usable differences; below it the answer is NaN. */
  minCount?: number;
}

/** σ̂ of the white noise; 0 for a constant trace, NaN when too few differences are left. */
export function estimateWhiteNoiseStd(trace: Float64Array, options: NoiseEstimateOptions = {}): number {
  const offset = options.offset ?? 0;
  const length = options.length ?? trace.length - offset;
  const quantile = options.quantile ?? 0.25;
  const mask = options.mask;
  const pairs = length - 1;
  if (pairs < 1) return 0;
  const scratch = options.scratch;
  const differences = scratch && scratch.length >= pairs ? scratch : new Float64Array(pairs);
  let count = 0;
  let smallestStep = Infinity;
  for (let i = 0; i < pairs; i++) {
    const d = Math.abs(trace[offset + i + 1]! - trace[offset + i]!);
    if (d > 0 && d < smallestStep) smallestStep = d;
    if (mask && (mask[i] || mask[i + 1])) continue;
    differences[count++] = d;
  }
  if (smallestStep === Infinity) return 0;
  if (count < Math.max(1, options.minCount ?? 1)) return NaN;
  const value = selectInPlace(differences, count, Math.floor(quantile * (count - 1)));
  const sigma = value / (Math.SQRT2 * HALF_NORMAL_QUANTILE[quantile]);
  return Math.max(sigma, smallestStep / Math.sqrt(12));
}

/**
 * σ̂ from the first differences farthest from known peak positions (distance in units of each peak's width):
 * the median over the `fraction` quietest of them, so that dense peak trains still leave their valleys to
 * measure. Falls back to the median over all differences when no peaks are given.
 */
export function quietDifferenceNoise(
  trace: Float64Array,
  peakCentres: readonly number[],
  peakWidths: readonly number[],
  fraction: number,
  offset = 0,
  length = trace.length - offset,
  scratch?: Float64Array,
): number {
  const pairs = length - 1;
  if (pairs < 1) return 0;
  if (peakCentres.length === 0) return estimateWhiteNoiseStd(trace, { offset, length, quantile: 0.5, scratch });
  const distance = new Float64Array(pairs);
  for (let i = 0; i < pairs; i++) {
    let d = Infinity;
    for (let k = 0; k < peakCentres.length; k++) d = Math.min(d, Math.abs(i + 0.5 - peakCentres[k]!) / peakWidths[k]!);
    distance[i] = d;
  }
  const keep = Math.min(pairs, Math.max(2, Math.ceil(fraction * pairs)));
  const cut = selectInPlace(Float64Array.from(distance), pairs, pairs - keep);
  const excluded = new Uint8Array(length);
  let kept = 0;
  for (let i = 0; i < pairs; i++) {
    if (distance[i]! > cut) kept++;
    else excluded[i] = 1;
  }
  // Ties at the cut fill the remaining places in index order.
  for (let i = 0; i < pairs && kept < keep; i++) {
    if (distance[i] === cut && excluded[i]) {
      excluded[i] = 0;
      kept++;
    }
  }
  const differences = scratch && scratch.length >= pairs ? scratch : new Float64Array(pairs);
  let count = 0;
  let smallestStep = Infinity;
  for (let i = 0; i < pairs; i++) {
    const d = Math.abs(trace[offset + i + 1]! - trace[offset + i]!);
    if (d > 0 && d < smallestStep) smallestStep = d;
    if (!excluded[i]) differences[count++] = d;
  }
  if (smallestStep === Infinity) return 0;
  const median = selectInPlace(differences, count, Math.floor(0.5 * (count - 1)));
  return Math.max(median / (Math.SQRT2 * HALF_NORMAL_QUANTILE[0.5]), smallestStep / Math.sqrt(12));
}
