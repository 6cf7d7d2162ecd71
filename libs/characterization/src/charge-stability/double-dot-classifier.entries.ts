// Catalogue entries of the double-dot patch classifiers (issue #4): the six versions with their weights, and the
// listed ones (held-out accuracy ≥ 0.97). Plot: the patch as a heatmap, boxed when it shows a double dot.
import { LruCache } from '#qdc/collections';
import { requireShape, type ArrayModelEntry, type ModelInput, type PlotOptions } from '../model-entry.js';
import { renderHeatmapSvg } from '../plot/heatmap.svg.js';
import { classifyDoubleDotPatch, createDoubleDotClassifier, type DoubleDotClassifier, type DoubleDotNetworkWeights } from './double-dot-classifier.model.js';
import { CLASSIFIER_V0_16X16_WEIGHTS } from './weights/charge-stability-diagram-binary-classifier-v0-16x16.weights.js';
import { CLASSIFIER_V1_16X16_WEIGHTS } from './weights/charge-stability-diagram-binary-classifier-v1-16x16.weights.js';
import { CLASSIFIER_V2_16X16_WEIGHTS } from './weights/charge-stability-diagram-binary-classifier-v2-16x16.weights.js';
import { CLASSIFIER_V3_16X16_WEIGHTS } from './weights/charge-stability-diagram-binary-classifier-v3-16x16.weights.js';
import { CLASSIFIER_V0_48X48_WEIGHTS } from './weights/charge-stability-diagram-binary-classifier-v0-48x48.weights.js';
import { CLASSIFIER_V1_48X48_WEIGHTS } from './weights/charge-stability-diagram-binary-classifier-v1-48x48.weights.js';

interface ClassifierVersion {
  id: string;
  size: number;
  weights: DoubleDotNetworkWeights;
  name: string;
  method: string;
  released: string;
}

const FEATURES =
  'plane removal, MAD noise, removal of up to 3 sensor charge jumps (steps in acquisition order), Sobel structure-tensor orientation histogram of the transitions (Bigün & Granlund 1987) aligned to the strongest family';
const CALIBRATED = 'score = probability of a double dot, Platt-calibrated on tuning seeds 9201–9999';

export const DOUBLE_DOT_CLASSIFIER_VERSIONS: readonly ClassifierVersion[] = [
  {
    id: 'charge-stability-diagram-binary-classifier-v0-16x16',
    size: 16,
    weights: CLASSIFIER_V0_16X16_WEIGHTS,
    name: 'Double-dot patch classifier v0 (16×16)',
    method: `Smallest version: a network of 4 ReLU (265 parameters, half of v1's 529; slightly less accurate than v1) on the v1 features (${FEATURES}); ${CALIBRATED}. Replaces a hand rule on the same features (held-out accuracy 0.925).`,
    released: '2023-06-01T00:00:00Z',
  },
  {
    id: 'charge-stability-diagram-binary-classifier-v1-16x16',
    size: 16,
    weights: CLASSIFIER_V1_16X16_WEIGHTS,
    name: 'Double-dot patch classifier v1 (16×16)',
    method: `Small network (8 ReLU) on ${FEATURES}, plus family masses (second family ≥ 30° and ≥ 15° away), edge energy and a fast-axis jump share; ${CALIBRATED}.`,
    released: '2024-01-15T00:00:00Z',
  },
  {
    id: 'charge-stability-diagram-binary-classifier-v2-16x16',
    size: 16,
    weights: CLASSIFIER_V2_16X16_WEIGHTS,
    name: 'Double-dot patch classifier v2 (16×16)',
    method: `Ensemble of three 16-ReLU networks (different training seeds, mean logit) on the v1 features (${FEATURES}); ${CALIBRATED}.`,
    released: '2024-09-01T00:00:00Z',
  },
  {
    id: 'charge-stability-diagram-binary-classifier-v3-16x16',
    size: 16,
    weights: CLASSIFIER_V3_16X16_WEIGHTS,
    name: 'Double-dot patch classifier v3 (16×16)',
    method: `Ensemble of five 16-ReLU networks (different training seeds, mean logit: less dependent on one training run than v2's three) on the v1 features (${FEATURES}); ${CALIBRATED}.`,
    released: '2025-03-01T00:00:00Z',
  },
  {
    id: 'charge-stability-diagram-binary-classifier-v0-48x48',
    size: 48,
    weights: CLASSIFIER_V0_48X48_WEIGHTS,
    name: 'Double-dot patch classifier v0 (48×48)',
    method: `Confirmation stage: one-hidden-layer network (16 ReLU) on ${FEATURES}, computed on the whole 48×48 patch; ${CALIBRATED}.`,
    released: '2024-01-15T00:00:00Z',
  },
  {
    id: 'charge-stability-diagram-binary-classifier-v1-48x48',
    size: 48,
    weights: CLASSIFIER_V1_48X48_WEIGHTS,
    name: 'Double-dot patch classifier v1 (48×48)',
    method: `Confirmation stage: ensemble of five 16-ReLU networks (different training seeds, mean logit) on ${FEATURES}, computed on the whole 48×48 patch; ${CALIBRATED}.`,
    released: '2025-03-01T00:00:00Z',
  },
];

