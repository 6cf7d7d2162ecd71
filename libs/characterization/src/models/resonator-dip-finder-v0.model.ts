// resonator-dip-finder-v0 — resonance dips in a transmission magnitude trace (notch-type coupling).
// 1. Detection: the negated trace is correlated with zero-mean, unit-norm Lorentzian kernels at geometrically
//    spaced widths (matched filtering, Turin 1960). Zero-mean kernels much narrower than a standing-wave ripple
//    period cancel gain tilt and attenuate the ripple. Noise as in the Coulomb-peak detector v1: white level
//    from the quiet first differences, each scale's own level away from provisional detections.
// 2. Characterisation: each candidate window is converted to transmitted power (|S21|² from linear magnitude,
//    10^(dB/10) from dB) and fitted with the notch model of S. Probst et al., Rev. Sci. Instrum. 86, 024706
//    (2015), Eq. (1) (signal/notch-resonance-fit.ts): centre x0 (index), linewidth κ = fr/Ql (samples), depth.
// Format: a trace with any negative value is read as dB (a linear magnitude is never negative), else linear.
// Dips shallower than MIN_DEPTH_LINEAR (4 % of the baseline magnitude) or MIN_DEPTH_DB (0.35 dB) are not
// reported: baseline ripple of a few per cent is common and is not a resonance.
import { estimateWhiteNoiseStd, quietDifferenceNoise } from '../signal/robust-noise.js';
import { medianInPlace } from '../signal/order-statistics.js';
import { lineshapeKernel, matchedResponse, type ThermalPeakKernel } from '../signal/thermal-peak-kernel.js';
import { fitNotchResonance } from '../signal/notch-resonance-fit.js';

/** Kernel FWHM bank, samples: from 1.5, ×1.6, up to MAX_KERNEL_FWHM_PER_LENGTH × length. */
export const MIN_KERNEL_FWHM_SAMPLES = 1.5;
export const KERNEL_FWHM_RATIO = 1.6;
export const MAX_KERNEL_FWHM_PER_LENGTH = 0.1;
/** Lorentzian kernel half-support, in kernel FWHM. */
export const KERNEL_HALF_SUPPORT_FWHM = 2.5;
/** A zero-mean Lorentzian kernel of FWHM G responds most to dips of FWHM ≈ G / 1.5. */
export const KERNEL_PER_DIP_FWHM = 1.5;
/** Detection threshold on the matched-filter response, σ; provisional threshold for noise masking, σ. */
export const THRESHOLD_SIGMA = 6;
export const PROVISIONAL_THRESHOLD_SIGMA = 3;
export const QUIET_FRACTION = 0.4;
export const MIN_NOISE_SAMPLES = 16;
/** Smallest reported depth: fraction of the baseline magnitude (linear), or dB. */
export const MIN_DEPTH_LINEAR = 0.04;
export const MIN_DEPTH_DB = 0.35;
/** Largest accepted linewidth, fraction of the span. A fit much wider than the matched kernel's dip width
 * (deep dips are V-shaped near the bottom, so narrow kernels respond most) must be deep in power, since a
 * ripple trough fitted as a notch is wide and shallow. */
export const MAX_LINEWIDTH_PER_LENGTH = 0.15;
export const MAX_LINEWIDTH_PER_KERNEL = 10;
export const WIDE_DIP_MIN_POWER_DEPTH = 0.25;
/** Fit window half-width, in dip linewidths (plus 3 samples). */
export const FIT_HALF_WINDOW_LINEWIDTHS = 4;

const MAD_TO_STD = 1.482602218505602;

export interface DipDetection {
  dipIndices: number[];
  /** fr/Ql in samples. */
  linewidths: number[];
  /** Baseline minus the bottom of the dip, in the input's units (linear magnitude or dB). */
  depths: number[];
}

interface Candidate {
  index: number;
  scale: number;
  z: number;
}

function lorentzianKernel(fwhm: number): ThermalPeakKernel {
  return lineshapeKernel(fwhm, Math.max(2, Math.ceil(KERNEL_HALF_SUPPORT_FWHM * fwhm)), (j) => 1 / (1 + ((2 * j) / fwhm) ** 2));
}

function kernelWidths(length: number): number[] {
  const widths = [MIN_KERNEL_FWHM_SAMPLES];
  const widest = Math.max(MIN_KERNEL_FWHM_SAMPLES, MAX_KERNEL_FWHM_PER_LENGTH * length);
  while (widths.at(-1)! * KERNEL_FWHM_RATIO <= widest) widths.push(widths.at(-1)! * KERNEL_FWHM_RATIO);
  return widths;
}

function pick(responses: Float64Array[], noise: number[], kernels: ThermalPeakKernel[], threshold: number): Candidate[] {
  const found: Candidate[] = [];
  responses.forEach((r, s) => {
    for (let i = 0; i < r.length; i++) {
      const v = r[i]!;
      if (v < threshold * noise[s]!) continue;
      if ((i > 0 && !(v > r[i - 1]!)) || (i < r.length - 1 && !(v >= r[i + 1]!))) continue;
      found.push({ index: i, scale: s, z: v / noise[s]! });
    }
  });
  found.sort((a, b) => b.z - a.z || a.index - b.index);
  const kept: Candidate[] = [];
  for (const c of found) {
    const width = kernels[c.scale]!.fwhm / KERNEL_PER_DIP_FWHM;
    const clash = kept.some((k) => Math.abs(k.index - c.index) < Math.max(3, 1.5 * Math.max(width, kernels[k.scale]!.fwhm / KERNEL_PER_DIP_FWHM)));
    if (!clash) kept.push(c);
  }
  return kept;
}

