export { createSeededRandom, deriveSeed, type SeededRandom } from './seeded-random.js';
export { TUNING_SEEDS, BENCHMARK_SEEDS, tuningSeeds, benchmarkSeeds } from './seeds.js';
export { whiteNoise, pinkNoise, telegraphNoise, mixedNoise, standardDeviation, type NoiseMix } from './measurement-noise.js';
export {
  generateCoulombPeakTrace,
  COULOMB_TRACE_LENGTHS,
  SNR_MIN,
  SNR_MAX,
  FAINT_PEAK_SNR,
  FWHM_PER_THERMAL_WIDTH,
  EDGE_DONT_CARE_SAMPLES,
  type CoulombTraceKind,
  type CoulombPeakTraceOptions,
  type CoulombPeakTrace,
} from './coulomb-peak-trace.generator.js';
export {
  generateResonatorNotchTrace,
  RESONATOR_TRACE_LENGTHS,
  RESONATOR_SNR_MIN,
  RESONATOR_SNR_MAX,
  type MagnitudeFormat,
  type ResonatorDip,
  type ResonatorNotchTraceOptions,
  type ResonatorNotchTrace,
} from './resonator-notch-trace.generator.js';
export {
  generateRealisticResonatorTrace,
  kerrPulledDetuning,
  resonanceFactor,
  REALISTIC_RESONATOR_SNR_MIN,
  REALISTIC_RESONATOR_SNR_MAX,
  REALISTIC_RESONATOR_MIN_LENGTH,
  REALISTIC_RESONATOR_MAX_LENGTH,
  REALISTIC_MAX_FANO_RAD,
  type ResonatorMode,
  type FrequencyGrid,
  type RealisticResonatorDip,
  type RealisticResonatorTrace,
  type RealisticResonatorTraceOptions,
} from './resonator-trace.generator.js';
export * from './one-d/index.js';
export * from './charge-stability/index.js';
export * from './coulomb-diamonds/index.js';
export * from './anticrossings/index.js';
export * from './electron-unloading/index.js';
export {
  generateCalibrationTrace,
  CALIBRATION_TRACE_FAMILIES,
  type CalibrationTrace,
  type CalibrationTraceFamily,
  type CalibrationTraceOptions,
} from './calibration/calibration-trace.generator.js';
export { generateLabCalibrationTrace, type LabCalibrationTrace } from './calibration/lab-calibration-trace.generator.js';
export {
  generateCoulombEdgeTrace,
  EDGE_TRACE_SNR_RANGE,
  EDGE_TRACE_FWHM_RANGE,
  EDGE_PEAK_MAX_OFFSET_SAMPLES,
  type CoulombEdgeTraceKind,
  type CoulombEdgeTraceOptions,
  type CoulombEdgeTrace,
} from './coulomb-edge-trace.generator.js';
export {
  generateRepeatedDipSweep,
  REPEATED_DIP_FAINT_FRACTION,
  REPEATED_DIP_FAINT_RANGE,
  REPEATED_DIP_MAX_DEPTH_SIGMA,
  type RepeatedDipSweep,
  type RepeatedDipRow,
  type RepeatedDipSweepOptions,
} from './resonator-repeated-sweep.generator.js';
