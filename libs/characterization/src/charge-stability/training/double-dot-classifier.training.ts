// Training data and training runs for the double-dot classifiers: class-balanced simulated patches (½ double,
// ¼ single, ¼ no dot) from the constant-interaction simulator on TUNING seeds only, features as at run time.
import { writeFileSync } from 'node:fs';
import { generateChargeStabilityDiagram, tuningSeeds, type ChargeStabilityClass } from '#qdc/device-physics';
import { createPatchWorkspace, PATCH_FEATURE_COUNT, patchFeatures } from '../csd-patch-features.js';
import { trainDenseNetwork, type TrainingSet } from './dense-network.training.js';

export const PATCH_KINDS: readonly ChargeStabilityClass[] = ['double', 'single', 'double', 'none'];

export function doubleDotPatchSet(size: number, seeds: number[]): TrainingSet {
  const ws = createPatchWorkspace(size, size);
  const inputs = new Float64Array(seeds.length * PATCH_FEATURE_COUNT);
  const labels = new Uint8Array(seeds.length);
  seeds.forEach((seed, k) => {
    const patch = generateChargeStabilityDiagram(seed, { rows: size, cols: size, kind: PATCH_KINDS[k % PATCH_KINDS.length]! });
    labels[k] = patch.label === 'double' ? 1 : 0;
    patchFeatures(patch.data, 0, size, ws, inputs.subarray(k * PATCH_FEATURE_COUNT, (k + 1) * PATCH_FEATURE_COUNT));
  });
  return { inputs, labels, count: seeds.length, features: PATCH_FEATURE_COUNT };
}

/** Trains one classifier on the first 9 000 tuning seeds and writes its weights module. */
export function trainDoubleDotClassifier(config: { id: string; size: number; hidden: number[]; epochs: number; seed: number; out: string; constName: string }): void {
  const started = performance.now();
  const set = doubleDotPatchSet(config.size, tuningSeeds(9000));
  console.log(`${config.id}: ${set.count} patches (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  const weights = trainDenseNetwork(set, { hidden: config.hidden, epochs: config.epochs, batch: 32, learningRate: 0.003, weightDecay: 1e-4, seed: config.seed, log: (m) => console.log(m) });
  const header =
    `// Weights of ${config.id}, written by \`npm run train:${config.id}\` (scripts/train-${config.id}.ts): ` +
    `features of ${config.size}×${config.size} patches from tuning seeds 1–9000, hidden ${JSON.stringify(config.hidden)}, ${config.epochs} epochs, seed ${config.seed}.\n`;
  writeFileSync(config.out, `${header}import type { DenseNetworkWeights } from '../dense-network.js';\n\nexport const ${config.constName}: DenseNetworkWeights = ${JSON.stringify(weights)};\n`);
  console.log(`wrote ${config.out} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
