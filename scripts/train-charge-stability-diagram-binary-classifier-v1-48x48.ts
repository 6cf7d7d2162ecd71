// Trains charge-stability-diagram-binary-classifier-v1-48x48 (`npm run train:charge-stability-diagram-binary-classifier-v1-48x48`): see libs/characterization/src/charge-stability/training/.
import { trainDoubleDotClassifier } from '#qdc/characterization/training';

trainDoubleDotClassifier({
  id: 'charge-stability-diagram-binary-classifier-v1-48x48',
  size: 48,
  hidden: [16],
  epochs: 40,
  members: 5,
  seed: 4,
  out: 'libs/characterization/src/charge-stability/weights/charge-stability-diagram-binary-classifier-v1-48x48.weights.ts',
  constName: 'CLASSIFIER_V1_48X48_WEIGHTS',
});
