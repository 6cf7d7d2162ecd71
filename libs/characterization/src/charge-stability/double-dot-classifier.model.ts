// Double-dot patch classifiers (16×16 fast screen, 48×48 confirmation): "does this patch show two families of
// charge transitions with different slopes?" (van der Wiel et al., Rev. Mod. Phys. 75, 1 (2003), Fig. 6).
// Classical features (csd-patch-features.ts: plane removal, MAD noise, sensor-jump removal, Sobel structure-tensor
// orientation histogram aligned to its strongest family, family masses ≥ 30° and ≥ 15° apart, edge energy, jump
// share), then either a fixed two-family rule or small trained networks (dense-network.ts; weights in
// weights/*.ts, trained by scripts/train-<id>.ts on tuning seeds 1–9000). The score is the members' mean logit,
// Platt-scaled (Platt 1999) on calibration seeds 9201–9999, so it reads as a probability of a double dot.
import { createPatchWorkspace, PATCH_FEATURE, PATCH_FEATURE_COUNT, patchFeatures, type PatchWorkspace } from './csd-patch-features.js';
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
  dense: DenseWorkspace | null;
}

export function createDoubleDotClassifier(rows: number, cols: number, weights: DoubleDotNetworkWeights | null): DoubleDotClassifier {
  const members = weights ? weights.members.map(packNetwork) : [];
  return {
    rows,
    cols,
    features: createPatchWorkspace(rows, cols),
    vector: new Float64Array(PATCH_FEATURE_COUNT),
    members,
    calibration: weights?.calibration ?? { scale: 1, offset: 0 },
    dense: weights ? createDenseWorkspace(weights.members[0]!.sizes) : null,
  };
}

/**
 * Rule of the network-free classifier (v0), thresholds grid-searched on tuning seeds 1–3000 (16×16): the strongest
 * family carries at most RULE_MAX_FIRST_FAMILY_MASS of the edge energy, a second family ≥ 15° from it at least
 * RULE_SECOND_FAMILY_MASS, and edges cover at least RULE_MIN_EDGE_FRACTION of the interior pixels (a honeycomb has
 * about twice the lines of one family; noise edges are sparse after the 2.5 σ threshold).
 */
export const RULE_MAX_FIRST_FAMILY_MASS = 0.6;
export const RULE_SECOND_FAMILY_MASS = 0.04;
export const RULE_MIN_EDGE_FRACTION = 0.54;

/** Mean member logit of the patch features in classifier.vector. */
function meanLogit(classifier: DoubleDotClassifier): number {
  let z = 0;
  for (const net of classifier.members) z += denseLogit(net, classifier.vector, classifier.dense!);
  return z / classifier.members.length;
}

/** Classifies the rows × cols block of `data` at `offset` with row stride `stride` (defaults: the whole array). */
export function classifyDoubleDotPatch(classifier: DoubleDotClassifier, data: Float64Array, offset = 0, stride = classifier.cols): DoubleDotClassification {
  const v = classifier.vector;
  patchFeatures(data, offset, stride, classifier.features, v);
  if (classifier.members.length === 0) {
    const first = v[PATCH_FEATURE.firstFamily]!;
    const second = v[PATCH_FEATURE.nearSecondFamily]!;
    const edgeFraction = v[PATCH_FEATURE.edgeFraction]!;
    const classification = first <= RULE_MAX_FIRST_FAMILY_MASS && second >= RULE_SECOND_FAMILY_MASS && edgeFraction >= RULE_MIN_EDGE_FRACTION;
    // Not a probability: the edge fraction relative to its threshold, clamped to the side of the decision.
    const score = Math.min(1, (0.5 * edgeFraction) / RULE_MIN_EDGE_FRACTION);
    return { classification, score: classification ? Math.max(score, 0.5) : Math.min(score, 0.49) };
  }
  const { scale, offset: bias } = classifier.calibration;
  const score = 1 / (1 + Math.exp(-(scale * meanLogit(classifier) + bias)));
  return { classification: score > DOUBLE_DOT_THRESHOLD, score };
}
