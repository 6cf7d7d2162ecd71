// Simulator with exact labels for the anticrossing detector (issue #5): resonator-vs-flux spectroscopy of a transmon.
export {
  generateAnticrossingSpectroscopy,
  dressedModes,
  ANTICROSSING_FREQUENCY_ROWS,
  ANTICROSSING_FLUX_COLUMNS,
  ANTICROSSING_EDGE_COLUMNS,
  COUPLING_ROWS,
  RESONATOR_LINEWIDTH_ROWS,
  ANTICROSSING_SNR,
  type AnticrossingSceneKind,
  type AnticrossingLabel,
  type AnticrossingSpectroscopyOptions,
  type AnticrossingSpectroscopy,
} from './anticrossing-spectroscopy.generator.js';
export {
  generateCavityAnticrossingMap,
  CAVITY_ANTICROSSING_KINDS,
  CAVITY_ANTICROSSING_EDGE_COLUMNS,
  CAVITY_ANTICROSSING_SNR,
  type CavityAnticrossingKind,
  type CavityAnticrossingMap,
  type CavityAnticrossingOptions,
} from './cavity-transmission-anticrossing.generator.js';
