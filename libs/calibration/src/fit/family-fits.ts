// Fit models of the calibration experiments, following the conventions of qiskit-experiments' curve analyses
// (qiskit_experiments.curve_analysis.fit_function: cos, cos_decay, exponential_decay, lorentzian; RabiAnalysis,
// RamseyXYAnalysis, T1Analysis, T2HahnAnalysis, ResonatorSpectroscopyAnalysis) and qtt.algorithms.functions
// (exp_function, cos_exp_function, lorentzian):
//   Rabi (amplitude or time)  y = A e^{−x/τ} cos(2π f x + φ) + B        (τ = ∞ for amplitude Rabi)
//   Ramsey                    y = A e^{−x/T2*} cos(2π Δ x + φ) + B       (Δ = detuning)
//   T1, T2 echo               y = A e^{−x/T} + B
//   DRAG                      two lines y_i = m_i x + c_i; the calibrated value is their crossing (c₂ − c₁)/(m₁ − m₂)
//   spectroscopy              y = A / (1 + ((x − f₀)/γ)²) + B             (γ = half width at half maximum)
// The π-pulse (amplitude or duration) is the extremum of the fitted cosine nearest to half a period, which is
// qiskit's 1/(2f) when the oscillation starts at x = 0 with zero phase.
// Oscillation fits end with a robust (Huber IRLS) refinement, as the lab fits do (lab-fits.ts).
import type { CalibrationSeries, FitParameter, FitSummary } from '../calibration.types.js';
import { levenbergMarquardt, type LeastSquaresFit, type ModelFunction } from './levenberg-marquardt.js';
import { robustFit } from './lab-fits.js';
import { candidateFrequencies, decayTimeGuess, linearLeastSquares, mean, median, smooth, typicalStep } from './initial-guesses.js';

export interface FamilyFit {
  summary: FitSummary;
  /** Noise estimate (residual standard deviation) and fitted signal amplitude, both in y units. */
  noise: number;
  amplitude: number;
  /** The fitted curve(s) as functions, for overlays and disagreement checks. */
  curves: ((x: number) => number)[];
}

const param = (value: number, stderr: number, unit: string): FitParameter => ({
  value,
  stderr: Number.isFinite(stderr) ? stderr : Number.MAX_VALUE,
  unit,
});

const noiseOf = (fit: LeastSquaresFit, n: number): number => Math.sqrt(fit.ssr / Math.max(1, n - fit.parameters.length));

const cosine: ModelFunction = (x, [a, f, phi, b]) => a! * Math.cos(2 * Math.PI * f! * x + phi!) + b!;
const dampedCosine: ModelFunction = (x, [a, f, phi, b, rate]) => a! * Math.exp(-rate! * x) * Math.cos(2 * Math.PI * f! * x + phi!) + b!;
const exponential: ModelFunction = (x, [a, rate, b]) => a! * Math.exp(-rate! * x) + b!;
const lorentzian: ModelFunction = (x, [a, x0, g, b]) => a! / (1 + ((x - x0!) / g!) ** 2) + b!;

/** Iterations of the screening runs; only the best start is then refined to convergence. */
const SCREENING_ITERATIONS = 12;

/** Screens every start with a short run, then fits the most promising one to convergence. */
function multiStart(model: ModelFunction, x: number[], y: number[], starts: number[][], accept: (p: number[]) => boolean = () => true): LeastSquaresFit | null {
  const screened = best(starts.map((p0) => levenbergMarquardt(model, x, y, p0, SCREENING_ITERATIONS)).filter((f) => accept(f.parameters)));
  if (!screened) return null;
  return levenbergMarquardt(model, x, y, screened.parameters);
}

function best(fits: LeastSquaresFit[]): LeastSquaresFit | null {
  let winner: LeastSquaresFit | null = null;
  for (const fit of fits) if (fit.parameters.every(Number.isFinite) && (!winner || fit.ssr < winner.ssr)) winner = fit;
  return winner;
}

/** Starts (A, f, φ, B) for a cosine at each candidate frequency, from a linear fit of cos and sin terms. */
function cosineStarts(x: number[], y: number[]): number[][] {
  const span = Math.abs(x[x.length - 1]! - x[0]!) || 1;
  const freqs = [...candidateFrequencies(x, y, 3), 0.5 / span, 0.75 / span, 1 / span];
  const starts: number[][] = [];
  for (const f of freqs) {
    const w = 2 * Math.PI * f;
    const coef = linearLeastSquares([(t) => Math.cos(w * t), (t) => Math.sin(w * t), () => 1], x, y);
    if (!coef) continue;
    const [c, s, b] = coef as [number, number, number];
    starts.push([Math.hypot(c, s), f, Math.atan2(-s, c), b]);
  }
  return starts;
}

/** Folds (A, φ) so that A > 0 and φ ∈ (−π, π]. */
function canonicalPhase(a: number, phi: number): [number, number] {
  let p = a < 0 ? phi + Math.PI : phi;
  p = Math.atan2(Math.sin(p), Math.cos(p));
  return [Math.abs(a), p];
}

