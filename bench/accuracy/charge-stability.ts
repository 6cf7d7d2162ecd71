// Accuracy sections for the charge-stability-diagram models (issue #4): double-dot classifiers, transition-line detectors, segmenter.
import type { AccuracySection } from './report-table.js';

export function accuracySections(_tracesPerDataset: number): AccuracySection[] {
  return [];
}
