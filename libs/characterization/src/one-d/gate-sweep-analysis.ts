// Shared physics of a gate sweep (pinch-off or turn-on): the bounded tanh-step fit, which plateau is the
// pinched-off/closed one (the one nearer zero current: a closed channel carries no current, whatever the sign of
// the conducting current and the direction of the sweep), and fit-quality measures that the classifiers gate on.
import { runningMedian } from '../signal/order-statistics.js';
import { fitTanhStep, type TanhStepFit } from './tanh-step-fit.js';

/** Running-median half width used for the shape measures (samples): removes telegraph spikes, keeps steps. */
export const MEDIAN_HALF_WIDTH = 2;

export interface GateSweepAnalysis {
  fit: TanhStepFit;
  /** Full current swing of the fitted step, |2A| (trace units). */
  swing: number;
  /** Swing / robust noise σ (∞ for a noise-free step). */
  snr: number;
  /** True when the closed (near-zero) level lies at the high-index end: the current falls along the trace. */
  closing: boolean;
  /** |closed level| / swing: ≈ 0 for a real channel (only the instrument offset). */
  closedLevelRatio: number;
  /**
   * |closed level| / the largest |current| of the fitted curve in the window: the offset as a physicist quotes it,
   * "a few per cent of the open level" (with a sloping open level the swing at the step's centre is smaller).
   */
  closedLevelToOpen: number;
  /** tanh u at the closed-side and open-side ends of the window (→ 1 when each plateau is reached). */
  closedEndReach: number;
  openEndReach: number;
  /** Largest excursion of the median-filtered trace against the step's direction, / swing. */
  counterExcursion: number;
  /** Largest |median-filtered trace − fit| / swing. */
  maxDeviation: number;
  /** RMS residual / swing. */
  nrmse: number;
}

export function analyseGateSweep(trace: Float64Array, symmetric: boolean, plateauSlopes = false): GateSweepAnalysis {
  const n = trace.length;
  const fit = fitTanhStep(trace, symmetric, plateauSlopes);
  const swing = 2 * Math.abs(fit.amplitude);
  const tiny = 1e-300;
  // Plateau levels extrapolated to the step's centre (each plateau with its own slope k ∓ m).
  const vc = (fit.centre - n / 2) / n;
  const levelLeft = fit.offset - fit.amplitude + (fit.slope - fit.plateauSlope) * vc;
  const levelRight = fit.offset + fit.amplitude + (fit.slope + fit.plateauSlope) * vc;
  const closing = Math.abs(levelRight) < Math.abs(levelLeft);
  const sign = Math.sign(fit.amplitude) || 1;
  // tanh u at both ends, oriented so +1 means "on the plateau".
  const leftReach = Math.tanh(fit.centre / fit.widthLeft);
  const rightReach = Math.tanh((n - 1 - fit.centre) / fit.widthRight);
  const closedEndReach = closing ? rightReach : leftReach;
  const openEndReach = closing ? leftReach : rightReach;

  const smooth = runningMedian(trace, MEDIAN_HALF_WIDTH);
  // Direction of the step along i: +1 rising, −1 falling.
  const direction = sign;
  let counter = 0;
  let extreme = direction * smooth[0]!;
  let maxDeviation = 0;
  for (let i = 0; i < n; i++) {
    const v = direction * smooth[i]!;
    extreme = Math.max(extreme, v);
    counter = Math.max(counter, extreme - v);
    maxDeviation = Math.max(maxDeviation, Math.abs(smooth[i]! - fit.curve[i]!));
  }
  const norm = Math.max(swing, tiny);
  let openMax = 0;
  for (let i = 0; i < n; i++) openMax = Math.max(openMax, Math.abs(fit.curve[i]!));
  const closedLevel = Math.min(Math.abs(levelLeft), Math.abs(levelRight));
  return {
    fit,
    swing,
    snr: fit.noiseStd > 0 ? swing / fit.noiseStd : swing > 0 ? Infinity : 0,
    closing,
    closedLevelRatio: closedLevel / norm,
    closedLevelToOpen: closedLevel / Math.max(openMax, norm, tiny),
    closedEndReach,
    openEndReach,
    counterExcursion: counter / norm,
    maxDeviation: maxDeviation / norm,
    nrmse: fit.rmse / norm,
  };
}

/**
 * Traces longer than MAX_FIT_LENGTH (FastDAC sweeps of 5 000–10 000 points) are fitted on block means of `factor`
 * samples (white noise averages down by √factor; a transition narrower than a block is rare at these lengths);
 * reduced position r maps back to the caller's sample (r + ½)·factor − ½.
 */
export const MAX_FIT_LENGTH = 1024;

export function reduceTrace(trace: Float64Array): { data: Float64Array; factor: number } {
  const factor = Math.ceil(trace.length / MAX_FIT_LENGTH);
  if (factor <= 1) return { data: trace, factor: 1 };
  const m = Math.ceil(trace.length / factor);
  const data = new Float64Array(m);
  for (let k = 0; k < m; k++) {
    let s = 0;
    const end = Math.min(trace.length, (k + 1) * factor);
    for (let i = k * factor; i < end; i++) s += trace[i]!;
    data[k] = s / (end - k * factor);
  }
  return { data, factor };
}

export const toCallerSample = (r: number, factor: number): number => (factor === 1 ? r : (r + 0.5) * factor - 0.5);
