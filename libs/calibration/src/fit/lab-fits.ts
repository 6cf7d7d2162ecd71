// Fits for lab data that the textbook models of family-fits.ts miss (issue #29):
//   resonator     |S21| = (b₀ + b₁ (x − x̄)) |1 − d e^{iφ} / (1 + 2i (x − f_r)/κ)|: the notch model with a complex
//                 coupling (S. Probst et al., Rev. Sci. Instrum. 86, 024706 (2015), eq. 1, magnitude only, cable delay
//                 dropping out of |S21|) on a sloped baseline. φ ≠ 0 (impedance mismatch) makes the line Fano-
//                 asymmetric; the answer is f_r, not the minimum. Kept only when it beats the Lorentzian by BIC.
//   qubit line    one or two Lorentzians on a sloped baseline (the second for a TLS splitting or a thermal / two-
//                 photon satellite), chosen by BIC (G. Schwarz, Ann. Stat. 6, 461 (1978)); the answer is the centre
//                 of the stronger line.
//   T1, echo      A e^{−x/T} + B with the floor B free, started from a log-linear fit over floor guesses.
//   DRAG          every series y_i = y* + m_i (x − x*) [+ q_i (x − x*)³ when BIC asks for the bend], all through one
//                 crossing (x*, y*): the crossing of fitted lines, using all two or three sequences.
// All fits are robust: two rounds of iteratively reweighted least squares with Huber weights (c = 2.5 σ_MAD;
// P. J. Huber, Ann. Math. Stat. 35, 73 (1964)) so that a readout glitch does not move the answer.
import type { CalibrationSeries, FitParameter } from '../calibration.types.js';
import type { FamilyFit } from './family-fits.js';
import { levenbergMarquardt, type LeastSquaresFit, type ModelFunction, rSquared } from './levenberg-marquardt.js';
import { mean, median, smooth, typicalStep } from './initial-guesses.js';

const HUBER_C = 2.5;
/** Iterations of a screening run (as family-fits.ts): starts are compared after it, the best is refined. */
const SCREENING_ITERATIONS = 12;
/** Iterations of a reweighted refit (it starts at the previous optimum). */
const REFIT_ITERATIONS = 40;

const param = (value: number, stderr: number, unit: string): FitParameter => ({
  value,
  stderr: Number.isFinite(stderr) ? stderr : Number.MAX_VALUE,
  unit,
});

const bic = (ssr: number, n: number, k: number): number => n * Math.log(Math.max(ssr, 1e-300) / n) + k * Math.log(n);

function ssrOf(model: ModelFunction, x: number[], y: number[], p: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += (y[i]! - model(x[i]!, p)) ** 2;
  return Number.isFinite(s) ? s : Infinity;
}

/** LM fit, then Huber-reweighted refits; ssr and r² are of the unweighted residuals. */
export function robustFit(model: ModelFunction, x: number[], y: number[], p0: readonly number[], rounds = 2, maxIterations?: number): LeastSquaresFit {
  let fit = levenbergMarquardt(model, x, y, p0, maxIterations);
  for (let round = 0; round < rounds; round++) {
    const r = x.map((v, i) => y[i]! - model(v, fit.parameters));
    const sigma = 1.4826 * median(r.map(Math.abs));
    if (!(sigma > 0)) break;
    const w = r.map((v) => Math.sqrt(Math.min(1, (HUBER_C * sigma) / Math.max(Math.abs(v), 1e-300))));
    if (w.every((v) => v === 1)) break;
    const index = x.map((_, i) => i);
    const weighted: ModelFunction = (i, p) => w[i]! * model(x[i]!, p);
    const next = levenbergMarquardt(
      weighted,
      index,
      y.map((v, i) => w[i]! * v),
      fit.parameters,
      maxIterations ?? REFIT_ITERATIONS,
    );
    if (!next.parameters.every(Number.isFinite)) break;
    fit = next;
  }
  const ssr = ssrOf(model, x, y, fit.parameters);
  return { ...fit, ssr, rSquared: rSquared(y, ssr) };
}