/** Position of the cosine extremum nearest half a period, and its stderr. */
function halfPeriodExtremum(f: number, phi: number, fErr: number, phiErr: number): { value: number; stderr: number } {
  const half = 1 / (2 * f);
  let value = half;
  let bestDistance = Infinity;
  for (let m = -1; m <= 4; m++) {
    const xm = (m * Math.PI - phi) / (2 * Math.PI * f);
    if (xm > 0 && Math.abs(xm - half) < bestDistance) {
      bestDistance = Math.abs(xm - half);
      value = xm;
    }
  }
  const stderr = Math.hypot((value * fErr) / f, phiErr / (2 * Math.PI * f));
  return { value, stderr };
}

export function fitOscillation(
  series: CalibrationSeries,
  options: { damped: boolean; keyName: string; xUnit: string; yUnit: string; kind: 'rabi' | 'ramsey' },
): FamilyFit | null {
  const { x, y } = series;
  const span = Math.abs(x[x.length - 1]! - x[0]!) || 1;
  const starts = cosineStarts(x, y).flatMap((start) => (options.damped ? [0.3 / span, 1 / span, 3 / span].map((rate) => [...start, rate]) : [start]));
  const screened = multiStart(options.damped ? dampedCosine : cosine, x, y, starts, (p) => p[1]! > 0);
  if (!screened) return null;
  // Robust refinement (Huber IRLS, lab-fits.ts): a readout glitch or drift excursion does not pull the decay.
  const fit = robustFit(options.damped ? dampedCosine : cosine, x, y, screened.parameters);
  const [rawA, f, rawPhi, b] = fit.parameters as [number, number, number, number];
  const [a, phi] = canonicalPhase(rawA, rawPhi);
  const [aErr, fErr, phiErr, bErr] = fit.stderr as [number, number, number, number];
  const parameters: Record<string, FitParameter> = {};
  const invX = options.xUnit ? `1/${options.xUnit}` : '';
  if (options.kind === 'ramsey') {
    parameters.detuning = param(f, fErr, invX);
  } else {
    const pi = halfPeriodExtremum(f, phi, fErr, phiErr);
    parameters[options.keyName] = param(pi.value, pi.stderr, options.xUnit);
    parameters.rabi_rate = param(f, fErr, invX);
  }
  if (options.damped) {
    const rate = fit.parameters[4]!;
    const tau = rate > 0 ? 1 / rate : Infinity;
    const name = options.kind === 'ramsey' ? 't2_star' : 'decay_time';
    parameters[name] = param(Number.isFinite(tau) ? tau : Number.MAX_VALUE, rate > 0 ? fit.stderr[4]! / rate ** 2 : Infinity, options.xUnit);
  }
  parameters.amplitude = param(a, aErr, options.yUnit);
  parameters.phase = param(phi, phiErr, 'rad');
  parameters.offset = param(b, bErr, options.yUnit);
  const model = options.damped ? 'A·exp(−x/τ)·cos(2π f x + φ) + B' : 'A·cos(2π f x + φ) + B';
  const params = fit.parameters.slice();
  return {
    summary: { model, parameters, r_squared: fit.rSquared },
    noise: noiseOf(fit, x.length),
    amplitude: a,
    curves: [(t) => (options.damped ? dampedCosine(t, params) : cosine(t, params))],
  };
}

export function fitExponentialDecay(series: CalibrationSeries, keyName: string, xUnit: string, yUnit: string): FamilyFit | null {
  const { x, y } = series;
  const tail = Math.max(3, Math.floor(x.length / 8));
  const starts: number[][] = [];
  const baselineGuesses = [mean(y.slice(-tail)), median(y)];
  for (const baseline of baselineGuesses) {
    const t = decayTimeGuess(x, smooth(y, 1), baseline);
    const a = y[0]! - baseline;
    for (const scale of [0.5, 1, 2]) starts.push([a * Math.exp(x[0]! / (t * scale)), 1 / (t * scale), baseline]);
  }
  const fit = multiStart(exponential, x, y, starts);
  if (!fit) return null;
  const [a, rate, b] = fit.parameters as [number, number, number];
  const [aErr, rateErr, bErr] = fit.stderr as [number, number, number];
  const tau = rate > 0 ? 1 / rate : Number.MAX_VALUE;
  const params = fit.parameters.slice();
  // A at x = 0 as fitted; the visible amplitude is the change over the scan.
  const visible = Math.abs(a * (Math.exp(-rate * x[0]!) - Math.exp(-rate * x[x.length - 1]!)));
  return {
    summary: {
      model: 'A·exp(−x/T) + B',
      parameters: { [keyName]: param(tau, rate > 0 ? rateErr / rate ** 2 : Infinity, xUnit), amplitude: param(a, aErr, yUnit), offset: param(b, bErr, yUnit) },
      r_squared: fit.rSquared,
    },
    noise: noiseOf(fit, x.length),
    amplitude: visible,
    curves: [(t) => exponential(t, params)],
  };
}

