// Long pinch-off sweeps whose closed level is not zero, with exact labels (issue 29).
// Physical reason: a current amplifier's input offset, or leakage through the gate dielectric / a parallel path,
// adds a constant current of a few per cent of the open level, of either sign, so the pinched-off plateau sits
// beside zero; FastDAC-style sweeps record 1 000–10 000 points; the open channel's conductance keeps rising with gate
// overdrive (G ∝ V − V_th), so the open level slopes (TimChild dat717/dat719). Model: I = I₀ + a(1 + tanh u)(1 + g·d),
// u = s(i − x₀)/w, d = distance into the open side / L, g ∈ [0, 2], I₀ = ±(1–8 %) of the largest open current;
// white noise (swing/σ 20–300) plus slow 1/f drift. Labels as MODELS.md (of the main tanh): transition x₀,
// cut-off / saturation x₀ ± s·w·atanh(1/√3). 'multi-step' negatives: a staircase of 3–4 comparable steps across the
// window with the same offset and noise — not one pinch-off.
import { createSeededRandom, deriveSeed } from '../seeded-random.js';
import { pinkNoise } from '../measurement-noise.js';
import { TANH_KNEE_U } from './pinch-off-trace.generator.js';

export type OffsetPinchOffKind = 'pinch-off' | 'multi-step';
export const OFFSET_PINCH_OFF_LENGTH_RANGE = [1000, 10000] as const;
/** |I₀| / largest open current. */
export const OFFSET_PINCH_OFF_OFFSET_RANGE = [0.01, 0.08] as const;

export interface OffsetPinchOffTrace {
  trace: Float64Array;
  kind: OffsetPinchOffKind;
  isPinchOff: boolean;
  cutOff: number | null;
  transition: number | null;
  saturation: number | null;
  width: number;
  /** I₀ / largest open current (signed). */
  offsetRatio: number;
  closing: boolean;
  /** Sign of the current (the open level's sign). */
  polarity: 1 | -1;
}

export function generateOffsetPinchOffTrace(seed: number, options: { length?: number; kind?: OffsetPinchOffKind } = {}): OffsetPinchOffTrace {
  const random = createSeededRandom(deriveSeed(seed, 'offset-pinch-off'));
  const length = options.length ?? Math.round(random.logBetween(OFFSET_PINCH_OFF_LENGTH_RANGE[0], OFFSET_PINCH_OFF_LENGTH_RANGE[1]));
  const kind = options.kind ?? (random.chance(0.7) ? 'pinch-off' : 'multi-step');
  const closing = random.chance(0.5);
  const s = closing ? 1 : -1;
  const sign = random.chance(0.85) ? 1 : -1; // current polarity
  const amplitude = sign * random.logBetween(1e-11, 1e-7);
  const clean = new Float64Array(length);
  let x0 = 0;
  let width = 0;
  if (kind === 'pinch-off') {
    width = random.logBetween(0.003, 0.03) * length;
    // Both plateaus: |tanh u| ≥ 0.95 over ≥ 15 % of the window each.
    const margin = 0.15 * length + width * Math.atanh(0.95);
    x0 = random.between(margin, length - 1 - margin);
    const g = random.chance(0.7) ? random.between(0.3, 2) : 0;
    for (let i = 0; i < length; i++) {
      const u = (s * (i - x0)) / width;
      const d = Math.max(0, (-s * (i - x0)) / length);
      clean[i] = amplitude * (1 + Math.tanh(-u)) * (1 + g * d);
    }
  } else {
    const steps = random.integer(3, 4);
    const w = random.logBetween(0.005, 0.02) * length;
    for (let k = 0; k < steps; k++) {
      const centre = ((k + 0.5 + random.between(-0.15, 0.15)) / steps) * length;
      const height = random.between(0.7, 1.3);
      for (let i = 0; i < length; i++) clean[i]! += ((amplitude * height) / steps) * (1 + Math.tanh((-s * (i - centre)) / w));
    }
  }
  let open = 0;
  for (let i = 0; i < length; i++) open = Math.max(open, Math.abs(clean[i]!));
  const offsetRatio = (random.chance(0.5) ? 1 : -1) * random.between(OFFSET_PINCH_OFF_OFFSET_RANGE[0], OFFSET_PINCH_OFF_OFFSET_RANGE[1]);
  const swing = open;
  const sigma = swing / random.logBetween(20, 300);
  const drift = pinkNoise(random, length);
  const driftScale = random.chance(0.5) ? random.between(0, 0.5) : 0;
  const trace = new Float64Array(length);
  for (let i = 0; i < length; i++) trace[i] = clean[i]! + sign * offsetRatio * open + sigma * (random.normal() + driftScale * drift[i]!);
  const isPinchOff = kind === 'pinch-off';
  return {
    trace,
    kind,
    isPinchOff,
    transition: isPinchOff ? x0 : null,
    cutOff: isPinchOff ? x0 + s * width * TANH_KNEE_U : null,
    saturation: isPinchOff ? x0 - s * width * TANH_KNEE_U : null,
    width,
    offsetRatio,
    closing,
    polarity: sign === 1 ? 1 : -1,
  };
}
