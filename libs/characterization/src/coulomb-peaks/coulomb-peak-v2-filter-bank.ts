// The matched-filter bank of coulomb-blockade-peak-detector-v2: zero-mean, unit-norm cosh⁻² kernels (the thermally
// broadened Coulomb-peak lineshape, Beenakker, Phys. Rev. B 44, 1646 (1991)) of FWHM 1.5·2^k samples, evaluated on a
// stride matched to each width, and the preallocated workspace one trace length needs (reused across a batch).
import { FWHM_PER_COSH_SCALE } from '../signal/thermal-peak-kernel.js';
import type { EndFit } from './coulomb-peak-v2-end-fit.js';

/** Narrowest kernel FWHM (samples); the bank doubles up to V2_MAX_KERNEL_FWHM_PER_LENGTH × length. */
export const V2_MIN_KERNEL_FWHM_SAMPLES = 1.5;
export const V2_MAX_KERNEL_FWHM_PER_LENGTH = 1 / 6;
/** Kernels wider than this fraction of the length see mostly 1/f wander (consulted last, at a higher threshold). */
export const V2_WIDE_KERNEL_FWHM_PER_LENGTH = 1 / 12;
/** A zero-mean cosh⁻² kernel of FWHM G responds most to peaks of FWHM ≈ G / 1.55. */
export const V2_KERNEL_PER_PEAK_FWHM = 1.55;
/** Kernel half-support in kernel FWHM. */
export const V2_KERNEL_HALF_SUPPORT_FWHM = 1.5;
/** Two detections closer than this many peak FWHM (of the wider) are one peak; never closer than 3 samples. */
export const V2_MIN_SEPARATION_FWHM = 1;
export const V2_MIN_SEPARATION_SAMPLES = 3;
/** Largest number of octaves in the bank (kernel FWHM up to 1.5 · 2^19 samples). */
const MAX_SCALES = 20;

export interface Kernel {
  fwhm: number;
  half: number;
  /** cosh⁻² taps; the zero-mean, unit-norm matched filter; noise gain of the cosh⁻²-weighted mean. */
  shape: Float64Array;
  taps: Float64Array;
  smoothingGain: number;
  /** Σ shape, mean of shape and ‖shape − mean‖ over the full support: response = (Σ shape·x − mean Σx) / norm. */
  shapeSum: number;
  shapeMean: number;
  zeroMeanNorm: number;
}

function makeKernel(fwhm: number): Kernel {
  const half = Math.max(2, Math.ceil(V2_KERNEL_HALF_SUPPORT_FWHM * fwhm));
  const size = 2 * half + 1;
  const s = fwhm / FWHM_PER_COSH_SCALE;
  const shape = new Float64Array(size);
  let sum = 0;
  for (let j = -half; j <= half; j++) {
    const c = Math.cosh(j / s);
    shape[j + half] = 1 / (c * c);
    sum += shape[j + half]!;
  }
  const taps = new Float64Array(size);
  let norm = 0;
  let sww = 0;
  for (let k = 0; k < size; k++) {
    taps[k] = shape[k]! - sum / size;
    norm += taps[k]! * taps[k]!;
    sww += shape[k]! * shape[k]!;
  }
  for (let k = 0; k < size; k++) taps[k] = taps[k]! / Math.sqrt(norm);
  return { fwhm, half, shape, taps, smoothingGain: Math.sqrt(sww) / sum, shapeSum: sum, shapeMean: sum / size, zeroMeanNorm: Math.sqrt(norm) };
}

/** Per-octave constants, built once on first use (pure functions of k). */
const KERNELS: Kernel[] = [];
export const PEAK_FWHM = new Float64Array(MAX_SCALES);
export const STRIDE = new Int32Array(MAX_SCALES);
/** Minimum distance between two detections at scale k, samples (the larger of the pair's applies). */
export const SEPARATION = new Float64Array(MAX_SCALES);
for (let k = 0; k < MAX_SCALES; k++) {
  const kernelFwhm = V2_MIN_KERNEL_FWHM_SAMPLES * 2 ** k;
  PEAK_FWHM[k] = Math.max(1, kernelFwhm / V2_KERNEL_PER_PEAK_FWHM);
  SEPARATION[k] = Math.max(V2_MIN_SEPARATION_SAMPLES, V2_MIN_SEPARATION_FWHM * PEAK_FWHM[k]!);
  STRIDE[k] = k >= 3 ? 1 << (k - 2) : 1;
}
export function kernelOf(k: number): Kernel {
  KERNELS[k] ??= makeKernel(V2_MIN_KERNEL_FWHM_SAMPLES * 2 ** k);
  return KERNELS[k]!;
}

