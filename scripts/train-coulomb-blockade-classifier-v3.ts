// `npm run train:coulomb-blockade-classifier-v3` — refits the v3 weights (see train-coulomb-blockade-classifier-common.ts).
import { blockadeFeaturesV3 } from '#qdc/characterization';
import { trainBlockadeClassifier } from './train-coulomb-blockade-classifier-common.js';

// L2 1e-4, chosen on validation tuning seeds outside the training range (1–3 000 and 9 001–9 999, 3 999 traces): errors
// 11 / 14 / 15 / 15 / 15 at L2 1e-4 / 1e-3 / 1e-2 / 0.1 / 1 (v2 at its 1e-3: 12). The held-out bench was not consulted.
trainBlockadeClassifier('coulomb-blockade-classifier-v3', blockadeFeaturesV3, 'BLOCKADE_V3_MODEL', 'coulomb-blockade-classifier-v3.weights.ts', 1e-4);
