// Synthetic transmission traces of notch-coupled microwave resonators with exact ground truth.
// Model: S21(f) = a e^{iα} e^{−2πifτ} [1 − (Ql/|Qc|) e^{iφ} / (1 + 2iQl(f/fr − 1))]
// — S. Probst et al., Rev. Sci. Instrum. 86, 024706 (2015), Eq. (1); φ is the impedance-mismatch (Fano)
// rotation. Several resonators on one feedline multiply their notch factors. On top: standing-wave baseline
// ripple and gain tilt (real, slowly varying factors of the environment), complex Gaussian receiver noise
// added to S21 before taking the magnitude, and the magnitude returned linear or in dB (20 log10 |S21|).
//
// In index units the Lorentzian linewidth is κ = fr/Ql / Δf samples, and 2Ql(f/fr − 1) = 2(i − i_r)/κ.
// Ranges: 0–4 dips (none in 10 % of traces), κ log-uniform in [2, min(0.05 L, 60)] samples,
// Ql/|Qc| ∈ [0.15, 0.95], φ ∈ [−0.6, 0.6] rad, ripple ≤ 4 % with period ≥ 10 κ_max, tilt ≤ ±15 % across
// the span. SNR = (shallowest dip depth in |S21| units) / (noise std per quadrature), log-uniform in
// [SNR_MIN, SNR_MAX] = [6, 300]: every dip is at least 6σ deep, so all dips are ground truth (the 3σ rule never
// excludes one). Dip centres keep at least one linewidth (and 2 samples) from either end of the span.
import { createSeededRandom, deriveSeed } from './seeded-random.js';

export const RESONATOR_TRACE_LENGTHS = [201, 501, 1001, 2001] as const;
export const RESONATOR_SNR_MIN = 6;
export const RESONATOR_SNR_MAX = 300;
export const MAX_DIPS = 4;
export const MIN_LINEWIDTH_SAMPLES = 2;
export const MAX_LINEWIDTH_PER_LENGTH = 0.05;
export const MAX_LINEWIDTH_SAMPLES = 60;
/** Closest two resonances may come, in linewidths of the wider one. */
export const MIN_DIP_SEPARATION_LINEWIDTHS = 6;

export type MagnitudeFormat = 'linear' | 'dB';

export interface ResonatorNotchTraceOptions {
  /** Samples; default one of 201, 501, 1001, 2001 chosen by the seed. */
  length?: number;
  /** Resonances in the span (0 … 4); default: 0 with probability 0.1, else uniform 1 … 4. */
  dipCount?: number;
  /** Default: chosen by the seed, half and half. */
  format?: MagnitudeFormat;
  snrRange?: readonly [number, number];
}

export interface ResonatorDip {
  /** Rounded resonance index (fr on the sample grid). */
  index: number;
  /** Exact resonance position, fractional samples. */
  centre: number;
  /** fr / Ql in samples (FWHM of 1 − |S21|²). */
  linewidth: number;
  /** 1 − min |S21| / baseline: fractional depth of the notch in magnitude. */
  depth: number;
  /** Ql / |Qc|. */
  couplingRatio: number;
  /** Fano (impedance-mismatch) angle, rad. */
  phi: number;
}

export interface ResonatorNotchTrace {
  trace: Float64Array;
  frequencyHz: Float64Array;
  format: MagnitudeFormat;
  /** Ground truth, ascending by index. */
  dips: ResonatorDip[];
  /** Receiver noise std per quadrature, |S21| units. */
  noiseStd: number;
  snr: number;
}

/** 1 − min_f |notch factor|, found on a fine grid of the normalised detuning 2Ql(f/fr − 1). */
function notchDepth(couplingRatio: number, phi: number): number {
  let minimum = Infinity;
  for (let k = 0; k <= 4000; k++) {
    const u = -2 + k / 1000;
    const re = 1 - (couplingRatio * (Math.cos(phi) + u * Math.sin(phi))) / (1 + u * u);
    const im = -(couplingRatio * (Math.sin(phi) - u * Math.cos(phi))) / (1 + u * u);
    minimum = Math.min(minimum, Math.hypot(re, im));
  }
  return 1 - minimum;
}

