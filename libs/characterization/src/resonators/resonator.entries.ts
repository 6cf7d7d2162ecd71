// Catalogue entry of resonator-dip-finder-v0 (issues #2 and #16).
import type { TraceModelEntry } from '../model-entry.js';
import { findResonatorDips } from './resonator-dip-finder-v0.model.js';

const RESONATOR_DIP_FINDER_V0: TraceModelEntry = {
  spec: {
    id: 'resonator-dip-finder-v0',
    name: 'Resonator dip finder v0',
    description:
      'Resonance dips in a magnitude trace: notch/hanger |S21| or reflection |S11|, linear or dB (any negative value means dB), ' +
      'any length ≥ 8 (coarse 50-point sweeps to 20 000-point scans). Matching pursuit: Lorentzian templates orthogonal to ' +
      'tilt (FWHM 1.5 samples to 1.5× the span), then a resonance fit per dip (Probst et al., Rev. Sci. Instrum. 86, 024706 ' +
      '(2015), notch and reflection, with the Khalil et al. (2012) Fano angle), accepted against straight-line, ' +
      'standing-wave and baseline-step hypotheses and divided out before the next search. Output: dip_indices (minimum of ' +
      'each fitted lineshape), linewidths (fr/Ql in samples), depths (baseline minus dip bottom, input units), significance ' +
      '(depth / noise σ), low_confidence (true for a single faint dip reported by the likelihood-ratio test: above the ' +
      'look-elsewhere threshold for 1 % false alarms per trace, below the confident thresholds).',
    released: '2024-06-01T00:00:00Z',
    inputShapeRequirements: '(L,): any 1-D length ≥ 8, linear or dB magnitude',
    nnInputShapeRequirements: null,
    nnOutputShapeRequirements: null,
    batch: false,
  },
  lengths: { nominal: 1001, anyLength: true, min: 8 },
  plot: 'dips',
  run: (trace) => {
    const dips = findResonatorDips(trace);
    return { dip_indices: dips.dipIndices, linewidths: dips.linewidths, depths: dips.depths, significance: dips.significance, low_confidence: dips.fallback };
  },
};

export const RESONATOR_ENTRIES: readonly TraceModelEntry[] = [RESONATOR_DIP_FINDER_V0];
