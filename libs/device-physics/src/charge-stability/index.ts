// Simulators with exact labels for the charge-stability-diagram models (issue #4): double-dot classifiers, transition-line detectors, segmenter.
export {
  chargeState,
  chargingEnergiesFromCapacitances,
  electrostaticEnergy,
  gateCharges,
  newChargeState,
  type ChargeState,
  type DoubleDotElectrostatics,
} from './constant-interaction.js';
export {
  generateChargeStabilityDiagram,
  groundStateLabels,
  randomElectrostatics,
  familyAngleDegrees,
  MIN_FAMILY_ANGLE_DEGREES,
  classFromCrossings,
  FAMILY_MIN_FRACTION,
  CSD_SNR_RANGE,
  type ChargeStabilityClass,
  type ChargeStabilityReadout,
  type ChargeStabilityDiagram,
  type ChargeStabilityOptions,
  type NoDotScene,
  type TransitionKind,
  type TransitionSegment,
} from './charge-stability-diagram.generator.js';
