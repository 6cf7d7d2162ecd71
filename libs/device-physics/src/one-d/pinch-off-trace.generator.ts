// Synthetic pinch-off sweeps with exact labels. Model (the standard pinch-off fit, e.g. Darulová et al., Phys.
// Rev. Appl. 13, 054005 (2020); qtt's fitPinchOff): I(V) = a (1 + tanh u), u = b·V + c, here written per sample
// as u = s (i − x₀)/w (s = ±1: the sweep opens or closes the channel; w = width in samples).
// Labels (MODELS.md): transition = x₀ (u = 0, steepest point); cut-off and saturation = extrema of d²I/dV²,
// tanh u = ∓1/√3 (21.1 % and 78.9 % of the swing), i.e. x₀ ∓ s·w·atanh(1/√3) — cut-off on the pinched-off side.
//
// Positives ('pinch-off'): one transition with both plateaus inside: |tanh u| ≥ 0.9 at both ends and at least
// PLATEAU_MIN_FRACTION of the window on each plateau. Defects: a shoulder from a second, weaker parallel channel
// (≤ 25 % of the swing, within ±2.5 w of the main transition), a leakage slope (≤ 5 % of the swing across the
// window), instrument offset, quantisation, white/1/f/telegraph noise (gate-sweep-measurement.ts).
// Negatives, each clearly on the far side of the definition (no borderline draws):
// 'flat-closed', 'flat-open' (no transition), 'outside-window' (only one plateau: the window ends where
// |tanh u| ≤ 0.5, or the whole transition lies outside), 'non-monotonic' (a resonance of ≥ 30 % of the swing
// on the closed side, or a channel that closes and re-opens by ≥ 50 %), 'multi-step' (a staircase of 3–5
// comparable steps spread over the window: no single transition, no plateau between them long enough to
// call either end "the" plateau), 'noise' (pure noise at an arbitrary level).
import { createSeededRandom, deriveSeed, type SeededRandom } from '../seeded-random.js';
import type { NoiseMix } from '../measurement-noise.js';
import { GATE_SWEEP_SNR_MAX, GATE_SWEEP_SNR_MIN, measureGateSweep } from './gate-sweep-measurement.js';

export const PINCH_OFF_TRACE_LENGTH = 100;
/** atanh(1/√3): |u| of the d²I/dV² extrema of a tanh step. */
export const TANH_KNEE_U = Math.atanh(1 / Math.sqrt(3));
/** Plateau: |tanh u| ≥ 0.9 (u ≥ atanh 0.9) at each end, over at least this fraction of the window. */
export const PLATEAU_TANH = 0.9;
export const PLATEAU_MIN_FRACTION = 0.08;
/** Width (samples) range of the main transition, as a fraction of the window: [MIN, MAX]·L, MIN ≥ 1 sample. */
export const MIN_WIDTH_SAMPLES = 1;
export const MAX_WIDTH_PER_LENGTH = 0.1;

export type PinchOffTraceKind = 'pinch-off' | 'flat-closed' | 'flat-open' | 'outside-window' | 'non-monotonic' | 'multi-step' | 'noise';
export const PINCH_OFF_NEGATIVE_KINDS: readonly PinchOffTraceKind[] = ['flat-closed', 'flat-open', 'outside-window', 'non-monotonic', 'multi-step', 'noise'];

export interface PinchOffTraceOptions {
  length?: number;
  /** Default: 'pinch-off' with probability ½, else one of the negatives. */
  kind?: PinchOffTraceKind;
  snrRange?: readonly [number, number];
  /** Force the sweep to close (+1: current falls along the trace) or open (−1) the channel. */
  closing?: boolean;
  /**
   * Harder, measured-like positives (issue 16): 70 % get a sloping conducting level — the open channel's
   * conductance keeps rising with gate overdrive, G ∝ (V − V_th), so the open level grows linearly away from the
   * transition, I = a(1 + tanh u)·(1 + g·d), d = distance into the open side / L, g ∈ [0.3, 2.5] (TimChild dat719:
   * 12 → 41 nA over the open side) — and 35 % a second shoulder (two parallel channels pinching off at different
   * voltages, qtt B8). Labels stay those of the main tanh (x₀, w).
   */
  realistic?: boolean;
}

