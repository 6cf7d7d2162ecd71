// Realistic nominal inputs for the per-model latency benchmark of the Coulomb diamonds, anticrossings and electron unloading (issue #5).
import type { PerfInput } from './model-latency.js';

export function perfInputs(): PerfInput[] {
  return [];
}
