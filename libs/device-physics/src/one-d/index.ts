// Simulators with exact labels for the 1-D characterization models (issue #3): Coulomb-blockade classifiers, pinch-off and turn-on classifiers and extractors.
export {
  GATE_SWEEP_SNR_MIN,
  GATE_SWEEP_SNR_MAX,
  MAX_OFFSET_PER_SWING,
  measureGateSweep,
  drawGateSweepNoiseMix,
  type GateSweepMeasurement,
} from './gate-sweep-measurement.js';
export {
  generatePinchOffTrace,
  PINCH_OFF_TRACE_LENGTH,
  PINCH_OFF_NEGATIVE_KINDS,
  TANH_KNEE_U,
  PLATEAU_TANH,
  PLATEAU_MIN_FRACTION,
  type PinchOffTraceKind,
  type PinchOffTraceOptions,
  type PinchOffTrace,
} from './pinch-off-trace.generator.js';
export {
  generateTurnOnTrace,
  turnOnThresholdIndex,
  TURN_ON_TRACE_LENGTH,
  TURN_ON_THRESHOLD_FRACTION,
  TURN_ON_NEGATIVE_KINDS,
  type TurnOnTraceKind,
  type TurnOnTraceOptions,
  type TurnOnTrace,
} from './turn-on-trace.generator.js';
export {
  generateCoulombBlockadeTrace,
  BLOCKADE_TRACE_LENGTHS,
  BLOCKADE_PEAK_SNR,
  BLOCKADE_NEGATIVE_KINDS,
  type CoulombBlockadeTraceKind,
  type CoulombBlockadeTraceOptions,
  type CoulombBlockadeTrace,
} from './coulomb-blockade-trace.generator.js';
export { generateOnsetTurnOnTrace, type OnsetShape, type OnsetTurnOnOptions, type OnsetTurnOnTrace } from './onset-turn-on.generator.js';
export {
  generateOffsetPinchOffTrace,
  OFFSET_PINCH_OFF_LENGTH_RANGE,
  OFFSET_PINCH_OFF_OFFSET_RANGE,
  type OffsetPinchOffKind,
  type OffsetPinchOffTrace,
} from './offset-pinch-off.generator.js';
