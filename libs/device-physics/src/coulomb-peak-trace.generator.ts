// Synthetic Coulomb-blockade conductance traces with exact ground truth.
// Lineshape: thermally broadened sequential tunnelling through a quantum dot in the classical regime
// (ΔE ≪ kT ≪ e²/C), G/G_max ≈ cosh⁻²(δ / 2.5kT) — C. W. J. Beenakker, Phys. Rev. B 44, 1646 (1991), Eq. (6.3)
// and the approximation below it. Here δ is the detuning in samples and w = kT/(eα) the thermal width in
// samples, so a peak is cosh⁻²((V − V_k)/(2.5 w)) with FWHM = 5·acosh(√2)·w ≈ 4.41 w.
//
// Realism added on top: peak spacing jitter (±10 % orbital/charging-energy variation), amplitude trend and
// scatter (tunnel couplings change along the sweep), slight left/right asymmetry (up to ±15 % width),
// sloped and curved background, white + 1/f + random-telegraph noise, and a random unit scale and offset.
//
// SNR range: mean peak amplitude / total noise std is log-uniform in [SNR_MIN, SNR_MAX] = [6, 100]; with the
// amplitude spread (×0.55 … ×1.7 of the mean) individual peaks span ≈ 3.3σ … 170σ. The hard end (6–8σ mean
// peaks with 3–5σ members, 1–2-sample-wide peaks, 1/f wander, telegraph jumps) is about where a careful
// physicist still sees the peaks by eye; narrow 3σ blips are not distinguishable from noise spikes.
//
// Ground-truth rule: `peakIndices` are the rounded centres of peaks whose rounded centre lies in 0 … L−1
// and whose own amplitude is ≥ FAINT_PEAK_SNR (3) × the realised noise std. Peaks below that, and peaks centred
// at most MATCH-tolerance (2 samples) outside the window, are listed in `ignoredPeakIndices`: a detection
// matching one of them is neither a hit nor a false alarm.
import { createSeededRandom, deriveSeed, type SeededRandom } from './seeded-random.js';
import { mixedNoise, standardDeviation, type NoiseMix } from './measurement-noise.js';

export const COULOMB_TRACE_LENGTHS = [100, 128, 500] as const;
export const SNR_MIN = 6;
export const SNR_MAX = 100;
export const FAINT_PEAK_SNR = 3;
/** cosh⁻²(x / (2.5 w)) has FWHM = 2 · 2.5 · acosh(√2) · w. */
export const FWHM_PER_THERMAL_WIDTH = 5 * Math.acosh(Math.SQRT2);
export const MAX_PEAKS = 12;
/** Smallest and largest peak FWHM, samples; the largest is also capped at a fraction of spacing and length. */
export const MIN_PEAK_FWHM_SAMPLES = 1.5;
export const MAX_PEAK_FWHM_PER_SPACING = 0.3;
export const MAX_PEAK_FWHM_PER_LENGTH = 0.05;
/** Closest two peaks may come, in units of FWHM and in samples. */
export const MIN_SEPARATION_FWHM = 2;
export const MIN_SEPARATION_SAMPLES = 4;
/** Peaks centred up to this far outside the window are "don't care" (the detection match tolerance). */
export const EDGE_DONT_CARE_SAMPLES = 2;

export type CoulombTraceKind = 'peaks' | 'noise' | 'flat' | 'step';

export interface CoulombPeakTraceOptions {
  /** Samples; default one of 100, 128, 500 chosen by the seed. */
  length?: number;
  /** Default: 'peaks' with probability 0.85, otherwise one of the negatives ('noise', 'flat', 'step'). */
  kind?: CoulombTraceKind;
  /** Peaks generated across the window (1 … 12) before clipping; default uniform. */
  peakCount?: number;
  /** Range of mean peak amplitude / noise std, drawn log-uniformly. */
  snrRange?: readonly [number, number];
  /** Noise composition; default random (white always, 1/f in 70 %, telegraph in 35 % of traces). */
  noiseMix?: NoiseMix;
}

export interface CoulombPeakTrace {
  trace: Float64Array;
  kind: CoulombTraceKind;
  /** Ground truth: rounded centres of the counted peaks, ascending. */
  peakIndices: number[];
  /** Exact centres (fractional samples) of the counted peaks. */
  peakCentres: number[];
  /** Amplitudes of the counted peaks above background, trace units. */
  peakAmplitudes: number[];
  /** Rounded centres of faint or just-outside peaks: detections there are neither hits nor false alarms. */
  ignoredPeakIndices: number[];
  /** Peak full width at half maximum, samples. */
  peakFwhm: number;
  /** Realised standard deviation of the added noise, trace units. */
  noiseStd: number;
  /** Mean peak amplitude / noise std as drawn. */
  snr: number;
  noiseMix: NoiseMix;
}

function drawNoiseMix(random: SeededRandom): NoiseMix {
  const pink = random.chance(0.7) ? random.between(0.05, 0.5) : 0;
  const telegraph = random.chance(0.35) ? random.between(0.05, 0.3) : 0;
  return { white: 1 - pink - telegraph, pink, telegraph, telegraphDwellSamples: random.logBetween(8, 60) };
}

