// Catalogue entries and public API of the charge-stability-diagram models (issue #4): double-dot classifiers, transition-line detectors, segmenter.
import type { ModelEntry } from '../model-entry.js';

export const CHARGE_STABILITY_ENTRIES: readonly ModelEntry[] = [];
