// Double-dot patch classifiers (16×16 fast screen, 48×48 confirmation): "does this patch show two families of
// charge transitions with different slopes?" (van der Wiel et al., Rev. Mod. Phys. 75, 1 (2003), Fig. 6).
// Classical features (csd-patch-features.ts: plane removal, MAD noise, sensor-jump removal, Sobel structure-tensor
// orientation histogram aligned to its strongest family, family masses ≥ 30° and ≥ 15° apart, edge energy, jump
// share), then small trained networks (dense-network.ts; weights in weights/*.ts, trained by
// scripts/train-<id>.ts on tuning seeds 1–9000). The score is the members' mean logit,
// Platt-scaled (Platt 1999) on calibration seeds 9201–9999, so it reads as a probability of a double dot.
import { createPatchWorkspace, PATCH_FEATURE_COUNT, patchFeatures, type PatchWorkspace } from './csd-patch-features.js';
import { createDenseWorkspace, denseLogit, packNetwork, type DenseNetworkWeights, type DenseWorkspace, type PackedNetwork } from './dense-network.js';

export interface DoubleDotClassification {
  classification: boolean;
  score: number;
}

/** Decision threshold on the calibrated probability (the operating point). */
export const DOUBLE_DOT_THRESHOLD = 0.5;

/** Trained networks of one classifier version. */
export interface DoubleDotNetworkWeights {
  /** Networks of one architecture differing only in their training seed (an ensemble of one or more). */
  members: DenseNetworkWeights[];
  /** Platt scaling of the members' mean logit z̄: score = 1 / (1 + exp(−(scale·z̄ + offset))). */
  calibration: { scale: number; offset: number };
}

export interface DoubleDotClassifier {
  rows: number;
  cols: number;
  features: PatchWorkspace;
  vector: Float64Array;
  members: PackedNetwork[];
  calibration: { scale: number; offset: number };
  dense: DenseWorkspace;
}

export function createDoubleDotClassifier(rows: number, cols: number, weights: DoubleDotNetworkWeights): DoubleDotClassifier {
  return {
    rows,
    cols,
    features: createPatchWorkspace(rows, cols),
    vector: new Float64Array(PATCH_FEATURE_COUNT),
    members: weights.members.map(packNetwork),
    calibration: weights.calibration,
    dense: createDenseWorkspace(weights.members[0]!.sizes),
  };
}

/** Mean member logit of the patch features in classifier.vector. */
function meanLogit(classifier: DoubleDotClassifier): number {
  let z = 0;
  for (const net of classifier.members) z += denseLogit(net, classifier.vector, classifier.dense);
  return z / classifier.members.length;
}

/** Classifies the rows × cols block of `data` at `offset` with row stride `stride` (defaults: the whole array). */
export function classifyDoubleDotPatch(classifier: DoubleDotClassifier, data: Float64Array, offset = 0, stride = classifier.cols): DoubleDotClassification {
  const v = classifier.vector;
  patchFeatures(data, offset, stride, classifier.features, v);
  const { scale, offset: bias } = classifier.calibration;
  const score = 1 / (1 + Math.exp(-(scale * meanLogit(classifier) + bias)));
  return { classification: score > DOUBLE_DOT_THRESHOLD, score };
}
