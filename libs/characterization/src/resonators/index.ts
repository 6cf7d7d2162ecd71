// Catalogue entry and public API of the resonator dip finder (issues #2 and #16).
export { RESONATOR_ENTRIES } from './resonator.entries.js';
export { findResonatorDips, type DipDetection } from './resonator-dip-finder-v0.model.js';
