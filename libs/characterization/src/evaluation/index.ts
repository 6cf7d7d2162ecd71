// Scoring of the characterization models against simulator ground truth (`#qdc/characterization/evaluation`):
// shared by the specs, `npm run bench:accuracy` and the tuning scripts, so they all measure the same thing; not
// part of the public barrel that services import.
export { countDetections, addDetectionCounts, scoreDetections, type DetectionCounts, type DetectionScore, type DetectionTruth } from './detection-score.js';
export {
  scoreCoulombPeakDetector,
  scoreCoulombEdgeDetector,
  scoreResonatorDipFinder,
  PEAK_MATCH_TOLERANCE_SAMPLES,
  type TraceDetector,
  type PerSeed,
} from './synthetic-scores.js';
export {
  countLineMatches,
  lineF1,
  isCountedTruth,
  LINE_MATCH_PX,
  LINE_MATCH_DEGREES,
  MIN_TRUTH_LENGTH,
  MIN_TRUTH_VISIBILITY,
  type LineCounts,
  type TruthSegment,
} from '../charge-stability/transition-line-score.js';
export { regionIoUs, meanRegionIoU, MIN_TRUTH_REGION_AREA } from '../charge-stability/charge-region-score.js';
export { kindMapOf, addTextureIou, textureIouScore, emptyTextureIouCounts, type TextureIouCounts } from '../electron-unloading/texture-score.js';
export {
  countAnticrossingMatches,
  anticrossingScore,
  emptyAnticrossingCounts,
  ANTICROSSING_MATCH_PX,
  type AnticrossingCounts,
  type CrossingPoint,
} from '../anticrossings/anticrossing-score.js';
export {
  countDiamondMatches,
  addDiamondCounts,
  emptyDiamondCounts,
  diamondF1,
  maskIoU,
  DIAMOND_MATCH_PX,
  type DiamondCounts,
  type DiamondVertices,
  type TrueDiamond,
  type Vertex,
} from '../coulomb-diamonds/diamond-score.js';
export { findPeaksLorentzianDip, resonatorToolsNotchDip, FIND_PEAKS_PROMINENCE_SIGMA } from '../resonators/resonator-peer-baselines.js';