const noiseOf = (fit: LeastSquaresFit, n: number): number => Math.sqrt(fit.ssr / Math.max(1, n - fit.parameters.length));

// ---------- exponential decay with a floor ----------

const exponential: ModelFunction = (x, [a, rate, b]) => a! * Math.exp(-rate! * x) + b!;

export function fitDecayWithFloor(series: CalibrationSeries, keyName: string, xUnit: string, yUnit: string): FamilyFit | null {
  const { x, y } = series;
  const n = x.length;
  const span = Math.abs(x[n - 1]! - x[0]!) || 1;
  const s = smooth(y, 1);
  const first = s[0]!;
  const last = s[n - 1]!;
  const starts: number[][] = [];
  // Floor guesses: the last level, and beyond it by 10–40 % of the swing (a scan that stops before the floor).
  for (const beyond of [0, 0.1, 0.25, 0.4]) {
    const b = last - beyond * (first - last);
    // Log-linear fit of |y − b| over the points well above the floor.
    const lx: number[] = [];
    const ly: number[] = [];
    for (let i = 0; i < n; i++) {
      const d = (y[i]! - b) / (first - b);
      if (d > 0.15) {
        lx.push(x[i]!);
        ly.push(Math.log(d));
      }
    }
    let rate = 3 / span;
    if (lx.length >= 3) {
      const mx = mean(lx);
      const my = mean(ly);
      let sxx = 0;
      let sxy = 0;
      for (let i = 0; i < lx.length; i++) {
        sxx += (lx[i]! - mx) ** 2;
        sxy += (lx[i]! - mx) * (ly[i]! - my);
      }
      if (sxx > 0 && sxy < 0) rate = -sxy / sxx;
    }
    starts.push([(first - b) * Math.exp(rate * x[0]!), rate, b]);
  }
  let fit: LeastSquaresFit | null = null;
  for (const p0 of starts) {
    const f = robustFit(exponential, x, y, p0);
    if (f.parameters.every(Number.isFinite) && f.parameters[1]! > 0 && (!fit || f.ssr < fit.ssr)) fit = f;
  }
  if (!fit) return null;
  const [a, rate, b] = fit.parameters as [number, number, number];
  const [aErr, rateErr, bErr] = fit.stderr as [number, number, number];
  const params = fit.parameters.slice();
  const visible = Math.abs(a * (Math.exp(-rate * x[0]!) - Math.exp(-rate * x[n - 1]!)));
  return {
    summary: {
      model: 'A·exp(−x/T) + B (robust)',
      parameters: { [keyName]: param(1 / rate, rateErr / rate ** 2, xUnit), amplitude: param(a, aErr, yUnit), offset: param(b, bErr, yUnit) },
      r_squared: fit.rSquared,
    },
    noise: noiseOf(fit, n),
    amplitude: visible,
    curves: [(t) => exponential(t, params)],
  };
}

// ---------- spectroscopy lines ----------

/** Start of one line: the extreme of the smoothed, baseline-removed trace and its half-height width. */
function lineStart(x: number[], r: number[]): { a: number; x0: number; g: number } {
  const s = smooth(r, Math.max(1, Math.round(x.length / 100)));
  let k = 0;
  for (let i = 1; i < s.length; i++) if (Math.abs(s[i]!) > Math.abs(s[k]!)) k = i;
  const a = s[k]!;
  let lo = k;
  let hi = k;
  while (lo > 0 && Math.abs(s[lo]!) > Math.abs(a) / 2) lo--;
  while (hi < s.length - 1 && Math.abs(s[hi]!) > Math.abs(a) / 2) hi++;
  return { a, x0: x[k]!, g: Math.max(Math.abs(x[hi]! - x[lo]!) / 2, typicalStep(x)) };
}

const lorentz = (x: number, a: number, x0: number, g: number) => a / (1 + ((x - x0) / g) ** 2);

