// Turn-on sweeps from an onset model that is not a tanh (issue 16: a stand-in for curves from another lab's
// generator), with unkind measurement artefacts. Written independently of turn-on-trace.generator.ts.
// Above the threshold voltage V_t the accumulated channel conducts as
//   - a power law, I ∝ ((V − V_t)/s)^p, p ∈ [1, 3] (p = 1: linear above threshold, the textbook FET in the linear
//     regime; p = 2: square law; larger p: percolation-like onsets of disordered 2DEGs, Tracy et al., Phys. Rev. B 79,
//     235307 (2009));
//   - or an exponential, I ∝ e^{(V − V_t)/s} − 1 (an activated onset that starts with a kink at V_t);
// and is zero below it; the series (contact) resistance saturates the current, I → I_sat (1 − e^{−I/I_sat}).
// Artefacts (fractions of the in-window swing): amplifier offset ±10 %, a linear baseline drift ±5 % over the sweep,
// 1/f drift (std 0–2 %), white noise with SNR = swing/σ log-uniform in [8, 200], 20 % of traces quantised (ADC step
// 1/200–1/30 of the swing), a random unit scale, polarity and sweep direction (30 % reversed).
// Labels: threshold (MODELS.md) = the first sample, from the floor side, where the clean onset curve (no offset, drift
// or noise) exceeds 5 % of its in-window swing; also the physical threshold V_t as a fractional sample.
import { pinkNoise } from '../measurement-noise.js';
import { createSeededRandom, deriveSeed } from '../seeded-random.js';
import { turnOnThresholdIndex } from './turn-on-trace.generator.js';

export type OnsetShape = 'power' | 'exponential';

export interface OnsetTurnOnTrace {
  trace: Float64Array;
  shape: OnsetShape;
  exponent: number;
  /** MODELS.md label (integer sample). */
  thresholdIndex: number;
  /** V_t as a fractional sample of the trace as returned. */
  onsetIndex: number;
  rising: boolean;
  snr: number;
}

export interface OnsetTurnOnOptions {
  length?: number;
  shape?: OnsetShape;
}

export function generateOnsetTurnOnTrace(seed: number, options: OnsetTurnOnOptions = {}): OnsetTurnOnTrace {
  const random = createSeededRandom(deriveSeed(seed, 'onset-turn-on'));
  const n = options.length ?? 100;
  if (!Number.isInteger(n) || n < 32) throw new RangeError(`expected an integer length ≥ 32; got ${n}`);
  const shape: OnsetShape = options.shape ?? (random.chance(0.5) ? 'power' : 'exponential');
  const exponent = shape === 'power' ? random.between(1, 3) : 1;
  // Threshold in the first 15–55 % of the sweep; scale s such that the curve reaches ≥ 60 % of saturation in-window.
  const vt = random.between(0.15, 0.55) * (n - 1);
  const room = n - 1 - vt;
  const s = random.between(0.05, 0.35) * room;
  const saturation = random.logBetween(0.5, 4); // I_sat in units of the onset scale current
  const onset = (v: number): number => {
    if (v <= vt) return 0;
    const u = (v - vt) / s;
    const i = shape === 'power' ? u ** exponent : Math.expm1(Math.min(50, u));
    return saturation * -Math.expm1(-i / saturation);
  };
  const rising = random.chance(0.7);
  const clean = new Float64Array(n);
  for (let k = 0; k < n; k++) clean[rising ? k : n - 1 - k] = onset(k);
  let swing = 0;
  for (const v of clean) swing = Math.max(swing, v);
  for (let i = 0; i < n; i++) clean[i] = clean[i]! / swing;
  const thresholdIndex = turnOnThresholdIndex(clean, 0, rising)!;

  const snr = random.logBetween(8, 200);
  const offset = random.between(-0.1, 0.1);
  const drift = random.between(-0.05, 0.05);
  const wander = pinkNoise(random, n);
  const wanderStd = random.between(0, 0.02);
  const quantum = random.chance(0.2) ? 1 / random.logBetween(30, 200) : 0;
  const scale = (random.chance(0.7) ? 1 : -1) * random.logBetween(1e-12, 1e-6);
  const trace = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let v = clean[i]! + offset + drift * (i / (n - 1) - 0.5) + wanderStd * wander[i]! + random.normal() / snr;
    if (quantum > 0) v = Math.round(v / quantum) * quantum;
    trace[i] = scale * v;
  }
  return { trace, shape, exponent, thresholdIndex, onsetIndex: rising ? vt : n - 1 - vt, rising, snr };
}
