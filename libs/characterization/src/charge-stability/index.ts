// Catalogue entries and public API of the charge-stability-diagram models (issue #4). Listed: the double-dot
// classifiers that meet the 0.97 target, the transition-line detectors v0–v3 (F1 ≥ 0.90) and the region segmenter
// (held-out mean IoU ≥ 0.90). Scoring (line matches, region IoU) is in `#qdc/characterization/evaluation`.
export { CHARGE_STABILITY_ENTRIES } from './charge-stability.entries.js';
export {
  classifyDoubleDotPatch,
  createDoubleDotClassifier,
  DOUBLE_DOT_THRESHOLD,
  type DoubleDotClassification,
  type DoubleDotClassifier,
} from './double-dot-classifier.model.js';
export { DOUBLE_DOT_CLASSIFIER_VERSIONS, LISTED_CLASSIFIER_IDS, doubleDotClassifier } from './double-dot-classifier.entries.js';
export { patchFeatures, createPatchWorkspace, PATCH_FEATURE_COUNT, ORIENTATION_BINS } from './csd-patch-features.js';
export type { Segment } from './transition-line-score.js';
export { SEGMENTER_ENTRIES } from './segmenter.entries.js';
export { segmentChargeRegions, CHARGE_REGION_DEFAULTS, type ChargeRegionOptions, type ChargeRegionSegmentation } from './charge-region-segmenter.model.js';
export { boundaryEvidence } from './charge-region-evidence.js';
export { TRANSITION_DETECTOR_VERSIONS, transitionLineSegments, type TransitionDetectorVersion } from './transition-detector.versions.js';
export { TRANSITION_ENTRIES, LISTED_TRANSITION_IDS, transitionDetectorEntry } from './transition-detector.entries.js';
