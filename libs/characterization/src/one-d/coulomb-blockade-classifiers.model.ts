// coulomb-blockade-classifier-v0 … v3 — is this trace Coulomb-blockade oscillations (≥ 2 well-separated peaks
// over background)? All four decide from peak statistics (blockade-features.ts) of the catalogue's Coulomb-peak
// detectors; they differ as follows (measured in the accuracy benchmark, docs/models/one-d.md):
// - v0: rule on the prominence detector (peak-detector v0, scipy find_peaks style): the second-strongest peak
//   stands ≥ 3.5 σ above its surroundings. Any length ≥ 32.
// - v1: rule on the cosh⁻² matched-filter detector (peak-detector v2: per-scale noise, both-sides fall check, so
//   1/f wander, telegraph jumps and steps do not make peaks): ≥ 2 peaks, the second ≥ 1.5 σ above its local
//   background, confirmed by the prominence detector (second peak ≥ 2.5 σ): both detectors must agree. (100,)
//   nominal, any length ≥ 32 (the whole trace).
// - v2: logistic regression (Newton/IRLS, trained by `npm run train:coulomb-blockade-classifier-v2` on tuning
//   seeds) on v1's decision, the matched-filter peak statistics and the trace shape: adds a calibrated `score` (probability of
//   blockade). Long traces: the whole trace and windows of 128 (stride 64) are scored; the maximum counts, with
//   the window indices reported in the caller's coordinates. Any length ≥ 32.
// - v3: v2's features plus the prominence detector's full peak statistics: the most robust, calibrated `score`.
//   (128,) nominal; any length ≥ 32 with v2's windows.
import { detectCoulombPeaksV0 } from '../coulomb-peaks/coulomb-peak-detector-v0.model.js';
import { detectCoulombPeaksV2 } from '../coulomb-peaks/coulomb-peak-detector-v2.model.js';
import { blockadeFeaturesV2, blockadeFeaturesV3, noiseSigma, peakStatistics, v1Rule } from './blockade-features.js';
import { logisticScore } from './logistic-regression.js';
import { BLOCKADE_V2_MODEL } from './coulomb-blockade-classifier-v2.weights.js';
import { BLOCKADE_V3_MODEL } from './coulomb-blockade-classifier-v3.weights.js';

export const V0_SECOND_PEAK_SIGMA = 3.5;
export const V2_WINDOW = 128;
export const V2_STRIDE = 64;
export const SCORE_THRESHOLD = 0.5;

export function classifyCoulombBlockadeV0(trace: Float64Array): Record<string, unknown> {
  const detection = detectCoulombPeaksV0(trace);
  const stats = peakStatistics(detection, noiseSigma(trace));
  return { classification: stats.second >= V0_SECOND_PEAK_SIGMA, peak_indices: detection.peakIndices, second_peak_sigma: stats.second };
}

export function classifyCoulombBlockadeV1(trace: Float64Array): Record<string, unknown> {
  const sigma = noiseSigma(trace);
  const detection = detectCoulombPeaksV2(trace);
  const stats = peakStatistics(detection, sigma);
  const confirm = peakStatistics(detectCoulombPeaksV0(trace), sigma);
  return { classification: v1Rule(stats, confirm), peak_indices: detection.peakIndices, second_peak_sigma: stats.second };
}

/** Start offsets of the sliding windows of a trace longer than one window (the last one flush with the end). */
function windowStarts(length: number): number[] {
  if (length <= V2_WINDOW) return [];
  const starts: number[] = [];
  for (let s = 0; s + V2_WINDOW < length; s += V2_STRIDE) starts.push(s);
  starts.push(length - V2_WINDOW);
  return starts;
}

export function classifyCoulombBlockadeV2(trace: Float64Array): Record<string, unknown> {
  let score = logisticScore(BLOCKADE_V2_MODEL, blockadeFeaturesV2(trace));
  let window: [number, number] = [0, trace.length - 1];
  for (const start of windowStarts(trace.length)) {
    const s = logisticScore(BLOCKADE_V2_MODEL, blockadeFeaturesV2(trace.subarray(start, start + V2_WINDOW)));
    if (s > score) {
      score = s;
      window = [start, start + V2_WINDOW - 1];
    }
  }
  const peaks = detectCoulombPeaksV2(trace).peakIndices;
  return { classification: score >= SCORE_THRESHOLD, score, window, peak_indices: peaks };
}

export function classifyCoulombBlockadeV3(trace: Float64Array): Record<string, unknown> {
  let score = logisticScore(BLOCKADE_V3_MODEL, blockadeFeaturesV3(trace));
  let window: [number, number] = [0, trace.length - 1];
  for (const start of windowStarts(trace.length)) {
    const s = logisticScore(BLOCKADE_V3_MODEL, blockadeFeaturesV3(trace.subarray(start, start + V2_WINDOW)));
    if (s > score) {
      score = s;
      window = [start, start + V2_WINDOW - 1];
    }
  }
  return { classification: score >= SCORE_THRESHOLD, score, window, peak_indices: detectCoulombPeaksV2(trace).peakIndices };
}
