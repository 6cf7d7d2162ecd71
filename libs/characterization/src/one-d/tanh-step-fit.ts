// Bounded least-squares fit of a tanh step with sloped plateaus to a gate sweep:
//   I(i) = c + A·tanh(u) + (k + m·tanh u)·v,  v = (i − n/2)/n,
//   u = (i − x₀)/w_left for i < x₀ and (i − x₀)/w_right for i ≥ x₀
// Each plateau has its own slope (k ∓ m on the u < 0 / u > 0 side): a leakage slope on the closed side, and on the
// conducting side the channel conductance that keeps changing with gate voltage (a slowly sloping open level).
// With one common slope, a sloping open level is absorbed by the slope term and the tanh narrows; with a separate
// plateau slope the tanh describes only the step.
// (w_left = w_right for the symmetric pinch-off model I = a(1 + tanh(bV + c)), Darulová et al., Phys. Rev. Appl. 13,
// 054005 (2020); the asymmetric form describes turn-on curves: sharp onset, slow saturation).
// Variable projection (Golub & Pereyra, SIAM J. Numer. Anal. 10, 413 (1973)): for fixed (x₀, w) the model is
// linear in (c, A, k), solved exactly; a coarse grid over (x₀, w) seeds Levenberg–Marquardt on the nonlinear
// parameters only. Bounds: x₀ ∈ [−L/2, 3L/2], w ∈ [0.3, 2L] samples.
// Robustness: one Huber reweighting pass (Huber, Ann. Math. Statist. 35, 73 (1964)) so telegraph jumps and spikes
// do not drag the step; the weights use the robust noise σ of the first differences (Hampel 1974).
import { levenbergMarquardt } from '../signal/least-squares.js';
import { estimateWhiteNoiseStd } from '../signal/robust-noise.js';

export const MIN_WIDTH_SAMPLES = 0.3;
export const MAX_WIDTH_PER_LENGTH = 2;
/** Huber threshold in units of the robust noise σ (or of 2 % of the range when the trace is noise-free). */
export const HUBER_SIGMA = 2.5;
const GRID_WIDTHS_PER_LENGTH = [0.01, 0.02, 0.04, 0.07, 0.12, 0.2, 0.35, 0.6];

export interface TanhStepFit {
  centre: number;
  widthLeft: number;
  widthRight: number;
  /** c, A, k, m of the model above (trace units). */
  offset: number;
  amplitude: number;
  slope: number;
  plateauSlope: number;
  /** Fitted curve at every sample. */
  curve: Float64Array;
  /** Robust white-noise σ of the trace (first differences). */
  noiseStd: number;
  /** Root-mean-square residual, and 1 − RSS/TSS. */
  rmse: number;
  rSquared: number;
}

const BASES = 4;

/** Weighted linear least squares for (c, A, k, m) given the tanh basis t; out = [c, A, k, m]. */
function solveLinear(trace: Float64Array, t: Float64Array, weights: Float64Array | null, out: Float64Array, bases: number): void {
  const n = trace.length;
  const ata = new Float64Array(BASES * BASES);
  const atb = new Float64Array(BASES);
  const f = new Float64Array(BASES);
  for (let i = 0; i < n; i++) {
    const w = weights ? weights[i]! : 1;
    const v = (i - n / 2) / n;
    f[0] = 1;
    f[1] = t[i]!;
    f[2] = v;
    f[3] = v * t[i]!;
    const y = trace[i]!;
    for (let a = 0; a < bases; a++) {
      atb[a]! += w * f[a]! * y;
      for (let b = a; b < bases; b++) ata[a * BASES + b]! += w * f[a]! * f[b]!;
    }
  }
  solveNormal(ata, atb, out, bases);
}

