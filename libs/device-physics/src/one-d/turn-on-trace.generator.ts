// Synthetic global-accumulation (turn-on) sweeps with exact labels. All gates are swept together; below
// threshold no carriers are accumulated and the amplifier reads its noise floor; above it the current rises
// (subthreshold exponential onset, then roughly linear, then saturation by the series/contact resistance).
// Shape: the same tanh step as the pinch-off model, I = a (1 + tanh u), with different widths below and above the
// centre (w_above = k·w_below, k ∈ [1, 4]: a sharp onset and a slow approach to saturation, as measured on
// Si/SiGe and Ge devices, e.g. Zwerver et al., Nat. Electron. 5, 184 (2022), Fig. 2; Darulová et al. 2020).
// Sweep direction is random (a reversed sweep starts conducting and falls to the floor); polarity too.
//
// Label (MODELS.md): threshold = the first sample, counted from the floor side, at which the clean curve exceeds
// floor + 5 % of its swing inside the window (floor = the closed level; swing = in-window maximum − floor).
// Positives ('turn-on'): the floor is visible for ≥ 10 % of the window and the current passes the steepest
// point (u = 0, half of saturation) at least 10 % of the window before the far end.
// Negatives: 'off' (floor only; any rise starts beyond the window), 'late' (the rise starts in the window but
// the end stays below 10 % of saturation), 'on' (already ≥ 60 % of saturation at the floor-side end),
// 'spike' (a resonance or charge-switching glitch that returns to the floor), 'noise' (pure noise).
import { createSeededRandom, deriveSeed, type SeededRandom } from '../seeded-random.js';
import type { NoiseMix } from '../measurement-noise.js';
import { GATE_SWEEP_SNR_MAX, GATE_SWEEP_SNR_MIN, measureGateSweep } from './gate-sweep-measurement.js';

export const TURN_ON_TRACE_LENGTH = 100;
/** Threshold level: floor + this fraction of the in-window swing. */
export const TURN_ON_THRESHOLD_FRACTION = 0.05;
export const TURN_ON_MIN_FLOOR_FRACTION = 0.1;
export const TURN_ON_MIN_ABOVE_FRACTION = 0.1;

export type TurnOnTraceKind = 'turn-on' | 'off' | 'late' | 'on' | 'spike' | 'noise';
export const TURN_ON_NEGATIVE_KINDS: readonly TurnOnTraceKind[] = ['off', 'late', 'on', 'spike', 'noise'];

export interface TurnOnTraceOptions {
  length?: number;
  kind?: TurnOnTraceKind;
  snrRange?: readonly [number, number];
  /** Force the current to rise along the trace (true) or fall (reversed sweep). */
  rising?: boolean;
  /**
   * Harder, measured-like onsets (issue 16): the tanh shape for a third of the curves; otherwise the EKV
   * interpolation of a field-effect channel, I ∝ ln²(1 + e^{(V − V_t)/2s}) (Enz, Krummenacher & Vittoz, Analog
   * Integr. Circ. Sig. Process. 8, 83 (1995): exponential below threshold, quadratic above), or a power-law onset
   * I ∝ ((V − V_t)/s)^p, p ∈ [1, 2.5] (percolation-like accumulation), each saturated by a series (contact)
   * resistance, I → I/(1 + I/I_sat). Label: the same 5 %-of-swing threshold on the clean curve.
   */
  realistic?: boolean;
}

export interface TurnOnTrace {
  trace: Float64Array;
  kind: TurnOnTraceKind;
  turnsOn: boolean;
  /** Label of positives (integer sample index), else null. */
  thresholdIndex: number | null;
  /** Centre of the tanh (fractional sample), positives only. */
  centre: number | null;
  rising: boolean;
  polarity: 1 | -1;
  noiseStd: number;
  snr: number;
  noiseMix: NoiseMix;
}

/** Asymmetric tanh step in the sweep's own voltage coordinate x (floor at x → −∞), saturation 1. */
function turnOnCurve(x: number, centre: number, below: number, above: number): number {
  const d = x - centre;
  return 0.5 * (1 + Math.tanh(d / (d < 0 ? below : above)));
}

/** Threshold label of a clean curve given along the trace; `rising` tells where the floor is. */
export function turnOnThresholdIndex(clean: Float64Array, floor: number, rising: boolean): number | null {
  const n = clean.length;
  let max = -Infinity;
  for (let i = 0; i < n; i++) max = Math.max(max, clean[i]!);
  const level = floor + TURN_ON_THRESHOLD_FRACTION * (max - floor);
  for (let k = 0; k < n; k++) {
    const i = rising ? k : n - 1 - k;
    if (clean[i]! > level) return i;
  }
  return null;
}

function drawShape(random: SeededRandom, length: number): { below: number; above: number } {
  const below = random.logBetween(1, 0.08 * length);
  return { below, above: below * random.between(1, 4) };
}

