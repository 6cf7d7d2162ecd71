// Catalogue entries and public API of the 1-D characterization models (issue #3): Coulomb-blockade classifiers, pinch-off and turn-on classifiers and extractors.
import type { ModelEntry } from '../model-entry.js';

export const ONE_D_ENTRIES: readonly ModelEntry[] = [];
