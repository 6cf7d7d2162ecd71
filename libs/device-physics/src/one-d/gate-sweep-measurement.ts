// Measurement chain shared by the simulated gate sweeps (pinch-off, turn-on): current-amplifier noise and
// instrument artefacts added to a clean I(V) curve given in units of its swing.
// - white (amplifier) + 1/f charge noise + random telegraph noise from a two-level fluctuator (see
//   ../measurement-noise.ts for the references), total std = swing / SNR;
// - an instrument offset (the "zero" a current amplifier reads when the channel is closed, a few % of the swing);
// - optional ADC quantisation (a current floor: nothing below one least-significant bit is resolved);
// - a random unit scale (pA … µA or arbitrary amplifier volts) and polarity (electron or hole current,
//   inverting amplifier).
import { mixedNoise, standardDeviation, type NoiseMix } from '../measurement-noise.js';
import type { SeededRandom } from '../seeded-random.js';

/** Swing / total noise std, drawn log-uniformly. */
export const GATE_SWEEP_SNR_MIN = 10;
export const GATE_SWEEP_SNR_MAX = 300;
/** Largest instrument offset, fraction of the swing. */
export const MAX_OFFSET_PER_SWING = 0.04;

export interface GateSweepMeasurement {
  trace: Float64Array;
  /** Realised noise std, trace units. */
  noiseStd: number;
  snr: number;
  noiseMix: NoiseMix;
  /** +1 or −1: sign of the conducting current. */
  polarity: 1 | -1;
  /** Trace units per unit of swing (signed by polarity). */
  scale: number;
  /** Instrument offset, trace units. */
  offset: number;
}

export function drawGateSweepNoiseMix(random: SeededRandom): NoiseMix {
  const pink = random.chance(0.7) ? random.between(0.05, 0.5) : 0;
  const telegraph = random.chance(0.35) ? random.between(0.05, 0.3) : 0;
  return { white: 1 - pink - telegraph, pink, telegraph, telegraphDwellSamples: random.logBetween(8, 60) };
}

/** Adds noise and artefacts to `clean` (swing units, closed level 0) in place of a copy. */
export function measureGateSweep(random: SeededRandom, clean: Float64Array, snrRange: readonly [number, number]): GateSweepMeasurement {
  const n = clean.length;
  const snr = random.logBetween(snrRange[0], snrRange[1]);
  const noiseMix = drawGateSweepNoiseMix(random);
  const noise = mixedNoise(random, n, noiseMix);
  const polarity: 1 | -1 = random.chance(0.75) ? 1 : -1;
  const magnitude = random.logBetween(1e-12, 1e2);
  const scale = polarity * magnitude;
  const offsetSwing = random.between(-MAX_OFFSET_PER_SWING, MAX_OFFSET_PER_SWING);
  const quantum = random.chance(0.25) ? 1 / random.logBetween(100, 2000) : 0;
  const trace = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let v = clean[i]! + offsetSwing + noise[i]! / snr;
    if (quantum > 0) v = Math.round(v / quantum) * quantum;
    trace[i] = scale * v;
  }
  return { trace, noiseStd: (magnitude * standardDeviation(noise)) / snr, snr, noiseMix, polarity, scale, offset: scale * offsetSwing };
}
