// Catalogue entries and public API of the Coulomb-blockade peak detectors (issue #2).
export { COULOMB_PEAK_ENTRIES } from './coulomb-peak.entries.js';
export { detectCoulombPeaksV0, type PeakDetection } from './coulomb-peak-detector-v0.model.js';
export { detectCoulombPeaksV1, detectCoulombPeaksMultiScale } from './coulomb-peak-detector-v1.model.js';
export { detectCoulombPeaksV1Mini } from './coulomb-peak-detector-v1-mini.model.js';
export {
  detectCoulombPeaksV2,
  createPeakDetectorV2Workspace,
  type PeakDetectorV2Workspace,
} from './coulomb-peak-detector-v2.model.js';
