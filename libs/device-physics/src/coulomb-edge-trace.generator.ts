// Coulomb-peak traces whose interesting part is at the ends of the sweep (issue #29), with exact ground truth.
// Physical reason: the gate window is chosen by the operator, not aligned with the dot's comb of charge
// transitions, so a peak often sits on the first or last few samples; and a plunger sweep often ends where the
// tunnel barriers open (the conductance rises monotonically towards the open-channel level, no maximum inside the
// window) or on the flank of the next Coulomb peak just outside it. Lineshape as in coulomb-peak-trace.generator.ts
// (thermal cosh⁻², Beenakker, Phys. Rev. B 44, 1646 (1991)); white + 1/f + telegraph noise from measurement-noise.ts.
//
// Kinds: 'edge-peaks' — one peak centred on samples 0–5 of the start and/or the end (the start in 70 % of traces, the
// end in 79 %, at least one), 0–6 interior peaks; 'end-rise' — 0–6 interior peaks and a monotone rise into one end (end 75 %,
// start 25 %): either the barrier opening, I ∝ exp((i − i_end)/λ) with λ 3–25 % of L (convex, steepest on the
// last sample), or the flank of a peak centred max(3, 0.5–1.5 FWHM) samples outside the window.
// Labels follow generateCoulombPeakTrace: counted peaks have their rounded centre inside and amplitude ≥ 3σ;
// the rising end carries no label and no "don't care" (a detection there is a false alarm).
import { createSeededRandom, deriveSeed } from './seeded-random.js';
import { mixedNoise, standardDeviation, type NoiseMix } from './measurement-noise.js';
import { FAINT_PEAK_SNR, FWHM_PER_THERMAL_WIDTH } from './coulomb-peak-trace.generator.js';

export type CoulombEdgeTraceKind = 'edge-peaks' | 'end-rise';

/** Peak amplitude / noise std, drawn log-uniformly per trace (individual peaks ×0.8 … ×1.25). */
export const EDGE_TRACE_SNR_RANGE = [8, 60] as const;
/** Peak FWHM range, samples (capped at 6 % of the length). */
export const EDGE_TRACE_FWHM_RANGE = [1.5, 14] as const;
/** Edge peaks are centred this many samples from the end at most. */
export const EDGE_PEAK_MAX_OFFSET_SAMPLES = 5;

export interface CoulombEdgeTraceOptions {
  length?: number;
  kind?: CoulombEdgeTraceKind;
  snrRange?: readonly [number, number];
}

export interface CoulombEdgeTrace {
  trace: Float64Array;
  kind: CoulombEdgeTraceKind;
  peakIndices: number[];
  ignoredPeakIndices: number[];
  peakFwhm: number;
  noiseStd: number;
  /** For 'end-rise': which end rises, and how ('opening' or 'outside-peak'). */
  rise: { end: 'start' | 'end'; shape: 'opening' | 'outside-peak' } | null;
}

export function generateCoulombEdgeTrace(seed: number, options: CoulombEdgeTraceOptions = {}): CoulombEdgeTrace {
  const random = createSeededRandom(deriveSeed(seed, 'coulomb-edge-trace'));
  const length = options.length ?? [100, 128, 500][random.integer(0, 2)]!;
  if (!Number.isInteger(length) || length < 32) throw new RangeError(`expected an integer length ≥ 32; got ${length}`);
  const kind = options.kind ?? (random.chance(0.5) ? 'edge-peaks' : 'end-rise');
  const [snrLow, snrHigh] = options.snrRange ?? EDGE_TRACE_SNR_RANGE;
  const snr = random.logBetween(snrLow, snrHigh);
  const fwhm = random.logBetween(EDGE_TRACE_FWHM_RANGE[0], Math.max(EDGE_TRACE_FWHM_RANGE[0], Math.min(EDGE_TRACE_FWHM_RANGE[1], 0.06 * length)));
  const thermalWidth = fwhm / FWHM_PER_THERMAL_WIDTH;
  const peak = (offset: number): number => {
    const c = Math.cosh(offset / (2.5 * thermalWidth));
    return 1 / (c * c);
  };
  const pink = random.chance(0.6) ? random.between(0.05, 0.4) : 0;
  const telegraph = random.chance(0.25) ? random.between(0.05, 0.2) : 0;
  const noiseMix: NoiseMix = { white: 1 - pink - telegraph, pink, telegraph, telegraphDwellSamples: random.logBetween(8, 60) };

  const centres: number[] = [];
  let rise: CoulombEdgeTrace['rise'] = null;
  // Interior region kept clear of the ends by 3 FWHM + 8 samples.
  const margin = 3 * fwhm + 8;
  const minSeparation = Math.max(4, 3 * fwhm);
  if (kind === 'edge-peaks') {
    const atStart = random.chance(0.7);
    const atEnd = !atStart || random.chance(0.7);
    if (atStart) centres.push(random.between(-0.49, EDGE_PEAK_MAX_OFFSET_SAMPLES));
    if (atEnd) centres.push(length - 1 - random.between(-0.49, EDGE_PEAK_MAX_OFFSET_SAMPLES));
  } else {
    rise = { end: random.chance(0.75) ? 'end' : 'start', shape: random.chance(0.5) ? 'opening' : 'outside-peak' };
  }
  const interior = random.integer(0, 6);
  for (let k = 0; k < interior * 4 && centres.length < interior + 2; k++) {
    const c = random.between(margin, length - 1 - margin);
    if (centres.every((other) => Math.abs(other - c) >= minSeparation)) centres.push(c);
  }
  centres.sort((a, b) => a - b);
  const amplitudes = centres.map(() => random.between(0.8, 1.25));

  const background = random.between(0.1, 1);
  const slope = random.between(-0.2, 0.2);
  const riseHeight = random.between(1, 3);
  const riseLength = random.between(0.03, 0.25) * length;
  const outsideOffset = Math.max(3, random.between(0.5, 1.5) * fwhm);
  const clean = new Float64Array(length);
  for (let i = 0; i < length; i++) {
    let v = background + (slope * (i - length / 2)) / length;
    for (let k = 0; k < centres.length; k++) v += amplitudes[k]! * peak(i - centres[k]!);
    if (rise) {
      const fromEnd = rise.end === 'end' ? length - 1 - i : i;
      v += rise.shape === 'opening' ? riseHeight * Math.exp(-fromEnd / riseLength) : riseHeight * peak(fromEnd + outsideOffset);
    }
    clean[i] = v;
  }
  const noise = mixedNoise(random, length, noiseMix);
  const unitScale = random.logBetween(1e-12, 1e3);
  const trace = new Float64Array(length);
  for (let i = 0; i < length; i++) trace[i] = unitScale * (clean[i]! + noise[i]! / snr);
  const noiseStd = (unitScale * standardDeviation(noise)) / snr;

  const peakIndices: number[] = [];
  const ignoredPeakIndices: number[] = [];
  centres.forEach((c, k) => {
    const index = Math.round(c);
    if (index >= 0 && index <= length - 1 && unitScale * amplitudes[k]! >= FAINT_PEAK_SNR * noiseStd) peakIndices.push(index);
    else ignoredPeakIndices.push(index);
  });
  return { trace, kind, peakIndices, ignoredPeakIndices, peakFwhm: fwhm, noiseStd, rise };
}
