// Training data and training runs for the double-dot classifiers, on TUNING seeds only:
// - training: seeds 1–9000, four patches per seed (a double dot and, alternately, a single dot or no dot, each
//   read out by a charge sensor and in transport): ½ double, ¼ single, ¼ none, the read-outs balanced so neither
//   hints at the class;
// - calibration: seeds 9201–9999 in the benchmark's mix (double, single, double, none; read-out as drawn), for the
//   Platt scaling of the score only (two parameters);
// - seeds 9001–9200 are left for the unit spec. Features are computed exactly as at run time.
import { writeFileSync } from 'node:fs';
import { generateChargeStabilityDiagram, tuningSeeds, type ChargeStabilityClass, type ChargeStabilityReadout } from '#qdc/device-physics';
import { createPatchWorkspace, PATCH_FEATURE_COUNT, patchFeatures } from '../csd-patch-features.js';
import { createDenseWorkspace, denseLogit, packNetwork } from '../dense-network.js';
import type { DoubleDotNetworkWeights } from '../double-dot-classifier.model.js';
import { trainDenseNetwork, type TrainingSet } from './dense-network.training.js';

/** The benchmark's class cycle (read-out as drawn by the simulator). */
export const PATCH_KINDS: readonly ChargeStabilityClass[] = ['double', 'single', 'double', 'none'];
export const TRAINING_SEED_COUNT = 9000;
/** Calibration seeds: tuning seeds 9201–9999. */
export const CALIBRATION_SEED_OFFSET = 9200;
export const CALIBRATION_SEED_COUNT = 799;

interface PatchRequest {
  seed: number;
  kind: ChargeStabilityClass;
  readout?: ChargeStabilityReadout;
}

function featureSet(size: number, requests: PatchRequest[]): TrainingSet {
  const ws = createPatchWorkspace(size, size);
  const inputs = new Float64Array(requests.length * PATCH_FEATURE_COUNT);
  const labels = new Uint8Array(requests.length);
  requests.forEach(({ seed, kind, readout }, k) => {
    const patch = generateChargeStabilityDiagram(seed, { rows: size, cols: size, kind, ...(readout ? { readout } : {}) });
    labels[k] = patch.label === 'double' ? 1 : 0;
    patchFeatures(patch.data, 0, size, ws, inputs.subarray(k * PATCH_FEATURE_COUNT, (k + 1) * PATCH_FEATURE_COUNT));
  });
  return { inputs, labels, count: requests.length, features: PATCH_FEATURE_COUNT };
}

/** Training patches: four per seed (double and single-or-none, each with both read-outs). */
export function doubleDotTrainingSet(size: number, seeds: number[]): TrainingSet {
  const readouts: ChargeStabilityReadout[] = ['sensor', 'transport'];
  return featureSet(
    size,
    seeds.flatMap((seed, k) =>
      readouts.flatMap((readout) => [
        { seed, kind: 'double' as const, readout },
        { seed, kind: k % 2 ? ('single' as const) : ('none' as const), readout },
      ]),
    ),
  );
}

/** Patches in the benchmark's mix (PATCH_KINDS cycle, simulator's read-out draw). */
export function doubleDotPatchSet(size: number, seeds: number[]): TrainingSet {
  return featureSet(
    size,
    seeds.map((seed, k) => ({ seed, kind: PATCH_KINDS[k % PATCH_KINDS.length]! })),
  );
}

/** Expected calibration error: |mean score − positive rate| over `bins` equal-width score bins, weighted by count. */
export function expectedCalibrationError(scores: Float64Array, labels: Uint8Array, bins = 10): number {
  const sum = new Float64Array(bins);
  const hits = new Float64Array(bins);
  const count = new Float64Array(bins);
  scores.forEach((p, i) => {
    const b = Math.min(bins - 1, Math.floor(p * bins));
    sum[b] += p;
    hits[b] += labels[i]!;
    count[b]++;
  });
  let ece = 0;
  for (let b = 0; b < bins; b++) if (count[b]) ece += Math.abs(sum[b]! - hits[b]!);
  return ece / scores.length;
}