export function fitSpectroscopyLines(series: CalibrationSeries, xUnit: string, yUnit: string, maxLines: 1 | 2 = 2): FamilyFit | null {
  const { x, y } = series;
  const n = x.length;
  const xc = (x[0]! + x[n - 1]!) / 2;
  const base = median(y);
  const one: ModelFunction = (v, [a, x0, g, b, m]) => lorentz(v, a!, x0!, g!) + b! + m! * (v - xc);
  const first = lineStart(
    x,
    y.map((v) => v - base),
  );
  let single: LeastSquaresFit | null = null;
  for (const scale of [1, 3]) {
    const f = levenbergMarquardt(one, x, y, [first.a, first.x0, first.g * scale, base, 0], SCREENING_ITERATIONS);
    if (f.parameters.every(Number.isFinite) && (!single || f.ssr < single.ssr)) single = f;
  }
  if (!single) return null;
  single = robustFit(one, x, y, single.parameters);
  let best = single;
  let lines = 1;
  if (maxLines === 2 && n >= 20) {
    const two: ModelFunction = (v, [a, x0, g, b, m, a2, x2, g2]) => lorentz(v, a!, x0!, g!) + lorentz(v, a2!, x2!, g2!) + b! + m! * (v - xc);
    const residual = y.map((v, i) => v - one(x[i]!, single!.parameters));
    const second = lineStart(x, residual);
    const [a, x0, g, b, m] = single.parameters as [number, number, number, number, number];
    const starts = [
      [a, x0, g, b, m, second.a, second.x0, second.g],
      // The single fit may sit between two lines: split it.
      [a, x0 - g, g / 2, b, m, a, x0 + g, g / 2],
    ];
    for (const p0 of starts) {
      const f = robustFit(two, x, y, levenbergMarquardt(two, x, y, p0, SCREENING_ITERATIONS).parameters);
      if (
        !f.parameters.every(Number.isFinite) ||
        Math.abs(f.parameters[2]!) > Math.abs(x[n - 1]! - x[0]!) ||
        Math.abs(f.parameters[7]!) > Math.abs(x[n - 1]! - x[0]!)
      )
        continue;
      // Both lines inside the scan and of the same sign as the main line.
      if (Math.sign(f.parameters[0]!) !== Math.sign(f.parameters[5]!)) continue;
      if (bic(f.ssr, n, 8) + 10 < bic(best.ssr, n, lines === 1 ? 5 : 8)) {
        best = f;
        lines = 2;
      }
    }
  }
  let p = best.parameters.slice();
  let e = best.stderr.slice();
  if (lines === 2 && Math.abs(p[5]!) > Math.abs(p[0]!)) {
    p = [p[5]!, p[6]!, p[7]!, p[3]!, p[4]!, p[0]!, p[1]!, p[2]!];
    e = [e[5]!, e[6]!, e[7]!, e[3]!, e[4]!, e[0]!, e[1]!, e[2]!];
  }
  const [a, x0, g, b] = p as [number, number, number, number];
  const parameters: Record<string, FitParameter> = {
    frequency: param(x0, e[1]!, xUnit),
    fwhm: param(2 * Math.abs(g), 2 * e[2]!, xUnit),
    amplitude: param(a, e[0]!, yUnit),
    offset: param(b, e[3]!, yUnit),
  };
  if (lines === 2) {
    parameters.frequency_2 = param(p[6]!, e[6]!, xUnit);
    parameters.amplitude_2 = param(p[5]!, e[5]!, yUnit);
  }
  const model: ModelFunction =
    lines === 2
      ? (v, q) => lorentz(v, q[0]!, q[1]!, q[2]!) + lorentz(v, q[5]!, q[6]!, q[7]!) + q[3]! + q[4]! * (v - xc)
      : (v, q) => lorentz(v, q[0]!, q[1]!, q[2]!) + q[3]! + q[4]! * (v - xc);
  return {
    summary: {
      model: lines === 2 ? 'A / (1 + ((x − f0)/γ)²) + A₂ / (1 + ((x − f₂)/γ₂)²) + B + m x' : 'A / (1 + ((x − f0)/γ)²) + B + m x',
      parameters,
      r_squared: best.rSquared,
    },
    noise: noiseOf(best, n),
    amplitude: Math.abs(a),
    curves: [(v) => model(v, p)],
  };
}