export interface PinchOffTrace {
  trace: Float64Array;
  kind: PinchOffTraceKind;
  isPinchOff: boolean;
  /** Exact labels (fractional samples) of positives, else null. */
  cutOff: number | null;
  transition: number | null;
  saturation: number | null;
  /** Width w of the main tanh, samples (u = (i − x₀)/w). */
  width: number;
  /** True when the current falls along the trace (conducting → pinched off). */
  closing: boolean;
  polarity: 1 | -1;
  noiseStd: number;
  snr: number;
  noiseMix: NoiseMix;
}

const step = (i: number, centre: number, width: number, closing: boolean): number => 0.5 * (1 + Math.tanh(((closing ? -1 : 1) * (i - centre)) / width));

function drawWidth(random: SeededRandom, length: number): number {
  return random.logBetween(MIN_WIDTH_SAMPLES, Math.max(MIN_WIDTH_SAMPLES * 1.01, MAX_WIDTH_PER_LENGTH * length));
}

/** Clean pinch-off curve (swing 1, closed level 0) of a positive, with its labels. */
function positive(random: SeededRandom, length: number, closing: boolean, realistic = false): { clean: Float64Array; centre: number; width: number } {
  const width = drawWidth(random, length);
  const plateau = PLATEAU_MIN_FRACTION * length;
  const reach = Math.atanh(PLATEAU_TANH) * width;
  const shoulder = random.chance(0.35)
    ? { height: random.between(0.05, 0.25), shift: random.between(-2.5, 2.5) * width, width: width * random.between(0.5, 1.5) }
    : null;
  const extra = shoulder ? Math.abs(shoulder.shift) + Math.atanh(PLATEAU_TANH) * shoulder.width : 0;
  const margin = plateau + Math.max(reach, extra);
  const centre = random.between(margin, Math.max(margin, length - 1 - margin));
  const leak = random.chance(0.3) ? random.between(-0.05, 0.05) : 0;
  const slope = realistic && random.chance(0.7) ? random.between(0.3, 2.5) : 0;
  const second =
    realistic && shoulder && random.chance(0.35)
      ? { height: random.between(0.05, 0.2), shift: -shoulder.shift * random.between(0.5, 1), width: width * random.between(0.5, 1.5) }
      : null;
  // The step itself keeps unit height (the SNR is the transition's); the open level grows beyond it.
  const clean = new Float64Array(length);
  for (let i = 0; i < length; i++) {
    let v = step(i, centre, width, closing);
    if (shoulder) v = (v + shoulder.height * step(i, centre + shoulder.shift, shoulder.width, closing)) / (1 + shoulder.height);
    if (second) v = (v + second.height * step(i, centre + second.shift, second.width, closing)) / (1 + second.height);
    // Open-side distance from the transition (0 on the closed side).
    const into = Math.max(0, (closing ? centre - i : i - centre) / length);
    clean[i] = v * (1 + slope * into) + leak * (i / Math.max(1, length - 1) - 0.5);
  }
  return { clean, centre, width };
}

