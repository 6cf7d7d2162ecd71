// Realistic nominal inputs for the per-model latency benchmark of the charge-stability-diagram models (issue #4): double-dot classifiers, transition-line detectors, segmenter.
import type { PerfInput } from './model-latency.js';

export function perfInputs(): PerfInput[] {
  return [];
}
