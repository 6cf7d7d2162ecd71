// Matched-filter kernels for thermally broadened Coulomb peaks, cosh⁻²(j / (2.5 w)) (Beenakker 1991), made
// zero-mean over their support — which cancels constant and linear backgrounds exactly — and scaled to unit
// L2 norm, so that white noise of std σ gives a response of std σ at every width (G. L. Turin, IRE Trans.
// Inf. Theory 6, 311 (1960): the matched filter maximises SNR for a known shape in white noise).
// Near the ends the kernel is truncated to the samples that exist and made zero-mean and unit-norm again, so
// the response keeps unit noise gain and no mirrored image of a peak near an end is created.

/** FWHM of cosh⁻²(x / s) is 2 acosh(√2) s. */
export const FWHM_PER_COSH_SCALE = 2 * Math.acosh(Math.SQRT2);
/** Kernel half-support in FWHM. */
export const KERNEL_HALF_SUPPORT_FWHM = 1.5;

/** A matched-filter kernel (named for its first use; dip kernels share the structure). */
export interface ThermalPeakKernel {
  fwhm: number;
  halfSupport: number;
  /** cosh⁻² taps, index j + halfSupport for offset j. */
  shape: Float64Array;
  /** Zero-mean, unit-norm version of `shape`. */
  taps: Float64Array;
}

/** Zero-mean, unit-norm kernel of an arbitrary symmetric lineshape `profile(j)` over offsets −halfSupport … halfSupport. */
export function lineshapeKernel(fwhm: number, halfSupport: number, profile: (offset: number) => number): ThermalPeakKernel {
  const size = 2 * halfSupport + 1;
  const shape = new Float64Array(size);
  let sum = 0;
  for (let j = -halfSupport; j <= halfSupport; j++) {
    shape[j + halfSupport] = profile(j);
    sum += shape[j + halfSupport]!;
  }
  const taps = new Float64Array(size);
  let norm = 0;
  for (let k = 0; k < size; k++) {
    taps[k] = shape[k]! - sum / size;
    norm += taps[k]! * taps[k]!;
  }
  norm = Math.sqrt(norm);
  for (let k = 0; k < size; k++) taps[k] = norm > 0 ? taps[k]! / norm : 0;
  return { fwhm, halfSupport, shape, taps };
}

export function thermalPeakKernel(fwhm: number): ThermalPeakKernel {
  const scale = fwhm / FWHM_PER_COSH_SCALE;
  return lineshapeKernel(fwhm, Math.max(2, Math.ceil(KERNEL_HALF_SUPPORT_FWHM * fwhm)), (j) => {
    const c = Math.cosh(j / scale);
    return 1 / (c * c);
  });
}

/**
 * Zero-mean matched-filter response of x[offset … offset+length−1] at every position, truncating (and
 * re-normalising) the kernel where it overhangs an end.
 */
export function matchedResponse(x: Float64Array, kernel: ThermalPeakKernel, out: Float64Array, offset = 0, length = x.length - offset): Float64Array {
  const { halfSupport: h, taps, shape } = kernel;
  const size = taps.length;
  for (let i = 0; i < length; i++) {
    if (i >= h && i + h < length) {
      const base = offset + i - h;
      let acc = 0;
      for (let k = 0; k < size; k++) acc += taps[k]! * x[base + k]!;
      out[i] = acc;
      continue;
    }
    const lo = Math.max(-h, -i);
    const hi = Math.min(h, length - 1 - i);
    let sp = 0;
    let spp = 0;
    let sx = 0;
    let spx = 0;
    for (let j = lo; j <= hi; j++) {
      const p = shape[j + h]!;
      const v = x[offset + i + j]!;
      sp += p;
      spp += p * p;
      sx += v;
      spx += p * v;
    }
    const count = hi - lo + 1;
    const norm2 = spp - (sp * sp) / count;
    out[i] = norm2 > 1e-12 * spp ? (spx - (sp / count) * sx) / Math.sqrt(norm2) : 0;
  }
  return out;
}

/** cosh⁻²-weighted average of x around position i (a smoother matched to the peak), truncated at the ends. */
export function smoothedAt(x: Float64Array, kernel: ThermalPeakKernel, i: number, offset = 0, length = x.length - offset): number {
  const h = kernel.halfSupport;
  const lo = Math.max(-h, -i);
  const hi = Math.min(h, length - 1 - i);
  let sw = 0;
  let swx = 0;
  for (let j = lo; j <= hi; j++) {
    const w = kernel.shape[j + h]!;
    sw += w;
    swx += w * x[offset + i + j]!;
  }
  return swx / sw;
}

/** Std of smoothedAt(noise) for unit white noise at an interior position: √Σw² / Σw. */
export function smoothingNoiseGain(kernel: ThermalPeakKernel): number {
  let sw = 0;
  let sww = 0;
  for (const w of kernel.shape) {
    sw += w;
    sww += w * w;
  }
  return Math.sqrt(sww) / sw;
}
