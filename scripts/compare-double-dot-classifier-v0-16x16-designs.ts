// Design comparison for charge-stability-diagram-binary-classifier-v0-16x16, on TUNING seeds only (node
// dist/scripts/compare-double-dot-classifier-v0-16x16-designs.js): candidate small models (logistic regression,
// networks of 1–4 ReLU) trained exactly as the trainers do (tuning seeds 1–9000, Platt-calibrated on 9201–9999),
// scored on tuning seeds 9001–9999 in the benchmark's mix (two patches per seed: a double dot and, alternately, a
// single dot or no dot; read-out as drawn), next to the committed v1-16x16 on the same patches.
// Not run by the build or the benchmark; its printout is quoted in docs/models/charge-stability.md.
import { tuningSeeds } from '#qdc/device-physics';
import { PATCH_FEATURE_COUNT } from '../libs/characterization/src/charge-stability/csd-patch-features.js';
import {
  createDenseWorkspace,
  denseLogit,
  packNetwork,
  type DenseNetworkWeights,
  type PackedNetwork,
} from '../libs/characterization/src/charge-stability/dense-network.js';
import type { DoubleDotNetworkWeights } from '../libs/characterization/src/charge-stability/double-dot-classifier.model.js';
import {
  CALIBRATION_SEED_COUNT,
  CALIBRATION_SEED_OFFSET,
  doubleDotPatchSet,
  doubleDotTrainingSet,
  fitPlattScaling,
  trainDenseNetwork,
  TRAINING_SEED_COUNT,
} from '#qdc/characterization/training';
import { CLASSIFIER_V1_16X16_WEIGHTS } from '../libs/characterization/src/charge-stability/weights/charge-stability-diagram-binary-classifier-v1-16x16.weights.js';

const SIZE = 16;
const started = performance.now();
const elapsed = (): string => `${((performance.now() - started) / 1000).toFixed(0)} s`;

const training = doubleDotTrainingSet(SIZE, tuningSeeds(TRAINING_SEED_COUNT));
const calibration = doubleDotPatchSet(SIZE, tuningSeeds(CALIBRATION_SEED_COUNT, CALIBRATION_SEED_OFFSET));
// Seeds s, s, t, t, … against the cycle double, single, double, none: each seed gives a double dot and one other.
const selectionSeeds = tuningSeeds(999, 9_000).flatMap((s) => [s, s]);
const selection = doubleDotPatchSet(SIZE, selectionSeeds);
console.log(`features: ${training.count} training, ${calibration.count} calibration, ${selection.count} selection patches (${elapsed()})`);

function meanLogits(nets: PackedNetwork[], set: typeof selection): Float64Array {
  const ws = createDenseWorkspace(nets[0]!.sizes);
  return Float64Array.from({ length: set.count }, (_, i) => {
    const x = set.inputs.subarray(i * PATCH_FEATURE_COUNT, (i + 1) * PATCH_FEATURE_COUNT);
    return nets.reduce((z, net) => z + denseLogit(net, x, ws), 0) / nets.length;
  });
}

function calibrated(weights: DoubleDotNetworkWeights): boolean[] {
  const z = meanLogits(weights.members.map(packNetwork), selection);
  const { scale, offset } = weights.calibration;
  return Array.from(z, (v) => scale * v + offset > 0);
}

const v1 = calibrated(CLASSIFIER_V1_16X16_WEIGHTS);

function report(name: string, says: boolean[], parameters: number): void {
  let correct = 0;
  let misses = 0;
  let falseAlarms = 0;
  let positives = 0;
  let onlyV1Right = 0;
  let onlyThisRight = 0;
  says.forEach((yes, i) => {
    const truth = selection.labels[i] === 1;
    if (yes === truth) correct++;
    if (truth) positives++;
    if (truth && !yes) misses++;
    if (!truth && yes) falseAlarms++;
    if (v1[i] === truth && yes !== truth) onlyV1Right++;
    if (v1[i] !== truth && yes === truth) onlyThisRight++;
  });
  const n = selection.count;
  console.log(
    `${name.padEnd(22)} params ${String(parameters).padStart(4)}  accuracy ${(correct / n).toFixed(4)}  miss ${(misses / positives).toFixed(3)}  ` +
      `false alarm ${(falseAlarms / (n - positives)).toFixed(3)}  vs v1: ${onlyV1Right} only v1 right, ${onlyThisRight} only this right`,
  );
}

report('v1-16x16 (committed)', v1, 64 * 8 + 8 + 8 + 1);
for (const hidden of [[], [1], [2], [3], [4]] as number[][]) {
  for (const seed of [4, 5, 6]) {
    const net: DenseNetworkWeights = trainDenseNetwork(training, { hidden, epochs: 40, batch: 32, learningRate: 0.003, weightDecay: 1e-4, seed });
    const platt = fitPlattScaling(meanLogits([packNetwork(net)], calibration), calibration.labels);
    const parameters = net.layers.reduce((p, l) => p + l.w.length + l.b.length, 0);
    report(`${hidden.length ? `${hidden[0]} ReLU` : 'logistic'} seed ${seed}`, calibrated({ members: [net], calibration: platt }), parameters);
  }
  console.log(`(${elapsed()})`);
}
