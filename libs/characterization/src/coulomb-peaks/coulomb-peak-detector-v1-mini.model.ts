// coulomb-blockade-peak-detector-v1-mini — v1 (multi-scale cosh⁻² matched filter, Beenakker 1991 lineshape;
// Du et al., Bioinformatics 22, 2059 (2006) style detection) with a two-kernel bank instead of ~8: kernel FWHM
// 3.8 and 9.8 samples, which cover peaks of ≈1.5–12 samples FWHM in a 500-point sweep. About 3× faster than
// v1 on (500,) traces; misses more of the narrowest and widest peaks. A peak wider than its kernels gives several
// maxima; v1's valley test keeps one.
import { detectCoulombPeaksMultiScale } from './coulomb-peak-detector-v1.model.js';
import type { PeakDetection } from './coulomb-peak-detector-v0.model.js';

/** The two kernel FWHMs, samples. */
export const V1_MINI_KERNEL_WIDTHS = [3.84, 9.83] as const;

export function detectCoulombPeaksV1Mini(trace: Float64Array): PeakDetection {
  return detectCoulombPeaksMultiScale(trace, { kernelWidths: V1_MINI_KERNEL_WIDTHS, edgeRelativeHeight: 0, consensusScaleSteps: Infinity });
}
