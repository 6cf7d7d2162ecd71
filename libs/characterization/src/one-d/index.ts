// Catalogue entries and public API of the 1-D characterization models (issue #3): Coulomb-blockade classifiers, pinch-off and turn-on classifiers and extractors.
import type { ModelEntry } from '../model-entry.js';
import { ONE_D_MODEL_ENTRIES } from './one-d.entries.js';

export { fitTanhStep, type TanhStepFit } from './tanh-step-fit.js';
export { analyseGateSweep, type GateSweepAnalysis } from './gate-sweep-analysis.js';
export { fitPinchOff, classifyPinchOff, extractPinchOffParameters, type PinchOffFit } from './pinch-off.model.js';
export { fitTurnOn, classifyTurnOn, extractTurnOnThreshold, type TurnOnFit } from './turn-on.model.js';
export { trainLogisticRegression, logisticScore, type LogisticModel } from './logistic-regression.js';
export { blockadeFeaturesV2, blockadeFeaturesV3, peakStatistics, noiseSigma, type PeakStatistics } from './blockade-features.js';
export {
  classifyCoulombBlockadeV0,
  classifyCoulombBlockadeV1,
  classifyCoulombBlockadeV2,
  classifyCoulombBlockadeV3,
} from './coulomb-blockade-classifiers.model.js';

export const ONE_D_ENTRIES: readonly ModelEntry[] = ONE_D_MODEL_ENTRIES;