export function fitLorentzian(series: CalibrationSeries, xUnit: string, yUnit: string): FamilyFit | null {
  const { x, y } = series;
  const base = median(y);
  const s = smooth(y, Math.max(1, Math.round(x.length / 100)));
  let iMax = 0;
  let iMin = 0;
  for (let i = 1; i < s.length; i++) {
    if (s[i]! > s[iMax]!) iMax = i;
    if (s[i]! < s[iMin]!) iMin = i;
  }
  const starts: number[][] = [];
  for (const i of [iMax, iMin]) {
    const a = s[i]! - base;
    let lo = i;
    let hi = i;
    while (lo > 0 && Math.abs(s[lo]! - base) > Math.abs(a) / 2) lo--;
    while (hi < s.length - 1 && Math.abs(s[hi]! - base) > Math.abs(a) / 2) hi++;
    const g = Math.max(Math.abs(x[hi]! - x[lo]!) / 2, typicalStep(x));
    starts.push([a, x[i]!, g, base], [a, x[i]!, g * 3, base]);
  }
  const fit = multiStart(lorentzian, x, y, starts);
  if (!fit) return null;
  const [a, x0, g, b] = fit.parameters as [number, number, number, number];
  const [aErr, x0Err, gErr, bErr] = fit.stderr as [number, number, number, number];
  const params = fit.parameters.slice();
  return {
    summary: {
      model: 'A / (1 + ((x − f0)/γ)²) + B',
      parameters: {
        frequency: param(x0, x0Err, xUnit),
        fwhm: param(2 * Math.abs(g), 2 * gErr, xUnit),
        amplitude: param(a, aErr, yUnit),
        offset: param(b, bErr, yUnit),
      },
      r_squared: fit.rSquared,
    },
    noise: noiseOf(fit, x.length),
    amplitude: Math.abs(a),
    curves: [(t) => lorentzian(t, params)],
  };
}

/** Ordinary least-squares line with the parameter covariance. */
function fitLine(x: number[], y: number[]): { m: number; c: number; varM: number; varC: number; cov: number; ssr: number } | null {
  const n = x.length;
  if (n < 3) return null;
  const mx = mean(x);
  const my = mean(y);
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (x[i]! - mx) ** 2;
    sxy += (x[i]! - mx) * (y[i]! - my);
  }
  if (!(sxx > 0)) return null;
  const m = sxy / sxx;
  const c = my - m * mx;
  let ssr = 0;
  for (let i = 0; i < n; i++) ssr += (y[i]! - m * x[i]! - c) ** 2;
  const s2 = ssr / (n - 2);
  return { m, c, varM: s2 / sxx, varC: s2 * (1 / n + (mx * mx) / sxx), cov: (-mx * s2) / sxx, ssr };
}

export interface DragFit extends FamilyFit {
  crossing: number;
}

/** DRAG: a line per series (the two with the most points); the answer is where they cross. */
export function fitDragLines(series: CalibrationSeries[], xUnit: string, yUnit: string): DragFit | null {
  const two = [...series].sort((a, b) => b.x.length - a.x.length).slice(0, 2);
  if (two.length < 2) return null;
  const [l1, l2] = two.map((s) => fitLine(s.x, s.y));
  if (!l1 || !l2) return null;
  const dm = l1.m - l2.m;
  const crossing = (l2.c - l1.c) / dm;
  // Delta method: ∂X/∂c₂ = 1/dm, ∂X/∂c₁ = −1/dm, ∂X/∂m₁ = −X/dm, ∂X/∂m₂ = X/dm (independent series).
  const var1 = (l1.varC + crossing * crossing * l1.varM + 2 * crossing * l1.cov) / (dm * dm);
  const var2 = (l2.varC + crossing * crossing * l2.varM + 2 * crossing * l2.cov) / (dm * dm);
  const all = [...two[0]!.y, ...two[1]!.y];
  const my = mean(all);
  const sst = all.reduce((s, v) => s + (v - my) ** 2, 0);
  const ssr = l1.ssr + l2.ssr;
  const n = all.length;
  return {
    summary: {
      model: 'y₁ = m₁ x + c₁, y₂ = m₂ x + c₂; crossing x* = (c₂ − c₁)/(m₁ − m₂)',
      parameters: {
        crossing: param(crossing, Math.sqrt(var1 + var2), xUnit),
        slope_1: param(l1.m, Math.sqrt(l1.varM), xUnit ? `${yUnit || 'y'}/${xUnit}` : ''),
        intercept_1: param(l1.c, Math.sqrt(l1.varC), yUnit),
        slope_2: param(l2.m, Math.sqrt(l2.varM), xUnit ? `${yUnit || 'y'}/${xUnit}` : ''),
        intercept_2: param(l2.c, Math.sqrt(l2.varC), yUnit),
      },
      r_squared: sst > 0 ? 1 - ssr / sst : 0,
    },
    noise: Math.sqrt(ssr / Math.max(1, n - 4)),
    amplitude: Math.abs(dm) * Math.abs(Math.max(...two[0]!.x, ...two[1]!.x) - Math.min(...two[0]!.x, ...two[1]!.x)),
    curves: [(t) => l1.m * t + l1.c, (t) => l2.m * t + l2.c],
    crossing,
  };
}
