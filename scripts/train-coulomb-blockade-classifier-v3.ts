// `npm run train:coulomb-blockade-classifier-v3` — refits the v3 weights (see train-coulomb-blockade-classifier-common.ts).
import { blockadeFeaturesV3 } from '#qdc/characterization';
import { trainBlockadeClassifier } from './train-coulomb-blockade-classifier-common.js';

trainBlockadeClassifier('coulomb-blockade-classifier-v3', blockadeFeaturesV3, 'BLOCKADE_V3_MODEL', 'coulomb-blockade-classifier-v3.weights.ts');