/** Solves the symmetric normal equations (upper triangle given) with a tiny ridge; Gaussian elimination. */
function solveNormal(ata: Float64Array, atb: Float64Array, out: Float64Array, size: number): void {
  const m = new Float64Array(BASES * BASES);
  const r = Float64Array.from(atb);
  const scale = ata[0]! || 1;
  out.fill(0);
  for (let a = 0; a < size; a++) for (let b = 0; b < size; b++) m[a * BASES + b] = a <= b ? ata[a * BASES + b]! : ata[b * BASES + a]!;
  for (let a = 1; a < size; a++) m[a * BASES + a]! += 1e-12 * scale;
  for (let i = 0; i < size; i++) {
    let p = i;
    for (let q = i + 1; q < size; q++) if (Math.abs(m[q * BASES + i]!) > Math.abs(m[p * BASES + i]!)) p = q;
    if (!(Math.abs(m[p * BASES + i]!) > 0)) {
      out.fill(0);
      out[0] = atb[0]! / Math.max(ata[0]!, 1e-300);
      return;
    }
    if (p !== i) {
      for (let k = 0; k < size; k++) [m[i * BASES + k], m[p * BASES + k]] = [m[p * BASES + k]!, m[i * BASES + k]!];
      [r[i], r[p]] = [r[p]!, r[i]!];
    }
    for (let q = i + 1; q < size; q++) {
      const g = m[q * BASES + i]! / m[i * BASES + i]!;
      for (let k = i; k < size; k++) m[q * BASES + k]! -= g * m[i * BASES + k]!;
      r[q]! -= g * r[i]!;
    }
  }
  for (let i = size - 1; i >= 0; i--) {
    let v = r[i]!;
    for (let k = i + 1; k < size; k++) v -= m[i * BASES + k]! * out[k]!;
    out[i] = v / m[i * BASES + i]!;
  }
}

const model = (lin: Float64Array, ti: number, i: number, n: number): number => {
  const v = (i - n / 2) / n;
  return lin[0]! + lin[1]! * ti + (lin[2]! + lin[3]! * ti) * v;
};

function fillBasis(t: Float64Array, centre: number, left: number, right: number): void {
  for (let i = 0; i < t.length; i++) {
    const d = i - centre;
    t[i] = Math.tanh(d / (d < 0 ? left : right));
  }
}

/**
 * Coarse grid over (x₀, w) for the LM start: centres every round(L/50) samples across [−L/4, 5L/4], widths
 * GRID_WIDTHS_PER_LENGTH·L, the symmetric step. With integer centres the basis is a shifted copy of one table
 * T[d] = tanh(d/w) per width, so every normal-equation sum except Σ t·y comes from prefix sums of T, d·T and T²
 * and the residual sum of squares from the sums (no per-sample loop but the one for Σ t·y).
 */
function gridSeed(trace: Float64Array, symmetric: boolean): Float64Array {
  // (The seed uses the common-slope model, c + A·tanh u + k·v, for speed; LM then frees the plateau slope.)
  const n = trace.length;
  const step = Math.max(1, Math.round(n / 50));
  const firstCentre = Math.round(-0.25 * n);
  const lastCentre = Math.round(1.25 * n);
  // d = i − x₀ ranges over [−lastCentre, n − 1 − firstCentre].
  const dMin = -lastCentre;
  const size = n - 1 - firstCentre - dMin + 1;
  const table = new Float64Array(size);
  const prefixT = new Float64Array(size + 1);
  const prefixDT = new Float64Array(size + 1);
  const prefixTT = new Float64Array(size + 1);
  let sumY = 0,
    sumSY = 0,
    sumYY = 0,
    sumS = 0,
    sumSS = 0;
  for (let i = 0; i < n; i++) {
    const si = (i - n / 2) / n;
    const y = trace[i]!;
    sumY += y;
    sumSY += si * y;
    sumYY += y * y;
    sumS += si;
    sumSS += si * si;
  }
  const s11 = n;
  const sss = sumSS + 1e-12 * s11;
  const start = new Float64Array(symmetric ? 2 : 3);
  let best = Infinity;
  for (const wFraction of GRID_WIDTHS_PER_LENGTH) {
    const w = Math.max(MIN_WIDTH_SAMPLES, wFraction * n);
    for (let k = 0; k < size; k++) {
      const d = k + dMin;
      const v = Math.tanh(d / w);
      table[k] = v;
      prefixT[k + 1] = prefixT[k]! + v;
      prefixDT[k + 1] = prefixDT[k]! + d * v;
      prefixTT[k + 1] = prefixTT[k]! + v * v;
    }
    for (let x0 = firstCentre; x0 <= lastCentre; x0 += step) {
      const lo = -x0 - dMin; // table index of i = 0
      const hi = lo + n;
      const s1t = prefixT[hi]! - prefixT[lo]!;
      const stt = prefixTT[hi]! - prefixTT[lo]! + 1e-12 * s11;
      const sts = (prefixDT[hi]! - prefixDT[lo]! + (x0 - n / 2) * s1t) / n;
      let bt = 0;
      for (let i = 0; i < n; i++) bt += table[lo + i]! * trace[i]!;
      const det = s11 * (stt * sss - sts * sts) - s1t * (s1t * sss - sts * sumS) + sumS * (s1t * sts - stt * sumS);
      let rss: number;
      if (!(Math.abs(det) > 0)) {
        rss = sumYY - (sumY * sumY) / s11;
      } else {
        const c = (sumY * (stt * sss - sts * sts) - s1t * (bt * sss - sts * sumSY) + sumS * (bt * sts - stt * sumSY)) / det;
        const a = (s11 * (bt * sss - sumSY * sts) - sumY * (s1t * sss - sts * sumS) + sumS * (s1t * sumSY - bt * sumS)) / det;
        const kk = (s11 * (stt * sumSY - sts * bt) - s1t * (s1t * sumSY - bt * sumS) + sumY * (s1t * sts - stt * sumS)) / det;
        rss =
          sumYY -
          2 * (c * sumY + a * bt + kk * sumSY) +
          c * c * s11 +
          a * a * (stt - 1e-12 * s11) +
          kk * kk * (sss - 1e-12 * s11) +
          2 * (c * a * s1t + c * kk * sumS + a * kk * sts);
      }
      if (rss < best) {
        best = rss;
        start[0] = x0;
        start[1] = w;
        if (!symmetric) start[2] = w;
      }
    }
  }
  return start;
}