export interface PeakDetectorV2Workspace {
  readonly length: number;
  readonly scaleCount: number;
  x: Float64Array;
  prefix: Float64Array;
  /** Per scale, at positions j·stride: matched-filter response and cosh⁻²-weighted mean. */
  responses: Float64Array[];
  smooths: Float64Array[];
  noise: Float64Array;
  enabled: Uint8Array;
  /** 1 for kernels wider than V2_WIDE_KERNEL_FWHM_PER_LENGTH × length. */
  wide: Uint8Array;
  scratch: Float64Array;
  distance: Float64Array;
  mask: Uint8Array;
  candFull: Int32Array;
  candScale: Int32Array;
  candZ: Float64Array;
  order: Int32Array;
  kept: Int32Array;
  keptCount: number;
  provIndex: Float64Array;
  provWidth: Float64Array;
  peakIndex: Int32Array;
  peakHeight: Float64Array;
  peakScale: Int32Array;
  peakCut: Uint8Array;
  found: number;
  /** Result of the last end-of-window fit. */
  endFit: EndFit;
}

function scaleCountFor(length: number): number {
  const widest = Math.max(V2_MIN_KERNEL_FWHM_SAMPLES, V2_MAX_KERNEL_FWHM_PER_LENGTH * length);
  let k = 0;
  while (k + 1 < MAX_SCALES && V2_MIN_KERNEL_FWHM_SAMPLES * 2 ** (k + 1) <= widest) k++;
  return k + 1;
}

export function createPeakDetectorV2Workspace(length: number): PeakDetectorV2Workspace {
  const n = Math.max(1, length);
  const scaleCount = scaleCountFor(n);
  const capacity = 2 * n + 16;
  return {
    length,
    scaleCount,
    x: new Float64Array(n),
    prefix: new Float64Array(n + 1),
    responses: Array.from({ length: scaleCount }, (_, k) => new Float64Array(Math.ceil(n / STRIDE[k]!))),
    smooths: Array.from({ length: scaleCount }, (_, k) => new Float64Array(Math.ceil(n / STRIDE[k]!))),
    noise: new Float64Array(scaleCount),
    enabled: new Uint8Array(scaleCount),
    wide: Uint8Array.from({ length: scaleCount }, (_, k) => (V2_MIN_KERNEL_FWHM_SAMPLES * 2 ** k > V2_WIDE_KERNEL_FWHM_PER_LENGTH * n ? 1 : 0)),
    scratch: new Float64Array(capacity),
    distance: new Float64Array(n),
    mask: new Uint8Array(n),
    candFull: new Int32Array(capacity),
    candScale: new Int32Array(capacity),
    candZ: new Float64Array(capacity),
    order: new Int32Array(capacity),
    kept: new Int32Array(capacity),
    keptCount: 0,
    provIndex: new Float64Array(capacity),
    provWidth: new Float64Array(capacity),
    peakIndex: new Int32Array(capacity),
    peakHeight: new Float64Array(capacity),
    peakScale: new Int32Array(capacity),
    peakCut: new Uint8Array(capacity),
    found: 0,
    endFit: { centre: 0, amplitude: 0, error: Infinity },
  };
}

/**
 * Response and cosh⁻²-weighted mean of one scale at positions j·stride. Interior: one pass of Σ shape·x, with
 * Σx from the prefix sums. Ends: the kernel is truncated to existing samples and re-normalised.
 */
export function filterScale(ws: PeakDetectorV2Workspace, n: number, k: number): void {
  const kernel = kernelOf(k);
  const { half: h, shape, shapeSum, shapeMean, zeroMeanNorm } = kernel;
  const x = ws.x;
  const prefix = ws.prefix;
  const response = ws.responses[k]!;
  const smooth = ws.smooths[k]!;
  const stride = STRIDE[k]!;
  const inverseNorm = 1 / zeroMeanNorm;
  const inverseSum = 1 / shapeSum;
  for (let j = 0, i = 0; j < response.length; j++, i += stride) {
    if (i >= h && i + h < n) {
      // Symmetric taps: fold the two halves, half the multiplies; two accumulators.
      let a0 = shape[h]! * x[i]!;
      let a1 = 0;
      let q = 1;
      for (; q < h; q += 2) {
        a0 += shape[h - q]! * (x[i - q]! + x[i + q]!);
        a1 += shape[h - q - 1]! * (x[i - q - 1]! + x[i + q + 1]!);
      }
      if (q === h) a0 += shape[0]! * (x[i - h]! + x[i + h]!);
      const spx = a0 + a1;
      response[j] = (spx - shapeMean * (prefix[i + h + 1]! - prefix[i - h]!)) * inverseNorm;
      smooth[j] = spx * inverseSum;
      continue;
    }
    const lo = i < h ? -i : -h;
    const hi = Math.min(n - 1 - i, h);
    let sp = 0;
    let spp = 0;
    let spx = 0;
    for (let q = lo; q <= hi; q++) {
      const p = shape[q + h]!;
      sp += p;
      spp += p * p;
      spx += p * x[i + q]!;
    }
    const count = hi - lo + 1;
    const sx = prefix[i + hi + 1]! - prefix[i + lo]!;
    const norm2 = spp - (sp * sp) / count;
    response[j] = norm2 > 1e-12 * spp ? (spx - (sp / count) * sx) / Math.sqrt(norm2) : 0;
    smooth[j] = spx / sp;
  }
}
