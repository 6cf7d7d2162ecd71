// Accuracy sections for the 1-D characterization models (issue #3): Coulomb-blockade classifiers, pinch-off and turn-on classifiers and extractors.
import type { AccuracySection } from './report-table.js';

export function accuracySections(_tracesPerDataset: number): AccuracySection[] {
  return [];
}
