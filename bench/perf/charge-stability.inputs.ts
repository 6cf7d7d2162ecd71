// Realistic nominal inputs for the per-model latency benchmark of the charge-stability-diagram models (issue #4).
import { DOUBLE_DOT_CLASSIFIER_VERSIONS, LISTED_CLASSIFIER_IDS, LISTED_TRANSITION_IDS } from '#qdc/characterization';
import { benchmarkSeeds, generateChargeStabilityDiagram } from '#qdc/device-physics';
import type { PerfInput } from './model-latency.js';

/** Issue #4: the 16×16 screen must answer in ≤ 0.2 ms in process. */
const SCREEN_TARGET_MICROS = 200;

export function perfInputs(): PerfInput[] {
  const segmenter: PerfInput = {
    model: 'charge-stability-diagram-segmenter-v0',
    note: 'simulated (128,128) maps',
    inputs: benchmarkSeeds(4, 600_000).map((seed) => ({
      shape: [128, 128],
      data: generateChargeStabilityDiagram(seed, { rows: 128, cols: 128, kind: 'double' }).data,
    })),
  };
  const classifiers = DOUBLE_DOT_CLASSIFIER_VERSIONS.filter((v) => LISTED_CLASSIFIER_IDS.includes(v.id)).map((v) => ({
    model: v.id,
    note: `simulated (${v.size},${v.size}) patches`,
    inputs: benchmarkSeeds(16).map((seed) => ({ shape: [v.size, v.size], data: generateChargeStabilityDiagram(seed, { rows: v.size, cols: v.size }).data })),
    ...(v.size === 16 ? { targetMicros: SCREEN_TARGET_MICROS } : {}),
  }));
  const maps = benchmarkSeeds(8, 700_000).map((seed) => ({
    shape: [128, 128],
    data: generateChargeStabilityDiagram(seed, { rows: 128, cols: 128, kind: 'double' }).data,
  }));
  const transition = LISTED_TRANSITION_IDS.map((id) => ({ model: id, note: 'simulated (128,128) double-dot maps, sensor and transport', inputs: maps }));
  return [...classifiers, segmenter, ...transition];
}
