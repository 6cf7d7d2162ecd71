// Realistic nominal inputs for the per-model latency benchmark of the 1-D characterization models (issue #3): Coulomb-blockade classifiers, pinch-off and turn-on classifiers and extractors.
import type { PerfInput } from './model-latency.js';

export function perfInputs(): PerfInput[] {
  return [];
}
