// Training code of the characterization models (`#qdc/characterization/training`): for scripts/train-*.ts and the
// design comparisons, not part of the public barrel. Trained weights are committed next to the models.
export * from '../charge-stability/training/double-dot-classifier.training.js';
export * from '../charge-stability/training/dense-network.training.js';
export { trainLogisticRegression, type LogisticModel } from '../one-d/logistic-regression.js';
