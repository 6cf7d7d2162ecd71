// `npm run train:coulomb-blockade-classifier-v2` — refits the v2 weights (see train-coulomb-blockade-classifier-common.ts).
import { blockadeFeaturesV2 } from '#qdc/characterization';
import { trainBlockadeClassifier } from './train-coulomb-blockade-classifier-common.js';

trainBlockadeClassifier('coulomb-blockade-classifier-v2', blockadeFeaturesV2, 'BLOCKADE_V2_MODEL', 'coulomb-blockade-classifier-v2.weights.ts');
