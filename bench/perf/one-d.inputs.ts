// Realistic nominal inputs for the per-model latency benchmark of the 1-D characterization models (issue #3): Coulomb-blockade classifiers, pinch-off and turn-on classifiers and extractors.
import { benchmarkSeeds, generateCoulombBlockadeTrace, generatePinchOffTrace, generateTurnOnTrace } from '#qdc/device-physics';
import type { PerfInput } from './model-latency.js';

export function perfInputs(): PerfInput[] {
  const seeds = benchmarkSeeds(16, 500_000);
  const blockade = (length: number) => seeds.map((seed) => ({ shape: [length], data: generateCoulombBlockadeTrace(seed, { length }).trace }));
  const pinch = seeds.map((seed) => ({ shape: [100], data: generatePinchOffTrace(seed).trace }));
  const turn = seeds.map((seed) => ({ shape: [100], data: generateTurnOnTrace(seed).trace }));
  return [
    { model: 'coulomb-blockade-classifier-v0', note: 'blockade/negative traces (100,)', inputs: blockade(100) },
    { model: 'coulomb-blockade-classifier-v1', note: 'blockade/negative traces (100,)', inputs: blockade(100) },
    { model: 'coulomb-blockade-classifier-v2', note: 'blockade/negative traces (128,)', inputs: blockade(128) },
    { model: 'coulomb-blockade-classifier-v3', note: 'blockade/negative traces (128,)', inputs: blockade(128) },
    { model: 'pinch-off-classifier-v0', note: 'pinch-off/negative sweeps (100,)', inputs: pinch },
    { model: 'pinch-off-parameter-extractor-v0', note: 'pinch-off/negative sweeps (100,)', inputs: pinch },
    { model: 'turn-on-classifier-v0', note: 'turn-on/negative sweeps (100,)', inputs: turn },
    { model: 'turn-on-parameter-extractor-v0', note: 'turn-on/negative sweeps (100,)', inputs: turn },
  ];
}
