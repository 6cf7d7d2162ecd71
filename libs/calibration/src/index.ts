export * from './calibration.types.js';
export { assessCalibration, validateSeries, keyParameterOf, MIN_SNR, MIN_R_SQUARED, type CalibrationResult } from './assess-calibration.js';
export { detectFamily, familyFromName, familyFromText, familyFromShape } from './family-detection.js';
export { levenbergMarquardt, type LeastSquaresFit, type ModelFunction } from './fit/levenberg-marquardt.js';
export { fitOscillation, fitExponentialDecay, fitLorentzian, fitDragLines, type FamilyFit } from './fit/family-fits.js';