/** Asymmetric thermal peak: cosh⁻² with a wider flank on one side (asymmetry a ∈ [−0.15, 0.15]). */
function thermalPeak(offset: number, thermalWidth: number, asymmetry: number): number {
  const w = offset < 0 ? thermalWidth * (1 - asymmetry) : thermalWidth * (1 + asymmetry);
  const c = Math.cosh(offset / (2.5 * w));
  return 1 / (c * c);
}

export function generateCoulombPeakTrace(seed: number, options: CoulombPeakTraceOptions = {}): CoulombPeakTrace {
  const random = createSeededRandom(deriveSeed(seed, 'coulomb-peak-trace'));
  const length = options.length ?? COULOMB_TRACE_LENGTHS[random.integer(0, COULOMB_TRACE_LENGTHS.length - 1)]!;
  if (!Number.isInteger(length) || length < 1) throw new RangeError(`expected an integer length ≥ 1; got ${length}`);
  const negativeKinds: CoulombTraceKind[] = ['noise', 'flat', 'step'];
  const kind = options.kind ?? (random.chance(0.85) ? 'peaks' : negativeKinds[random.integer(0, 2)]!);
  const [snrLow, snrHigh] = options.snrRange ?? [SNR_MIN, SNR_MAX];
  const snr = random.logBetween(snrLow, snrHigh);
  const noiseMix = options.noiseMix ?? drawNoiseMix(random);

  // Physical units: unit mean amplitude, then a random instrument scale and offset at the end.
  const unitScale = random.logBetween(1e-12, 1e3);
  const offset = random.between(0, 2);
  const slope = random.between(-0.5, 0.5);
  const curvature = random.between(-0.3, 0.3);

  const peakCount = options.peakCount ?? random.integer(1, MAX_PEAKS);
  const spacing = Math.max(MIN_SEPARATION_SAMPLES * 1.75, length / (peakCount + random.between(-0.3, 0.7)));
  const maxFwhm = Math.max(MIN_PEAK_FWHM_SAMPLES, Math.min(MAX_PEAK_FWHM_PER_SPACING * spacing, MAX_PEAK_FWHM_PER_LENGTH * length));
  const fwhm = random.logBetween(MIN_PEAK_FWHM_SAMPLES, maxFwhm * (1 + 1e-9));
  const thermalWidth = fwhm / FWHM_PER_THERMAL_WIDTH;
  const asymmetry = random.between(-0.15, 0.15);
  const amplitudeTrend = random.between(-0.6, 0.6);
  const minSeparation = Math.max(MIN_SEPARATION_SAMPLES, MIN_SEPARATION_FWHM * fwhm);

  const centres: number[] = [];
  const amplitudes: number[] = [];
  if (kind === 'peaks') {
    // Lay peaks on a jittered comb that over-covers the window, so partial peaks at the edges occur naturally.
    let position = random.between(-spacing, 0);
    while (position < length + spacing) {
      const centre = position + 0.1 * spacing * random.normal();
      const previous = centres.at(-1);
      if (previous === undefined || centre - previous >= minSeparation) {
        centres.push(centre);
        const relative = centre / Math.max(1, length - 1) - 0.5;
        amplitudes.push(Math.exp(amplitudeTrend * relative) * random.between(0.75, 1.25));
      }
      position += spacing;
    }
  }

  const clean = new Float64Array(length);
  const stepCentre = random.between(0.2, 0.8) * length;
  const stepWidth = Math.max(0.5, fwhm / 2);
  for (let i = 0; i < length; i++) {
    const u = length > 1 ? (2 * i) / (length - 1) - 1 : 0;
    let value = kind === 'flat' ? offset : offset + 0.5 * slope * u + curvature * (u * u - 1 / 3);
    if (kind === 'peaks') {
      for (let k = 0; k < centres.length; k++) value += amplitudes[k]! * thermalPeak(i - centres[k]!, thermalWidth, asymmetry);
    } else if (kind === 'step') {
      value += 0.5 * (1 + Math.tanh((i - stepCentre) / stepWidth));
    }
    clean[i] = value;
  }

  const meanAmplitude = 1;
  const noise = kind === 'flat' ? new Float64Array(length) : mixedNoise(random, length, noiseMix);
  const noiseScale = meanAmplitude / snr;
  const trace = new Float64Array(length);
  for (let i = 0; i < length; i++) trace[i] = unitScale * (clean[i]! + noiseScale * noise[i]!);
  const noiseStd = unitScale * noiseScale * standardDeviation(noise);

  const peakIndices: number[] = [];
  const peakCentres: number[] = [];
  const peakAmplitudes: number[] = [];
  const ignoredPeakIndices: number[] = [];
  for (let k = 0; k < centres.length; k++) {
    const index = Math.round(centres[k]!);
    const amplitude = unitScale * amplitudes[k]!;
    const inside = index >= 0 && index <= length - 1;
    const nearEdge = index >= -EDGE_DONT_CARE_SAMPLES && index <= length - 1 + EDGE_DONT_CARE_SAMPLES;
    if (inside && amplitude >= FAINT_PEAK_SNR * noiseStd) {
      peakIndices.push(index);
      peakCentres.push(centres[k]!);
      peakAmplitudes.push(amplitude);
    } else if (nearEdge) {
      ignoredPeakIndices.push(index);
    }
  }

  return { trace, kind, peakIndices, peakCentres, peakAmplitudes, ignoredPeakIndices, peakFwhm: fwhm, noiseStd, snr, noiseMix };
}
