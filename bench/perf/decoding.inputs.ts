// Realistic nominal inputs for the per-model latency benchmark of the surface-code decoders (issue #15): batches of
// 64 phenomenological d = 5, T = 5 memory experiments at p = q = 1 % from the libs/qec sampler.
import { sampleMemoryExperiment } from '#qdc/qec';
import type { PerfInput } from './model-latency.js';

export function perfInputs(): PerfInput[] {
  const inputs = [35_001, 35_002, 35_003, 35_004].map((seed) => {
    const s = sampleMemoryExperiment({ distance: 5, rounds: 5, noise: { kind: 'phenomenological', p: 0.01, q: 0.01 }, shots: 64, seed });
    return { shape: [64, 4, 5, 5, 5], data: Float64Array.from(s.syndromes) };
  });
  return ['ising-decoding-v1-fast', 'ising-decoding-v1-accurate'].map((model) => ({ model, note: '64 sampled (4, 5, 5, 5) syndromes, p = q = 1 %', inputs }));
}