function negative(random: SeededRandom, kind: PinchOffTraceKind, length: number, closing: boolean): Float64Array {
  const clean = new Float64Array(length);
  const width = drawWidth(random, length);
  const leak = random.chance(0.3) ? random.between(-0.05, 0.05) : 0;
  for (let i = 0; i < length; i++) clean[i] = leak * (i / Math.max(1, length - 1) - 0.5);
  switch (kind) {
    case 'flat-closed':
    case 'noise':
      break;
    case 'flat-open':
      for (let i = 0; i < length; i++) clean[i] = clean[i]! + 1;
      break;
    case 'outside-window': {
      // The end nearest the transition sits at |tanh u| ≤ 0.5 (or the transition is wholly outside).
      const cut = Math.atanh(0.5) * width;
      const beyondEnd = random.chance(0.5);
      const distance = random.between(-cut, 6 * width);
      const centre = beyondEnd ? length - 1 + distance : -distance;
      for (let i = 0; i < length; i++) clean[i] = clean[i]! + step(i, centre, width, closing);
      break;
    }
    case 'non-monotonic': {
      const centre = random.between(0.3, 0.7) * length;
      if (random.chance(0.5)) {
        // A resonance (Coulomb peak of an unintentional dot) on the closed side, ≥ 30 % of the swing.
        const side = closing ? 1 : -1;
        const peakAt = centre + side * random.between(3 * width, 0.25 * length);
        const peakWidth = random.between(1.5, 0.05 * length + 1.5);
        const height = random.between(0.3, 1.2);
        for (let i = 0; i < length; i++) {
          const c = Math.cosh((i - peakAt) / peakWidth);
          clean[i] = clean[i]! + step(i, centre, width, closing) + height / (c * c);
        }
      } else {
        // The channel closes, then re-opens by ≥ 50 % of the swing further along the sweep.
        const first = random.between(0.15, 0.4) * length;
        const second = random.between(0.6, 0.85) * length;
        const back = random.between(0.5, 1);
        for (let i = 0; i < length; i++) clean[i] = clean[i]! + 1 - step(i, first, width, false) + back * step(i, second, width, false);
      }
      break;
    }
    case 'multi-step': {
      const steps = random.integer(3, 5);
      const heights = Array.from({ length: steps }, () => random.between(0.6, 1.4));
      const total = heights.reduce((a, b) => a + b, 0);
      const narrow = Math.min(width, (0.8 * length) / steps / 6);
      for (let k = 0; k < steps; k++) {
        const at = length * (0.1 + (0.8 * (k + 0.5 + random.between(-0.15, 0.15))) / steps);
        for (let i = 0; i < length; i++) clean[i] = clean[i]! + (heights[k]! / total) * step(i, at, narrow, closing);
      }
      break;
    }
    case 'pinch-off':
      throw new RangeError('positive kind passed to negative()');
  }
  return clean;
}

export function generatePinchOffTrace(seed: number, options: PinchOffTraceOptions = {}): PinchOffTrace {
  const random = createSeededRandom(deriveSeed(seed, 'pinch-off-trace'));
  const length = options.length ?? PINCH_OFF_TRACE_LENGTH;
  if (!Number.isInteger(length) || length < 16) throw new RangeError(`expected an integer length ≥ 16; got ${length}`);
  const kind = options.kind ?? (random.chance(0.5) ? 'pinch-off' : PINCH_OFF_NEGATIVE_KINDS[random.integer(0, PINCH_OFF_NEGATIVE_KINDS.length - 1)]!);
  const closing = options.closing ?? random.chance(0.5);
  const snrRange = options.snrRange ?? [GATE_SWEEP_SNR_MIN, GATE_SWEEP_SNR_MAX];
  let clean: Float64Array;
  let labels: { cutOff: number; transition: number; saturation: number } | null = null;
  let width = 0;
  if (kind === 'pinch-off') {
    const p = positive(random, length, closing, options.realistic ?? false);
    clean = p.clean;
    width = p.width;
    // Closing (current falls along i): the pinched-off side is at larger i.
    const s = closing ? 1 : -1;
    labels = { transition: p.centre, cutOff: p.centre + s * TANH_KNEE_U * p.width, saturation: p.centre - s * TANH_KNEE_U * p.width };
  } else {
    clean = negative(random, kind, length, closing);
  }
  const measured = measureGateSweep(random, clean, snrRange);
  if (kind === 'noise') {
    // Pure noise at an arbitrary level: shift by up to ±20 noise std.
    const shift = random.between(-20, 20) * measured.noiseStd;
    for (let i = 0; i < length; i++) measured.trace[i] = measured.trace[i]! + shift;
  }
  return {
    trace: measured.trace,
    kind,
    isPinchOff: kind === 'pinch-off',
    cutOff: labels?.cutOff ?? null,
    transition: labels?.transition ?? null,
    saturation: labels?.saturation ?? null,
    width,
    closing,
    polarity: measured.polarity,
    noiseStd: measured.noiseStd,
    snr: measured.snr,
    noiseMix: measured.noiseMix,
  };
}
