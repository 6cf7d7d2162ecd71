// Catalogue entries and public API of the charge-stability-diagram models (issue #4): double-dot classifiers.
// (The transition-line detector and the segmenter are prototypes that do not yet meet their targets; they are
// exported for the benchmark but not listed in the catalogue.)
import { requireShape, type ArrayModelEntry, type ModelEntry, type ModelInput, type PlotOptions } from '../model-entry.js';
import { renderHeatmapSvg } from '../plot/heatmap.svg.js';
import { classifyDoubleDotPatch, createDoubleDotClassifier, type DoubleDotClassifier } from './double-dot-classifier.model.js';
import type { DenseNetworkWeights } from './dense-network.js';
import { CLASSIFIER_V1_16X16_WEIGHTS } from './weights/charge-stability-diagram-binary-classifier-v1-16x16.weights.js';
import { CLASSIFIER_V2_16X16_WEIGHTS } from './weights/charge-stability-diagram-binary-classifier-v2-16x16.weights.js';
import { CLASSIFIER_V3_16X16_WEIGHTS } from './weights/charge-stability-diagram-binary-classifier-v3-16x16.weights.js';
import { CLASSIFIER_V0_48X48_WEIGHTS } from './weights/charge-stability-diagram-binary-classifier-v0-48x48.weights.js';
import { CLASSIFIER_V1_48X48_WEIGHTS } from './weights/charge-stability-diagram-binary-classifier-v1-48x48.weights.js';

export { classifyDoubleDotPatch, createDoubleDotClassifier, DOUBLE_DOT_THRESHOLD, type DoubleDotClassification, type DoubleDotClassifier } from './double-dot-classifier.model.js';
export { patchFeatures, createPatchWorkspace, PATCH_FEATURE_COUNT, ORIENTATION_BINS } from './csd-patch-features.js';
export { detectTransitionLines, lineEvidence, TRANSITION_LINE_DEFAULTS, type Segment, type TransitionLineOptions } from './transition-line-detector.model.js';
export { countLineMatches, lineF1, LINE_MATCH_PX, LINE_MATCH_DEGREES, MIN_TRUTH_LENGTH, type LineCounts, type TruthSegment } from './transition-line-score.js';
export { TRANSITION_DETECTOR_VERSIONS, transitionLineSegments, type TransitionDetectorVersion } from './transition-detector.versions.js';
export { TRANSITION_ENTRIES, LISTED_TRANSITION_IDS, transitionDetectorEntry } from './transition-detector.entries.js';
import { TRANSITION_ENTRIES } from './transition-detector.entries.js';

interface ClassifierVersion {
  id: string;
  size: number;
  weights: DenseNetworkWeights | null;
  name: string;
  method: string;
  released: string;
}

const FEATURES =
  'plane removal, MAD noise, Sobel structure-tensor orientation histogram of the transitions (Bigün & Granlund 1987) aligned to the strongest family';

export const DOUBLE_DOT_CLASSIFIER_VERSIONS: readonly ClassifierVersion[] = [
  {
    id: 'charge-stability-diagram-binary-classifier-v0-16x16',
    size: 16,
    weights: null,
    name: 'Double-dot patch classifier v0 (16×16)',
    method: `Classical rule: ${FEATURES}; double dot when a second transition family ≥ 30° from the first carries ≥ 10 % of the edge energy.`,
    released: '2023-06-01T00:00:00Z',
  },
  {
    id: 'charge-stability-diagram-binary-classifier-v1-16x16',
    size: 16,
    weights: CLASSIFIER_V1_16X16_WEIGHTS,
    name: 'Double-dot patch classifier v1 (16×16)',
    method: `Logistic regression on ${FEATURES}, plus family masses, edge energy and a fast-axis jump share.`,
    released: '2024-01-15T00:00:00Z',
  },
  {
    id: 'charge-stability-diagram-binary-classifier-v2-16x16',
    size: 16,
    weights: CLASSIFIER_V2_16X16_WEIGHTS,
    name: 'Double-dot patch classifier v2 (16×16)',
    method: `One-hidden-layer network (16 ReLU) on the v1 features (${FEATURES}).`,
    released: '2024-09-01T00:00:00Z',
  },
  {
    id: 'charge-stability-diagram-binary-classifier-v3-16x16',
    size: 16,
    weights: CLASSIFIER_V3_16X16_WEIGHTS,
    name: 'Double-dot patch classifier v3 (16×16)',
    method: `Two-hidden-layer network (32–16 ReLU) on the v1 features (${FEATURES}); score = probability of a double dot.`,
    released: '2025-03-01T00:00:00Z',
  },
  {
    id: 'charge-stability-diagram-binary-classifier-v0-48x48',
    size: 48,
    weights: CLASSIFIER_V0_48X48_WEIGHTS,
    name: 'Double-dot patch classifier v0 (48×48)',
    method: `Confirmation stage: one-hidden-layer network (16 ReLU) on ${FEATURES}, computed on the whole 48×48 patch.`,
    released: '2024-01-15T00:00:00Z',
  },
  {
    id: 'charge-stability-diagram-binary-classifier-v1-48x48',
    size: 48,
    weights: CLASSIFIER_V1_48X48_WEIGHTS,
    name: 'Double-dot patch classifier v1 (48×48)',
    method: `Confirmation stage: two-hidden-layer network (32–16 ReLU) on ${FEATURES}; score = probability of a double dot.`,
    released: '2025-03-01T00:00:00Z',
  },
];

/** Per-version scratch (pure workspace: every call overwrites what it reads). */
const CLASSIFIERS = new Map<string, DoubleDotClassifier>();

export function doubleDotClassifier(id: string): DoubleDotClassifier {
  let classifier = CLASSIFIERS.get(id);
  if (!classifier) {
    const version = DOUBLE_DOT_CLASSIFIER_VERSIONS.find((v) => v.id === id);
    if (!version) throw new Error(`unknown double-dot classifier ${id}`);
    classifier = createDoubleDotClassifier(version.size, version.size, version.weights);
    CLASSIFIERS.set(id, classifier);
  }
  return classifier;
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
 * Listed ids. None reaches the 0.97 accuracy target on the held-out benchmark (N = 1000 / 500); these three are
 * 0.2–0.3 points short, at the level of the best published simulated-data CNN (~0.966), and are listed as useful
 * with that stated. v0-16x16 (rule, 0.65), v1-16x16 (logistic, 0.95) and v3-16x16 (scores below v2) stay unlisted.
 */
export const LISTED_CLASSIFIER_IDS: readonly string[] = [
  'charge-stability-diagram-binary-classifier-v2-16x16',
  'charge-stability-diagram-binary-classifier-v0-48x48',
  'charge-stability-diagram-binary-classifier-v1-48x48',
];

export const CHARGE_STABILITY_ENTRIES: readonly ModelEntry[] = [...DOUBLE_DOT_CLASSIFIER_VERSIONS.filter((v) => LISTED_CLASSIFIER_IDS.includes(v.id)).map(classifierEntry), ...TRANSITION_ENTRIES];
