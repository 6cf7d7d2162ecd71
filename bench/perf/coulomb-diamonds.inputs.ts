// Realistic nominal inputs for the per-model latency benchmark of the Coulomb-diamond models (issue #5).
import { benchmarkSeeds, generateCoulombDiamondMap } from '#qdc/device-physics';
import type { PerfInput } from './model-latency.js';

/** Issue #5: aim for < 50 ms per 128×128 map. */
const MAP_TARGET_MICROS = 50_000;

/** The segmenter shares v1/v2's code: listed after them, it is measured with that code already compiled (as in a running server). */
export function perfInputs(): PerfInput[] {
  const maps = benchmarkSeeds(8).map((seed) => ({ shape: [128, 128], data: generateCoulombDiamondMap(seed).data }));
  const masks = benchmarkSeeds(4).map((seed) => ({
    shape: [256, 256],
    data: Float64Array.from(generateCoulombDiamondMap(seed, { rows: 256, cols: 256 }).blockade),
  }));
  return [
    { model: 'coulomb-diamond-detector-v0', note: 'exact (256,256) blockade masks', inputs: masks, targetMicros: MAP_TARGET_MICROS },
    { model: 'coulomb-diamond-detector-v1', note: 'simulated (128,128) diamond maps', inputs: maps, targetMicros: MAP_TARGET_MICROS },
    { model: 'coulomb-diamond-detector-v2', note: 'simulated (128,128) diamond maps', inputs: maps, targetMicros: MAP_TARGET_MICROS },
    { model: 'coulomb-diamond-segmenter-v0', note: 'simulated (128,128) diamond maps', inputs: maps, targetMicros: MAP_TARGET_MICROS },
  ];
}