export function generateTurnOnTrace(seed: number, options: TurnOnTraceOptions = {}): TurnOnTrace {
  const random = createSeededRandom(deriveSeed(seed, 'turn-on-trace'));
  const length = options.length ?? TURN_ON_TRACE_LENGTH;
  if (!Number.isInteger(length) || length < 16) throw new RangeError(`expected an integer length ≥ 16; got ${length}`);
  const kind = options.kind ?? (random.chance(0.5) ? 'turn-on' : TURN_ON_NEGATIVE_KINDS[random.integer(0, TURN_ON_NEGATIVE_KINDS.length - 1)]!);
  const rising = options.rising ?? random.chance(0.7);
  const snrRange = options.snrRange ?? [GATE_SWEEP_SNR_MIN, GATE_SWEEP_SNR_MAX];
  const { below, above } = drawShape(random, length);
  const onsetReach = Math.atanh(1 - 2 * TURN_ON_THRESHOLD_FRACTION) * below; // centre − threshold distance
  // Position x along the sweep's voltage axis (x = k when rising, reversed otherwise).
  let centre = NaN;
  switch (kind) {
    case 'turn-on': {
      const low = TURN_ON_MIN_FLOOR_FRACTION * length + onsetReach;
      const high = (1 - TURN_ON_MIN_ABOVE_FRACTION) * length - 1;
      centre = random.between(Math.min(low, high), high);
      break;
    }
    case 'off':
      centre = length - 1 + onsetReach + random.between(1, 3) * below;
      break;
    case 'late':
      // The far end reaches at most 10 % of saturation: 0.5(1 + tanh(d/below)) ≤ 0.1.
      centre = length - 1 + Math.atanh(0.8) * below + random.between(0, 1) * below;
      break;
    case 'on':
      // The floor-side end is already at ≥ 60 % of saturation.
      centre = -Math.atanh(0.2) * above - random.between(0, 3) * above;
      break;
    default:
      break;
  }
  const clean = new Float64Array(length);
  const leak = random.chance(0.3) ? random.between(-0.03, 0.03) : 0;
  // Realistic onsets (kind 'turn-on' and the shape of 'off'/'late'/'on' alike): EKV or power law with saturation.
  const shape = options.realistic ? (['tanh', 'ekv', 'power'] as const)[random.integer(0, 2)]! : 'tanh';
  // Drawn only for realistic curves, so the classic generator's random stream (and data) stays as it was.
  const exponent = options.realistic ? random.between(1, 2.5) : 2;
  const saturationRatio = options.realistic ? random.logBetween(0.5, 5) : 1;
  let halfShift = NaN;
  const raw = (x: number): number => {
    if (shape === 'tanh') return turnOnCurve(x, centre, below, above);
    // Threshold V_t placed so the curve reaches half of saturation at `centre`; slope scale from `below`.
    const s = below;
    const g = (d: number): number => (shape === 'ekv' ? Math.log1p(Math.exp(Math.min(50, d / (2 * s)))) ** 2 : d > 0 ? (d / s) ** exponent : 0);
    const sat = (i: number): number => i / (1 + i / saturationRatio);
    if (Number.isNaN(halfShift)) {
      // Solve sat(g(d_half)) = ½·saturationRatio (half of the saturation current) by bisection, once.
      let lo = -50 * s;
      let hi = 200 * s + 50 * above;
      for (let k = 0; k < 80; k++) {
        const mid = 0.5 * (lo + hi);
        if (sat(g(mid)) < 0.5 * saturationRatio) lo = mid;
        else hi = mid;
      }
      halfShift = 0.5 * (lo + hi);
    }
    return sat(g(x - centre + halfShift)) / saturationRatio;
  };
  const spike =
    kind === 'spike'
      ? { at: random.between(0.2, 0.8) * length, width: random.between(0.7, 0.04 * length + 1), height: random.between(0.3, 1), telegraph: random.chance(0.4) }
      : null;
  for (let k = 0; k < length; k++) {
    const i = rising ? k : length - 1 - k;
    let v = Number.isNaN(centre) ? 0 : raw(k);
    if (spike) {
      if (spike.telegraph) v += Math.abs(k - spike.at) <= 2 * spike.width + 1 ? spike.height : 0;
      else v += spike.height / Math.cosh((k - spike.at) / spike.width) ** 2;
    }
    clean[i] = v;
  }
  const thresholdIndex = kind === 'turn-on' ? turnOnThresholdIndex(clean, 0, rising) : null;
  for (let i = 0; i < length; i++) clean[i] = clean[i]! + leak * (i / (length - 1) - 0.5) * (kind === 'noise' ? 0 : 1);
  const measured = measureGateSweep(random, clean, snrRange);
  if (kind === 'noise') {
    const shift = random.between(-20, 20) * measured.noiseStd;
    for (let i = 0; i < length; i++) measured.trace[i] = measured.trace[i]! + shift;
  }
  return {
    trace: measured.trace,
    kind,
    turnsOn: kind === 'turn-on',
    thresholdIndex,
    centre: kind === 'turn-on' ? (rising ? centre : length - 1 - centre) : null,
    rising,
    polarity: measured.polarity,
    noiseStd: measured.noiseStd,
    snr: measured.snr,
    noiseMix: measured.noiseMix,
  };
}