/** Fits the step; `symmetric` ties w_left = w_right (the pinch-off model); `plateauSlopes` frees m (else m = 0). */
export function fitTanhStep(trace: Float64Array, symmetric: boolean, plateauSlopes = false): TanhStepFit {
  const n = trace.length;
  const bases = plateauSlopes ? BASES : BASES - 1;
  const t = new Float64Array(n);
  const lin = new Float64Array(BASES);
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    min = Math.min(min, trace[i]!);
    max = Math.max(max, trace[i]!);
  }
  const sigma = estimateWhiteNoiseStd(trace);
  const noiseStd = Number.isFinite(sigma) ? sigma : 0;
  const minWidth = MIN_WIDTH_SAMPLES;
  const maxWidth = MAX_WIDTH_PER_LENGTH * n;
  const clampParams = (p: Float64Array): void => {
    p[0] = Math.min(1.5 * n, Math.max(-0.5 * n, p[0]!));
    for (let j = 1; j < p.length; j++) p[j] = Math.min(maxWidth, Math.max(minWidth, p[j]!));
  };

  let weights: Float64Array | null = null;
  const runFit = (start: Float64Array): Float64Array => {
    const result = levenbergMarquardt(
      {
        residualCount: n,
        steps: Float64Array.from(start, (_, j) => (j === 0 ? 0.05 : 0.02)),
        constrain: clampParams,
        residuals: (p, out) => {
          fillBasis(t, p[0]!, p[1]!, symmetric ? p[1]! : p[2]!);
          solveLinear(trace, t, weights, lin, bases);
          for (let i = 0; i < n; i++) {
            const r = model(lin, t[i]!, i, n) - trace[i]!;
            out[i] = weights ? Math.sqrt(weights[i]!) * r : r;
          }
        },
      },
      start,
    );
    return result.params;
  };

  let params = runFit(gridSeed(trace, symmetric));

  // One Huber reweighting pass against outliers (telegraph jumps, spikes).
  const scale = HUBER_SIGMA * (noiseStd > 0 ? noiseStd : 0.02 * (max - min) || 1);
  fillBasis(t, params[0]!, params[1]!, symmetric ? params[1]! : params[2]!);
  solveLinear(trace, t, null, lin, bases);
  weights = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const r = Math.abs(model(lin, t[i]!, i, n) - trace[i]!);
    weights[i] = r <= scale ? 1 : scale / r;
  }
  params = runFit(params);

  const centre = params[0]!;
  const widthLeft = params[1]!;
  const widthRight = symmetric ? params[1]! : params[2]!;
  fillBasis(t, centre, widthLeft, widthRight);
  solveLinear(trace, t, weights, lin, bases);
  const curve = new Float64Array(n);
  let mean = 0;
  for (let i = 0; i < n; i++) mean += trace[i]!;
  mean /= n;
  let rss = 0;
  let tss = 0;
  for (let i = 0; i < n; i++) {
    curve[i] = model(lin, t[i]!, i, n);
    rss += (curve[i]! - trace[i]!) ** 2;
    tss += (trace[i]! - mean) ** 2;
  }
  return {
    centre,
    widthLeft,
    widthRight,
    offset: lin[0]!,
    amplitude: lin[1]!,
    slope: lin[2]!,
    plateauSlope: lin[3]!,
    curve,
    noiseStd,
    rmse: Math.sqrt(rss / n),
    rSquared: tss > 0 ? 1 - rss / tss : 0,
  };
}
