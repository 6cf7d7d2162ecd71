// Noise found in low-temperature transport and microwave measurements, each generated with
// zero mean and unit standard deviation over the trace (so callers scale by variance fractions):
// - white (amplifier/Johnson) noise: i.i.d. Gaussian;
// - 1/f (pink) charge noise: Voss–McCartney algorithm (M. Gardner, Sci. Am. 238 (1978) 16), which sums
//   octave-spaced sample-and-hold Gaussian rows, giving a 1/f spectrum over log2(n) octaves;
// - random telegraph noise from one bistable two-level fluctuator (Kirton & Uren, Adv. Phys. 38, 367 (1989)):
//   exponential dwell times, here with means in samples.
import type { SeededRandom } from './seeded-random.js';

export interface NoiseMix {
  /** Variance fractions of the total noise; they sum to 1. */
  white: number;
  pink: number;
  telegraph: number;
  /** Mean dwell time of the fluctuator in each state, samples. */
  telegraphDwellSamples: number;
}

function normalise(values: Float64Array): Float64Array {
  const n = values.length;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += values[i]!;
  mean /= n;
  let variance = 0;
  for (let i = 0; i < n; i++) variance += (values[i]! - mean) ** 2;
  const std = Math.sqrt(variance / n);
  for (let i = 0; i < n; i++) values[i] = std > 0 ? (values[i]! - mean) / std : 0;
  return values;
}

export function whiteNoise(random: SeededRandom, length: number): Float64Array {
  const out = new Float64Array(length);
  for (let i = 0; i < length; i++) out[i] = random.normal();
  return normalise(out);
}

export function pinkNoise(random: SeededRandom, length: number): Float64Array {
  const rows = Math.max(1, Math.ceil(Math.log2(Math.max(2, length))) + 1);
  const held = new Float64Array(rows);
  let sum = 0;
  for (let r = 0; r < rows; r++) {
    held[r] = random.normal();
    sum += held[r]!;
  }
  const out = new Float64Array(length);
  for (let i = 0; i < length; i++) {
    // Row r is refreshed every 2^r samples: the row whose bit flips is the counter's trailing-zero count.
    const counter = i + 1;
    const row = Math.min(rows - 1, 31 - Math.clz32(counter & -counter));
    sum -= held[row]!;
    held[row] = random.normal();
    sum += held[row]!;
    out[i] = sum + random.normal();
  }
  return normalise(out);
}

export function telegraphNoise(random: SeededRandom, length: number, meanDwellSamples: number): Float64Array {
  const out = new Float64Array(length);
  const switchProbability = 1 - Math.exp(-1 / Math.max(1, meanDwellSamples));
  let state = random.chance(0.5) ? 1 : -1;
  for (let i = 0; i < length; i++) {
    if (random.chance(switchProbability)) state = -state;
    out[i] = state;
  }
  return normalise(out);
}

/** Sum of the three noise kinds with the given variance fractions; unit standard deviation when all are present. */
export function mixedNoise(random: SeededRandom, length: number, mix: NoiseMix): Float64Array {
  const out = new Float64Array(length);
  const parts: [number, () => Float64Array][] = [
    [mix.white, () => whiteNoise(random, length)],
    [mix.pink, () => pinkNoise(random, length)],
    [mix.telegraph, () => telegraphNoise(random, length, mix.telegraphDwellSamples)],
  ];
  for (const [fraction, make] of parts) {
    if (fraction <= 0) continue;
    const part = make();
    const weight = Math.sqrt(fraction);
    for (let i = 0; i < length; i++) out[i] = out[i]! + weight * part[i]!;
  }
  return out;
}

export function standardDeviation(values: Float64Array): number {
  const n = values.length;
  if (n === 0) return 0;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += values[i]!;
  mean /= n;
  let variance = 0;
  for (let i = 0; i < n; i++) variance += (values[i]! - mean) ** 2;
  return Math.sqrt(variance / n);
}