/** Platt scaling: (scale, offset) minimising the cross-entropy of σ(scale·z + offset), by Newton's method. */
export function fitPlattScaling(logits: Float64Array, labels: Uint8Array): { scale: number; offset: number } {
  let a = 1;
  let b = 0;
  for (let iteration = 0; iteration < 50; iteration++) {
    let ga = 0;
    let gb = 0;
    let haa = 1e-9;
    let hab = 0;
    let hbb = 1e-9;
    logits.forEach((z, i) => {
      const p = 1 / (1 + Math.exp(-(a * z + b)));
      const r = p - labels[i]!;
      const w = p * (1 - p);
      ga += r * z;
      gb += r;
      haa += w * z * z;
      hab += w * z;
      hbb += w;
    });
    const det = haa * hbb - hab * hab;
    const da = (hbb * ga - hab * gb) / det;
    const db = (haa * gb - hab * ga) / det;
    a -= da;
    b -= db;
    if (Math.abs(da) + Math.abs(db) < 1e-10) break;
  }
  return { scale: a, offset: b };
}

export interface DoubleDotTrainingConfig {
  id: string;
  size: number;
  hidden: number[];
  epochs: number;
  /** Ensemble members, trained with seeds seed, seed + 1, …. */
  members: number;
  seed: number;
  out: string;
  constName: string;
}

/** Trains one classifier on tuning seeds 1–9000, calibrates it on 9201–9999, and writes its weights module. */
export function trainDoubleDotClassifier(config: DoubleDotTrainingConfig): void {
  const started = performance.now();
  const elapsed = (): string => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  const set = doubleDotTrainingSet(config.size, tuningSeeds(TRAINING_SEED_COUNT));
  console.log(`${config.id}: ${set.count} training patches (${elapsed()})`);
  const members = Array.from({ length: config.members }, (_, m) =>
    trainDenseNetwork(set, {
      hidden: config.hidden,
      epochs: config.epochs,
      batch: 32,
      learningRate: 0.003,
      weightDecay: 1e-4,
      seed: config.seed + m,
      log: (message) => console.log(`member ${m + 1}/${config.members} ${message}`),
    }),
  );
  const calibrationSet = doubleDotPatchSet(config.size, tuningSeeds(CALIBRATION_SEED_COUNT, CALIBRATION_SEED_OFFSET));
  const packed = members.map(packNetwork);
  const ws = createDenseWorkspace(members[0]!.sizes);
  const logits = Float64Array.from({ length: calibrationSet.count }, (_, i) => {
    const x = calibrationSet.inputs.subarray(i * PATCH_FEATURE_COUNT, (i + 1) * PATCH_FEATURE_COUNT);
    return packed.reduce((z, net) => z + denseLogit(net, x, ws), 0) / packed.length;
  });
  const calibration = fitPlattScaling(logits, calibrationSet.labels);
  const round = (v: number): number => Number(v.toPrecision(6));
  calibration.scale = round(calibration.scale);
  calibration.offset = round(calibration.offset);
  const scores = (a: number, b: number): Float64Array => logits.map((z) => 1 / (1 + Math.exp(-(a * z + b))));
  const accuracy = (p: Float64Array): number => p.reduce((n, s, i) => n + (s > 0.5 === (calibrationSet.labels[i] === 1) ? 1 : 0), 0) / p.length;
  const raw = scores(1, 0);
  const calibrated = scores(calibration.scale, calibration.offset);
  console.log(
    `calibration seeds 9201–9999 (${calibrationSet.count} patches): Platt scale ${calibration.scale}, offset ${calibration.offset}; ` +
      `ECE ${expectedCalibrationError(raw, calibrationSet.labels).toFixed(4)} → ${expectedCalibrationError(calibrated, calibrationSet.labels).toFixed(4)}, ` +
      `accuracy ${accuracy(raw).toFixed(4)} → ${accuracy(calibrated).toFixed(4)}`,
  );
  const weights: DoubleDotNetworkWeights = { members, calibration };
  const header =
    `// Weights of ${config.id}, written by \`npm run train:${config.id}\` (scripts/train-${config.id}.ts): ` +
    `${config.members} network(s) ${JSON.stringify(config.hidden)} on features of ${config.size}×${config.size} patches from tuning seeds 1–${TRAINING_SEED_COUNT}, ` +
    `${config.epochs} epochs, seeds ${config.seed}–${config.seed + config.members - 1}; Platt-calibrated on tuning seeds 9201–9999.\n`;
  writeFileSync(
    config.out,
    `${header}import type { DoubleDotNetworkWeights } from '../double-dot-classifier.model.js';\n\nexport const ${config.constName}: DoubleDotNetworkWeights = ${JSON.stringify(weights)};\n`,
  );
  console.log(`wrote ${config.out} (${elapsed()})`);
}
