// Catalogue entries and public API of the Coulomb diamonds, anticrossings and electron unloading (issue #5).
import type { ModelEntry } from '../model-entry.js';

export const COULOMB_DIAMOND_ENTRIES: readonly ModelEntry[] = [];
