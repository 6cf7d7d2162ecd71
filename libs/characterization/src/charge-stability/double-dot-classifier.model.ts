// Double-dot patch classifiers (16×16 fast screen, 48×48 confirmation): "does this patch show two families of
// charge transitions with different slopes?" (van der Wiel et al., Rev. Mod. Phys. 75, 1 (2003), Fig. 6).
// Classical features (csd-patch-features.ts: plane removal, MAD noise, Sobel structure-tensor orientation
// histogram aligned to its strongest family, family masses, edge energy, jump share), then either a fixed
// two-family rule or a small trained network (dense-network.ts; weights in weights/*.ts, trained by
// scripts/train-<id>.ts on tuning seeds). The score is the network's probability.
import { createPatchWorkspace, PATCH_FEATURE, PATCH_FEATURE_COUNT, patchFeatures, type PatchWorkspace } from './csd-patch-features.js';
import { createDenseWorkspace, denseForward, packNetwork, type DenseNetworkWeights, type DenseWorkspace, type PackedNetwork } from './dense-network.js';

export interface DoubleDotClassification {
  classification: boolean;
  score: number;
}

/** Decision threshold on the network probability (the operating point). */
export const DOUBLE_DOT_THRESHOLD = 0.5;

export interface DoubleDotClassifier {
  rows: number;
  cols: number;
  features: PatchWorkspace;
  vector: Float64Array;
  net: PackedNetwork | null;
  dense: DenseWorkspace | null;
}

export function createDoubleDotClassifier(rows: number, cols: number, weights: DenseNetworkWeights | null): DoubleDotClassifier {
  const net = weights ? packNetwork(weights) : null;
  return { rows, cols, features: createPatchWorkspace(rows, cols), vector: new Float64Array(PATCH_FEATURE_COUNT), net, dense: weights ? createDenseWorkspace(weights.sizes) : null };
}

/** Rule thresholds of the network-free classifier (v0): second family mass and edge-energy floor, tuned on tuning seeds. */
export const RULE_SECOND_FAMILY_MASS = 0.1;
export const RULE_MIN_EDGE_FRACTION = 0.04;

/** Classifies the rows × cols block of `data` at `offset` with row stride `stride` (defaults: the whole array). */
export function classifyDoubleDotPatch(classifier: DoubleDotClassifier, data: Float64Array, offset = 0, stride = classifier.cols): DoubleDotClassification {
  const v = classifier.vector;
  patchFeatures(data, offset, stride, classifier.features, v);
  if (!classifier.net) {
    const second = v[PATCH_FEATURE.secondFamily]!;
    const edgeFraction = v[PATCH_FEATURE.edgeFraction]!;
    const score = Math.min(1, second / (2 * RULE_SECOND_FAMILY_MASS));
    const classification = second >= RULE_SECOND_FAMILY_MASS && edgeFraction >= RULE_MIN_EDGE_FRACTION;
    return { classification, score: classification ? Math.max(score, 0.5) : Math.min(score, 0.49) };
  }
  const score = denseForward(classifier.net, v, classifier.dense!);
  return { classification: score > DOUBLE_DOT_THRESHOLD, score };
}
