// Realistic nominal inputs for the per-model latency benchmark of the anticrossing detector (issue #5).
import { benchmarkSeeds, generateAnticrossingSpectroscopy } from '#qdc/device-physics';
import type { PerfInput } from './model-latency.js';

export function perfInputs(): PerfInput[] {
  const maps = benchmarkSeeds(8, 650_000).map((seed) => {
    const t = generateAnticrossingSpectroscopy(seed);
    return { shape: [...t.shape], data: t.data };
  });
  return [{ model: 'anticrossing-detector-v0', note: 'simulated (2, 801, 127) resonator-vs-flux maps', inputs: maps }];
}
