// Trains charge-stability-diagram-binary-classifier-v3-16x16 (`npm run train:charge-stability-diagram-binary-classifier-v3-16x16`): see libs/characterization/src/charge-stability/training/.
import { trainDoubleDotClassifier } from '#qdc/characterization/training';

trainDoubleDotClassifier({
  id: 'charge-stability-diagram-binary-classifier-v3-16x16',
  size: 16,
  hidden: [16],
  epochs: 40,
  members: 5,
  seed: 4,
  out: 'libs/characterization/src/charge-stability/weights/charge-stability-diagram-binary-classifier-v3-16x16.weights.ts',
  constName: 'CLASSIFIER_V3_16X16_WEIGHTS',
});
