// Catalogue entries and public API of the electron-unloading models (issue #5): unload (sensor-step) detector and
// texture-cluster detector on (101, 51) plunger × time|barrier charge-sensor maps.
export { ELECTRON_UNLOADING_ENTRIES } from './electron-unloading.entries.js';
export { detectElectronUnloads, columnAverage, stepResponse, pixelNoise, type UnloadDetection } from './electron-unload-detector.model.js';
export {
  detectTextureClusters,
  textureFeatures,
  textureKinds,
  TEXTURE_KIND_NAMES,
  type TextureCluster,
  type TextureDetection,
  type TextureKindName,
} from './electron-unload-texture.model.js';