export function findResonatorDips(trace: Float64Array): DipDetection {
  const n = trace.length;
  const none: DipDetection = { dipIndices: [], linewidths: [], depths: [] };
  let sigma = estimateWhiteNoiseStd(trace);
  if (n < 8 || !(sigma > 0)) return none;
  let minimum = Infinity;
  for (let i = 0; i < n; i++) minimum = Math.min(minimum, trace[i]!);
  const isDb = minimum < 0;
  const negated = trace.map((v) => -v);
  const kernels = kernelWidths(n).map(lorentzianKernel);
  const responses = kernels.map((k) => matchedResponse(negated, k, new Float64Array(n)));
  let noise = kernels.map(() => sigma);

  // Provisional detections → white noise from the quiet differences; each scale's noise away from them.
  const provisional = pick(responses, noise, kernels, PROVISIONAL_THRESHOLD_SIGMA);
  const refined = quietDifferenceNoise(trace, provisional.map((c) => c.index), provisional.map((c) => kernels[c.scale]!.fwhm), QUIET_FRACTION);
  if (refined > 0) sigma = refined;
  const masked = new Uint8Array(n);
  for (const c of provisional) {
    const reach = kernels[c.scale]!.halfSupport + Math.ceil(kernels[c.scale]!.fwhm);
    for (let i = Math.max(0, c.index - reach); i <= Math.min(n - 1, c.index + reach); i++) masked[i] = 1;
  }
  const scratch = new Float64Array(n);
  noise = responses.map((r) => {
    let count = 0;
    for (let i = 0; i < n; i++) if (!masked[i]) scratch[count++] = Math.abs(r[i]!);
    return count < MIN_NOISE_SAMPLES ? sigma : Math.max(sigma, MAD_TO_STD * medianInPlace(scratch, count));
  });

  // Transmitted power, relative to the median level (keeps the fit well scaled).
  const power = new Float64Array(n);
  const levels = Float64Array.from(trace);
  const median = medianInPlace(levels, n);
  for (let i = 0; i < n; i++) power[i] = isDb ? 10 ** ((trace[i]! - median) / 10) : (trace[i]! / (median || 1)) ** 2;

  const dips: { centre: number; linewidth: number; depth: number; z: number }[] = [];
  for (const c of pick(responses, noise, kernels, THRESHOLD_SIGMA)) {
    const width = Math.max(1, kernels[c.scale]!.fwhm / KERNEL_PER_DIP_FWHM);
    // Bottom of the dip near the response maximum.
    let bottom = c.index;
    const reach = Math.max(1, Math.ceil(width / 2));
    for (let i = Math.max(0, c.index - reach); i <= Math.min(n - 1, c.index + reach); i++) if (trace[i]! < trace[bottom]!) bottom = i;
    const half = Math.ceil(FIT_HALF_WINDOW_LINEWIDTHS * width) + 3;
    const from = Math.max(0, bottom - half);
    const to = Math.min(n - 1, bottom + half);
    // Baseline guess: the higher of the window's two ends.
    const edge = Math.max(1, Math.round((to - from + 1) / 8));
    let left = 0;
    let right = 0;
    for (let i = 0; i < edge; i++) {
      left += power[from + i]!;
      right += power[to - i]!;
    }
    const baseline = Math.max(left, right) / edge;
    const coupling = 1 - Math.sqrt(Math.max(0, power[bottom]!) / (baseline || 1));
    const fit = fitNotchResonance(power, from, to, { centre: bottom, linewidth: width, couplingRatio: coupling, baseline });
    // A resonance is accepted only when the notch model fits it: a Lorentzian of about the matched width, centred
    // near the bottom (ripple troughs and Fano shoulders fit with runaway widths or off-centre).
    if (!fit || !(fit.baseline > 0)) continue;
    if (Math.abs(fit.centre - bottom) > width + 2) continue;
    if (!(fit.linewidth <= MAX_LINEWIDTH_PER_LENGTH * n)) continue;
    const runaway = fit.linewidth > MAX_LINEWIDTH_PER_KERNEL * width + 4;
    if (runaway && !(1 - fit.minimumPowerRatio >= WIDE_DIP_MIN_POWER_DEPTH)) continue;
    const centre = fit.centre;
    const linewidth = fit.linewidth;
    const bottomPowerRatio = fit.minimumPowerRatio;
    const baselinePower = fit.baseline;
    // Depth in the input's units.
    let depth: number;
    if (isDb) {
      depth = -10 * Math.log10(Math.max(1e-30, bottomPowerRatio));
    } else {
      const baselineMagnitude = Math.sqrt(Math.max(0, baselinePower)) * (median || 1);
      depth = baselineMagnitude * (1 - Math.sqrt(Math.max(0, bottomPowerRatio)));
      if (!(depth >= MIN_DEPTH_LINEAR * Math.abs(baselineMagnitude))) continue;
    }
    if (isDb && !(depth >= MIN_DEPTH_DB)) continue;
    if (!Number.isFinite(centre) || !Number.isFinite(linewidth) || !Number.isFinite(depth)) continue;
    dips.push({ centre, linewidth, depth, z: c.z });
  }

  // Two candidates fitted onto the same resonance: keep the stronger.
  dips.sort((a, b) => b.z - a.z);
  const kept: typeof dips = [];
  for (const d of dips) if (kept.every((k) => Math.abs(k.centre - d.centre) >= Math.max(2, Math.max(k.linewidth, d.linewidth)))) kept.push(d);
  kept.sort((a, b) => a.centre - b.centre);
  return {
    dipIndices: kept.map((d) => Math.min(n - 1, Math.max(0, Math.round(d.centre)))),
    linewidths: kept.map((d) => d.linewidth),
    depths: kept.map((d) => d.depth),
  };
}
