// Catalogue entries and public API of the Coulomb-diamond models (issue #5): segmenter and vertex detectors v0–v2.
import type { ModelEntry } from '../model-entry.js';
import { COULOMB_DIAMOND_MODEL_ENTRIES } from './coulomb-diamond.entries.js';

export { findBlockadeEdges, type BlockadeEdges, type DiamondReadoutGuess } from './blockade-edges.js';
export { segmentCoulombDiamonds, maskFromEdges, cleanedBlockadeEdges, type DiamondSegmentation } from './coulomb-diamond-segmenter.model.js';
export { diamondsFromMask, fitParallelogram, parallelogramVertices, type MaskDiamond } from './diamond-mask-vertices.js';
export {
  fitDiamondLattice,
  fitLatticeToEdges,
  latticeDiamond,
  latticeEdges,
  diamondChargingEnergy,
  type DiamondLattice,
  type LatticeFit,
} from './diamond-lattice-fit.js';
export { detectDiamondsInMask, detectDiamondsV1, detectDiamondsV2, type DiamondDetection, type DiamondDetectionV2 } from './coulomb-diamond-detectors.model.js';
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
} from './diamond-score.js';

export const COULOMB_DIAMOND_ENTRIES: readonly ModelEntry[] = COULOMB_DIAMOND_MODEL_ENTRIES;
