// Simulator with exact labels for the electron-unloading models (issue #5): charge-sensor maps of a dot being emptied.
export {
  generateElectronUnloadingMap,
  transitionRowAt,
  UNLOAD_PLUNGER_ROWS,
  UNLOAD_AXIS1_COLUMNS,
  UNLOAD_MAX_TRANSITIONS,
  UNLOAD_MIN_SEPARATION_ROWS,
  UNLOAD_EDGE_ROWS,
  UNLOAD_SNR,
  STEP_BAND_ROWS,
  TEXTURE_KINDS,
  type TextureKind,
  type UnloadTransition,
  type ElectronUnloadingOptions,
  type ElectronUnloadingMap,
} from './electron-unloading-map.generator.js';