export function generateResonatorNotchTrace(seed: number, options: ResonatorNotchTraceOptions = {}): ResonatorNotchTrace {
  const random = createSeededRandom(deriveSeed(seed, 'resonator-notch-trace'));
  const length = options.length ?? RESONATOR_TRACE_LENGTHS[random.integer(0, RESONATOR_TRACE_LENGTHS.length - 1)]!;
  if (!Number.isInteger(length) || length < 8) throw new RangeError(`expected an integer length ≥ 8; got ${length}`);
  const format: MagnitudeFormat = options.format ?? (random.chance(0.5) ? 'linear' : 'dB');
  const requestedDips = options.dipCount ?? (random.chance(0.1) ? 0 : random.integer(1, MAX_DIPS));
  const [snrLow, snrHigh] = options.snrRange ?? [RESONATOR_SNR_MIN, RESONATOR_SNR_MAX];
  const snr = random.logBetween(snrLow, snrHigh);

  // Environment: amplitude a (line loss/gain), phase α, electrical delay τ; frequency grid in Hz.
  const a = random.logBetween(1e-3, 30);
  const alpha = random.between(-Math.PI, Math.PI);
  const tau = random.between(20e-9, 80e-9);
  const fStart = random.between(4e9, 8e9);
  const step = random.logBetween(1e3, 1e5);
  const frequencyHz = new Float64Array(length);
  for (let i = 0; i < length; i++) frequencyHz[i] = fStart + i * step;

  const maxLinewidth = Math.max(MIN_LINEWIDTH_SAMPLES, Math.min(MAX_LINEWIDTH_PER_LENGTH * length, MAX_LINEWIDTH_SAMPLES));
  const dips: ResonatorDip[] = [];
  for (let attempt = 0; dips.length < requestedDips && attempt < 200; attempt++) {
    const linewidth = random.logBetween(MIN_LINEWIDTH_SAMPLES, maxLinewidth * (1 + 1e-9));
    const margin = Math.max(2, linewidth);
    if (length - 1 - 2 * margin <= 0) continue;
    const centre = random.between(margin, length - 1 - margin);
    const clash = dips.some((d) => Math.abs(d.centre - centre) < MIN_DIP_SEPARATION_LINEWIDTHS * Math.max(d.linewidth, linewidth));
    if (clash) continue;
    const couplingRatio = random.between(0.15, 0.95);
    const phi = random.between(-0.6, 0.6);
    dips.push({ index: Math.round(centre), centre, linewidth, depth: notchDepth(couplingRatio, phi), couplingRatio, phi });
  }
  dips.sort((p, q) => p.centre - q.centre);

  const rippleAmplitude = random.between(0, 0.04);
  const ripplePeriod = random.logBetween(Math.max(10 * maxLinewidth, length / 6), 4 * length);
  const ripplePhase = random.between(0, 2 * Math.PI);
  const tilt = random.between(-0.15, 0.15);

  const shallowest = dips.length > 0 ? Math.min(...dips.map((d) => d.depth)) : 0.5;
  const noiseStd = (a * shallowest) / snr;

  const trace = new Float64Array(length);
  for (let i = 0; i < length; i++) {
    const f = frequencyHz[i]!;
    // Environment a e^{iα} e^{−2πifτ} times the slowly varying real gain (ripple, tilt).
    const gain = a * (1 + rippleAmplitude * Math.cos((2 * Math.PI * i) / ripplePeriod + ripplePhase)) * (1 + tilt * (i / (length - 1) - 0.5));
    const envPhase = alpha - 2 * Math.PI * ((f * tau) % 1);
    let re = gain * Math.cos(envPhase);
    let im = gain * Math.sin(envPhase);
    for (const dip of dips) {
      // Notch factor 1 − d e^{iφ}/(1 + 2iQl(f/fr − 1)), with 2Ql(f/fr − 1) = 2(i − i_r)/κ on this grid.
      const u = (2 * (i - dip.centre)) / dip.linewidth;
      const denominator = 1 + u * u;
      const nRe = 1 - (dip.couplingRatio * (Math.cos(dip.phi) + u * Math.sin(dip.phi))) / denominator;
      const nIm = -(dip.couplingRatio * (Math.sin(dip.phi) - u * Math.cos(dip.phi))) / denominator;
      const nextRe = re * nRe - im * nIm;
      im = re * nIm + im * nRe;
      re = nextRe;
    }
    re += noiseStd * random.normal();
    im += noiseStd * random.normal();
    const magnitude = Math.hypot(re, im);
    trace[i] = format === 'linear' ? magnitude : 20 * Math.log10(Math.max(magnitude, 1e-300));
  }
  return { trace, frequencyHz, format, dips, noiseStd, snr };
}
