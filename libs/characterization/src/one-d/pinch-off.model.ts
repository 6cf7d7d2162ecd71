// pinch-off-classifier-v0 and pinch-off-parameter-extractor-v0 — a bounded tanh fit I = a(1 + tanh(bV + c)) with
// a leakage slope (tanh-step-fit.ts; the standard pinch-off model, Darulová et al., Phys. Rev. Appl. 13, 054005
// (2020); qtt fitPinchOff) and physics gates on the fit. The extractor reports the MODELS.md labels of the fitted
// tanh: transition = centre (u = 0); cut-off / saturation = extrema of d²I/dV², tanh u = ∓1/√3, i.e.
// x₀ ± w·atanh(1/√3), cut-off on the side of the plateau nearer zero current, whichever way the sweep runs.
// Gates (tuned on TUNING_SEEDS, see docs/models/one-d.md): swing ≥ 5 σ; closed plateau within 15 % of the largest
// open current of zero current (an amplifier or leakage offset); both ends of the window on their plateaus (|tanh u| ≥ 0.8); monotonic (median-filtered trace
// never moves against the step by more than 40 % of the swing, never strays more than 20 % from the fit); R² ≥ 0.8.
import { analyseGateSweep, reduceTrace, toCallerSample, type GateSweepAnalysis } from './gate-sweep-analysis.js';

export const PINCH_OFF_MIN_SNR = 5;
export const PINCH_OFF_MAX_CLOSED_LEVEL = 0.15;
export const PINCH_OFF_MIN_PLATEAU_REACH = 0.8;
export const PINCH_OFF_MAX_COUNTER_EXCURSION = 0.4;
export const PINCH_OFF_MAX_DEVIATION = 0.2;
export const PINCH_OFF_MIN_R_SQUARED = 0.8;
/** atanh(1/√3): |u| of the d²I/dV² extrema. */
export const KNEE_U = Math.atanh(1 / Math.sqrt(3));

export interface PinchOffFit {
  classification: boolean;
  /** Fractional sample positions from the fit (may lie outside the window). */
  cutOff: number;
  transition: number;
  saturation: number;
  analysis: GateSweepAnalysis;
  /** Names of the gates that failed (empty when classification is true). */
  failedGates: string[];
  /** Caller samples per fitted sample (> 1 for traces longer than MAX_FIT_LENGTH). */
  factor: number;
}

export function fitPinchOff(input: Float64Array): PinchOffFit {
  const { data: trace, factor } = reduceTrace(input);
  const analysis = analyseGateSweep(trace, true, true);
  const { fit } = analysis;
  const s = analysis.closing ? 1 : -1;
  const failedGates: string[] = [];
  if (!(analysis.snr >= PINCH_OFF_MIN_SNR)) failedGates.push('swing/noise');
  if (!(analysis.closedLevelToOpen <= PINCH_OFF_MAX_CLOSED_LEVEL)) failedGates.push('closed level not at zero current');
  if (!(analysis.closedEndReach >= PINCH_OFF_MIN_PLATEAU_REACH)) failedGates.push('pinched-off plateau outside the sweep');
  if (!(analysis.openEndReach >= PINCH_OFF_MIN_PLATEAU_REACH)) failedGates.push('conducting plateau outside the sweep');
  if (!(analysis.counterExcursion <= PINCH_OFF_MAX_COUNTER_EXCURSION)) failedGates.push('non-monotonic');
  if (!(analysis.maxDeviation <= PINCH_OFF_MAX_DEVIATION)) failedGates.push('not one tanh step');
  if (!(fit.rSquared >= PINCH_OFF_MIN_R_SQUARED)) failedGates.push('R²');
  return {
    classification: failedGates.length === 0,
    transition: toCallerSample(fit.centre, factor),
    cutOff: toCallerSample(fit.centre + s * KNEE_U * fit.widthLeft, factor),
    saturation: toCallerSample(fit.centre - s * KNEE_U * fit.widthLeft, factor),
    analysis,
    failedGates,
    factor,
  };
}

function fitSummary(p: PinchOffFit): Record<string, unknown> {
  const a = p.analysis;
  return {
    centre: p.transition,
    width: a.fit.widthLeft * p.factor,
    amplitude: a.fit.amplitude,
    offset: a.fit.offset,
    slope: a.fit.slope,
    plateau_slope: a.fit.plateauSlope,
    r_squared: a.fit.rSquared,
    nrmse: a.nrmse,
    snr: Number.isFinite(a.snr) ? a.snr : null,
    closing: a.closing,
  };
}

export function classifyPinchOff(trace: Float64Array): Record<string, unknown> {
  const p = fitPinchOff(trace);
  return { classification: p.classification, failed_gates: p.failedGates, fit: fitSummary(p) };
}

const indexInside = (x: number, n: number): number | null => {
  const i = Math.round(x);
  return i >= 0 && i < n ? i : null;
};

/** Indices are reported for a significant step whose knees fall inside the window; otherwise null ("nothing found"). */
export function extractPinchOffParameters(trace: Float64Array): Record<string, unknown> {
  const p = fitPinchOff(trace);
  const n = trace.length;
  const found =
    p.analysis.snr >= PINCH_OFF_MIN_SNR && p.analysis.fit.rSquared >= PINCH_OFF_MIN_R_SQUARED && p.analysis.closedLevelToOpen <= PINCH_OFF_MAX_CLOSED_LEVEL;
  return {
    cut_off_index: found ? indexInside(p.cutOff, n) : null,
    transition_index: found ? indexInside(p.transition, n) : null,
    saturation_index: found ? indexInside(p.saturation, n) : null,
    classification: p.classification,
    fit: fitSummary(p),
  };
}
