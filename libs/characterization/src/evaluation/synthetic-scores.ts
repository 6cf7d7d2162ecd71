// Detection scores of a model on labelled synthetic traces from libs/device-physics (shared by the unit tests
// and the accuracy benchmark, so both measure the same thing). Matching: peaks within ±2 samples; dips within
// ±½ linewidth (at least 1 sample). Faint or just-outside peaks are "don't care" (see the generator's header).
import {
  generateCoulombEdgeTrace,
  generateCoulombPeakTrace,
  generateResonatorNotchTrace,
  type CoulombEdgeTraceOptions,
  type CoulombPeakTraceOptions,
  type ResonatorNotchTraceOptions,
} from '#qdc/device-physics';
import { addDetectionCounts, countDetections, scoreDetections, type DetectionCounts, type DetectionScore } from './detection-score.js';

export const PEAK_MATCH_TOLERANCE_SAMPLES = 2;

export type TraceDetector = (trace: Float64Array) => number[];

const ZERO: DetectionCounts = { truePositives: 0, falsePositives: 0, falseNegatives: 0 };

/** Options per seed (e.g. a length that depends on the seed's position). */
export type PerSeed<T> = T | ((seed: number, position: number) => T);

function optionsFor<T>(options: PerSeed<T>, seed: number, position: number): T {
  return typeof options === 'function' ? (options as (seed: number, position: number) => T)(seed, position) : options;
}

export function scoreCoulombPeakDetector(detect: TraceDetector, seeds: readonly number[], options: PerSeed<CoulombPeakTraceOptions> = {}): DetectionScore {
  let counts = ZERO;
  seeds.forEach((seed, position) => {
    const truth = generateCoulombPeakTrace(seed, optionsFor(options, seed, position));
    const found = detect(truth.trace);
    counts = addDetectionCounts(
      counts,
      countDetections(found, { indices: truth.peakIndices, tolerance: PEAK_MATCH_TOLERANCE_SAMPLES, ignored: truth.ignoredPeakIndices }),
    );
  });
  return scoreDetections(counts);
}

/** The same score on generateCoulombEdgeTrace (peaks on the first/last samples, sweeps ending in a monotone rise). */
export function scoreCoulombEdgeDetector(detect: TraceDetector, seeds: readonly number[], options: PerSeed<CoulombEdgeTraceOptions> = {}): DetectionScore {
  let counts = ZERO;
  seeds.forEach((seed, position) => {
    const truth = generateCoulombEdgeTrace(seed, optionsFor(options, seed, position));
    counts = addDetectionCounts(
      counts,
      countDetections(detect(truth.trace), { indices: truth.peakIndices, tolerance: PEAK_MATCH_TOLERANCE_SAMPLES, ignored: truth.ignoredPeakIndices }),
    );
  });
  return scoreDetections(counts);
}

export function scoreResonatorDipFinder(detect: TraceDetector, seeds: readonly number[], options: PerSeed<ResonatorNotchTraceOptions> = {}): DetectionScore {
  let counts = ZERO;
  seeds.forEach((seed, position) => {
    const truth = generateResonatorNotchTrace(seed, optionsFor(options, seed, position));
    const found = detect(truth.trace);
    counts = addDetectionCounts(
      counts,
      countDetections(found, { indices: truth.dips.map((d) => d.index), tolerance: truth.dips.map((d) => Math.max(1, d.linewidth / 2)) }),
    );
  });
  return scoreDetections(counts);
}