/** Notch |S21| with a complex coupling on a sloped baseline. p = [b0, b1, d, φ, f_r, κ]. */
function notchMagnitude(xc: number): ModelFunction {
  return (f, [b0, b1, d, phi, fr, kappa]) => {
    const w = (2 * (f - fr!)) / kappa!;
    const den = 1 + w * w;
    const re = 1 - (d! * (Math.cos(phi!) + w * Math.sin(phi!))) / den;
    const im = -(d! * (Math.sin(phi!) - w * Math.cos(phi!))) / den;
    return (b0! + b1! * (f - xc)) * Math.hypot(re, im);
  };
}

export function fitResonatorLine(series: CalibrationSeries, xUnit: string, yUnit: string): FamilyFit | null {
  const lorentzian = fitSpectroscopyLines(series, xUnit, yUnit, 1);
  if (!lorentzian) return null;
  const { x, y } = series;
  const n = x.length;
  const xc = (x[0]! + x[n - 1]!) / 2;
  const lp = lorentzian.summary.parameters;
  const a = lp.amplitude!.value;
  const b = lp.offset!.value;
  if (!(b !== 0) || n < 12) return lorentzian;
  const model = notchMagnitude(xc);
  // Screen the Fano-phase starts with short runs; refine only the best.
  let screened: LeastSquaresFit | null = null;
  for (const phi of [-0.6, 0, 0.6]) {
    const f = levenbergMarquardt(model, x, y, [b, 0, -a / b, phi, lp.frequency!.value, lp.fwhm!.value], SCREENING_ITERATIONS);
    if (f.parameters.every(Number.isFinite) && f.parameters[5]! !== 0 && (!screened || f.ssr < screened.ssr)) screened = f;
  }
  const fano = screened ? robustFit(model, x, y, screened.parameters) : null;
  const lorentzianSsr = x.reduce((sum, v, i) => sum + (y[i]! - lorentzian.curves[0]!(v)) ** 2, 0);
  const lorentzianK = lp.frequency_2 ? 8 : 5;
  if (!fano || !(fano.parameters[4]! > Math.min(x[0]!, x[n - 1]!) && fano.parameters[4]! < Math.max(x[0]!, x[n - 1]!))) return lorentzian;
  if (bic(fano.ssr, n, 6) > bic(lorentzianSsr, n, lorentzianK)) return lorentzian;
  const p = fano.parameters.slice();
  const e = fano.stderr;
  return {
    summary: {
      model: '(b₀ + b₁ x)·|1 − d e^{iφ} / (1 + 2i (x − f0)/κ)|',
      parameters: {
        frequency: param(p[4]!, e[4]!, xUnit),
        fwhm: param(Math.abs(p[5]!), e[5]!, xUnit),
        amplitude: param(-p[0]! * p[2]!, Math.hypot(p[0]! * e[2]!, p[2]! * e[0]!), yUnit),
        offset: param(p[0]!, e[0]!, yUnit),
        fano_phase: param(p[3]!, e[3]!, 'rad'),
      },
      r_squared: fano.rSquared,
    },
    noise: noiseOf(fano, n),
    amplitude: Math.abs(p[0]! * p[2]!),
    curves: [(v) => model(v, p)],
  };
}

// ---------- DRAG: lines through one crossing ----------

