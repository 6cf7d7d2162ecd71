// Simulators with exact labels for the Coulomb-diamond models (issue #5).
export {
  generateCoulombDiamondMap,
  DIAMOND_SNR_RANGE,
  DIAMOND_SLOPE_RANGE,
  LEAK_FRACTION,
  type CoulombDiamondLabel,
  type CoulombDiamondMap,
  type CoulombDiamondOptions,
  type DiamondReadout,
  type DiamondVertex,
} from './coulomb-diamond-map.generator.js';
export {
  generateRealisticDiamondMap,
  REALISTIC_DIAMOND_SNR_RANGE,
  VISIBLE_FRACTION,
  type RealisticDiamondMap,
  type RealisticDiamondOptions,
} from './realistic-diamond-map.generator.js';
