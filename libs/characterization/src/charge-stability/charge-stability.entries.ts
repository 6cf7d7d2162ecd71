// The charge-stability-diagram family's catalogue entries, in listing order: the double-dot classifiers, the
// transition-line detectors, the region segmenter (each defined in its own *.entries.ts).
import type { ModelEntry } from '../model-entry.js';
import { CLASSIFIER_ENTRIES } from './double-dot-classifier.entries.js';
import { SEGMENTER_ENTRIES } from './segmenter.entries.js';
import { TRANSITION_ENTRIES } from './transition-detector.entries.js';

export const CHARGE_STABILITY_ENTRIES: readonly ModelEntry[] = [...CLASSIFIER_ENTRIES, ...TRANSITION_ENTRIES, ...SEGMENTER_ENTRIES];