/** DRAG from every series: y_i = y* + m_i (x − x*) [+ q_i (x − x*)³], one crossing (x*, y*) for all. */
export function fitDragCrossing(series: CalibrationSeries[], xUnit: string, yUnit: string): FamilyFit | null {
  // Sequences of at least half the longest one's points (a stray short series read from a plot does not vote).
  const longest = Math.max(...series.map((s) => s.x.length));
  const used = series.filter((s) => s.x.length >= Math.max(3, longest / 2));
  const k = used.length;
  if (k < 2) return null;
  const xs: number[] = [];
  const ys: number[] = [];
  const which: number[] = [];
  used.forEach((s, j) => {
    for (let i = 0; i < s.x.length; i++) {
      xs.push(s.x[i]!);
      ys.push(s.y[i]!);
      which.push(j);
    }
  });
  const n = xs.length;
  const lines = used.map((s) => {
    const mx = mean(s.x);
    const my = mean(s.y);
    let sxx = 0;
    let sxy = 0;
    for (let i = 0; i < s.x.length; i++) {
      sxx += (s.x[i]! - mx) ** 2;
      sxy += (s.x[i]! - mx) * (s.y[i]! - my);
    }
    const m = sxx > 0 ? sxy / sxx : 0;
    return { m, c: my - m * mx };
  });
  // Start at the crossing of the two lines with the most different slopes.
  let pair: [number, number] = [0, 1];
  for (let a = 0; a < k; a++)
    for (let b = a + 1; b < k; b++) if (Math.abs(lines[a]!.m - lines[b]!.m) > Math.abs(lines[pair[0]]!.m - lines[pair[1]]!.m)) pair = [a, b];
  const [l1, l2] = [lines[pair[0]]!, lines[pair[1]]!];
  const x0 = l1.m !== l2.m ? (l2.c - l1.c) / (l1.m - l2.m) : mean(xs);
  const y0 = l1.m * x0 + l1.c;
  const idx = xs.map((_, i) => i);
  const linear: ModelFunction = (i, p) => p[1]! + p[2 + which[i]!]! * (xs[i]! - p[0]!);
  const cubic: ModelFunction = (i, p) => {
    const u = xs[i]! - p[0]!;
    return p[1]! + p[2 + which[i]!]! * u + p[2 + k + which[i]!]! * u * u * u;
  };
  const start = [x0, y0, ...lines.map((l) => l.m)];
  const lin = robustFit(linear, idx, ys, start);
  let fit = lin;
  let bend = false;
  if (n >= 4 * k + 4) {
    const cub = robustFit(cubic, idx, ys, [...lin.parameters, ...lines.map(() => 0)]);
    if (cub.parameters.every(Number.isFinite) && bic(cub.ssr, n, 2 + 2 * k) < bic(lin.ssr, n, 2 + k)) {
      fit = cub;
      bend = true;
    }
  }
  const p = fit.parameters.slice();
  const e = fit.stderr;
  if (!p.every(Number.isFinite)) return null;
  const [xc, yc] = p as [number, number];
  const slopes = used.map((_, j) => p[2 + j]!);
  const slopeUnit = xUnit ? `${yUnit || 'y'}/${xUnit}` : '';
  const parameters: Record<string, FitParameter> = { crossing: param(xc, e[0]!, xUnit), crossing_level: param(yc, e[1]!, yUnit) };
  slopes.forEach((m, j) => {
    parameters[`slope_${j + 1}`] = param(m, e[2 + j]!, slopeUnit);
    parameters[`intercept_${j + 1}`] = param(yc - m * xc, Math.hypot(e[1]!, xc * e[2 + j]!, m * e[0]!), yUnit);
  });
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  const spread = Math.max(...slopes) - Math.min(...slopes);
  const curveOf = (j: number) => (t: number) => {
    const u = t - xc;
    return yc + slopes[j]! * u + (bend ? p[2 + k + j]! * u * u * u : 0);
  };
  return {
    summary: {
      model: bend ? 'y_i = y* + m_i (x − x*) + q_i (x − x*)³, common crossing x* (robust)' : 'y_i = y* + m_i (x − x*), common crossing x* (robust)',
      parameters,
      r_squared: fit.rSquared,
    },
    noise: noiseOf(fit, n),
    amplitude: Math.abs(spread) * (hi - lo),
    curves: used.map((_, j) => curveOf(j)),
  };
}
