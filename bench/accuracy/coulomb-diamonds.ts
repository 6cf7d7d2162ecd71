// Accuracy sections for the Coulomb diamonds, anticrossings and electron unloading (issue #5).
import type { AccuracySection } from './report-table.js';

export function accuracySections(_tracesPerDataset: number): AccuracySection[] {
  return [];
}