/**
 * One classifier per version, made on first use (building one unpacks its weights) and kept: each holds pure scratch
 * that every call overwrites, so results never depend on earlier calls. The bound is the number of versions, so
 * nothing is ever evicted and the memory is fixed (six small networks).
 */
const CLASSIFIERS = new LruCache<string, DoubleDotClassifier>(DOUBLE_DOT_CLASSIFIER_VERSIONS.length);

export function doubleDotClassifier(id: string): DoubleDotClassifier {
  return CLASSIFIERS.getOrCreate(id, () => {
    const version = DOUBLE_DOT_CLASSIFIER_VERSIONS.find((v) => v.id === id);
    if (!version) throw new Error(`unknown double-dot classifier ${id}`);
    return createDoubleDotClassifier(version.size, version.size, version.weights);
  });
}

function classifierPlot(input: ModelInput, output: Record<string, unknown>, options: PlotOptions, id: string): string {
  const [rows, cols] = input.shape as [number, number];
  const yes = output['classification'] === true;
  const score = typeof output['score'] === 'number' ? ` (score ${(output['score'] as number).toFixed(2)})` : '';
  return renderHeatmapSvg({
    title: id,
    rows,
    cols,
    values: input.data,
    boxes: yes ? [{ x: -0.5, y: -0.5, width: cols, height: rows, label: 'double dot' }] : [],
    legend: `double dot: ${yes ? 'yes' : 'no'}${score}`,
    darkMode: options.darkMode,
  });
}

function classifierEntry(version: ClassifierVersion): ArrayModelEntry {
  const what = `a (${version.size}, ${version.size}) charge stability diagram patch`;
  return {
    kind: 'array',
    spec: {
      id: version.id,
      name: version.name,
      description: `True if the patch shows double-dot behaviour (two families of charge transitions with different slopes). ${version.method} Output: classification, score ∈ [0, 1].`,
      released: version.released,
      inputShapeRequirements: `(${version.size}, ${version.size}): a 2-D gate–gate map (sensor signal or current), any units`,
      nnInputShapeRequirements: null,
      nnOutputShapeRequirements: null,
      batch: false,
    },
    run: (input) => {
      requireShape(input, [version.size, version.size], what);
      const result = classifyDoubleDotPatch(doubleDotClassifier(version.id), input.data);
      return { classification: result.classification, score: Math.round(result.score * 1e4) / 1e4 };
    },
    plot: (input, output, options) => classifierPlot(input, output, options, version.id),
  };
}

/**
 * Listed ids: the versions with accuracy ≥ 0.97 on the held-out benchmark (BENCHMARK_SEEDS, N = 4000 at 16×16,
 * 500 at 48×48; docs/models/charge-stability.md): v0-16x16 (4 ReLU, 0.974), v1–v3-16x16 (0.978–0.980) and
 * v0/v1-48x48 (0.980, 0.986).
 */
export const LISTED_CLASSIFIER_IDS: readonly string[] = [
  'charge-stability-diagram-binary-classifier-v0-16x16',
  'charge-stability-diagram-binary-classifier-v1-16x16',
  'charge-stability-diagram-binary-classifier-v2-16x16',
  'charge-stability-diagram-binary-classifier-v3-16x16',
  'charge-stability-diagram-binary-classifier-v0-48x48',
  'charge-stability-diagram-binary-classifier-v1-48x48',
];

export const CLASSIFIER_ENTRIES: readonly ArrayModelEntry[] = DOUBLE_DOT_CLASSIFIER_VERSIONS.filter((v) => LISTED_CLASSIFIER_IDS.includes(v.id)).map(
  classifierEntry,
);
