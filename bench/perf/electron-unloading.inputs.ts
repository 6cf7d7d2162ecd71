// Realistic nominal inputs for the per-model latency benchmark of the electron-unloading models (issue #5).
import { benchmarkSeeds, generateElectronUnloadingMap } from '#qdc/device-physics';
import type { PerfInput } from './model-latency.js';

export function perfInputs(): PerfInput[] {
  const maps = benchmarkSeeds(16, 750_000).map((seed) => {
    const t = generateElectronUnloadingMap(seed);
    return { shape: [...t.shape], data: t.data };
  });
  return [
    { model: 'electron-unload-detector-v0', note: 'simulated (101, 51) charge-sensor maps', inputs: maps },
    { model: 'electron-unload-texture-detector-v0', note: 'simulated (101, 51) charge-sensor maps', inputs: maps },
  ];
}
