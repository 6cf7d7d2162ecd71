// Threshold of a turn-on curve from a fit of the onset itself. A tanh has an exponential tail below its centre, so
// on a curve that starts with a kink at the threshold voltage and rises as a power law or exponential above it
// (field-effect channels: linear or square law above V_t; percolation onsets; Ortiz-Conde et al., Microelectron.
// Reliab. 42, 583 (2002), review the threshold-extraction methods and their onset models) the 5 % point of the fitted
// tanh sits samples away from the curve's own. Fitted here on the floor side up to ONSET_WINDOW_FRACTION of the swing:
//   y(k) = b + d·k/n + A·max(0, k − t)^p,  p ∈ ONSET_EXPONENTS,
// baseline b + d·k/n (offset and drift), t the kink; for each (t, p) on a grid the linear part (b, d, A) is solved
// exactly (variable projection, Golub & Pereyra 1973). The MODELS.md threshold is then the first sample where the
// fitted onset exceeds the baseline by 5 % of the swing: k > t + (0.05·swing/A)^{1/p}.

/** The onset is fitted on samples up to where the tanh fit reaches this fraction of the swing. */
export const ONSET_WINDOW_FRACTION = 0.6;
/** Exponents p searched (p = 1 linear, 2 square law, larger: exponential-like onsets). */
const ONSET_EXPONENTS = [1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4];
/** Fewest samples in the fit window. */
const MIN_WINDOW = 8;

export interface OnsetFit {
  /** Kink position t, fractional sample along y. */
  kink: number;
  exponent: number;
  amplitude: number;
  /** Residual sum of squares on the window. */
  rss: number;
}

function solve3(m: Float64Array, r: Float64Array): Float64Array | null {
  const a = Float64Array.from(m);
  const b = Float64Array.from(r);
  for (let i = 0; i < 3; i++) {
    let p = i;
    for (let q = i + 1; q < 3; q++) if (Math.abs(a[q * 3 + i]!) > Math.abs(a[p * 3 + i]!)) p = q;
    if (!(Math.abs(a[p * 3 + i]!) > 1e-300)) return null;
    if (p !== i) {
      for (let k = 0; k < 3; k++) [a[i * 3 + k], a[p * 3 + k]] = [a[p * 3 + k]!, a[i * 3 + k]!];
      [b[i], b[p]] = [b[p]!, b[i]!];
    }
    for (let q = i + 1; q < 3; q++) {
      const g = a[q * 3 + i]! / a[i * 3 + i]!;
      for (let k = i; k < 3; k++) a[q * 3 + k]! -= g * a[i * 3 + k]!;
      b[q]! -= g * b[i]!;
    }
  }
  const x = new Float64Array(3);
  for (let i = 2; i >= 0; i--) {
    let v = b[i]!;
    for (let k = i + 1; k < 3; k++) v -= a[i * 3 + k]! * x[k]!;
    x[i] = v / a[i * 3 + i]!;
  }
  return x;
}

/**
 * Fits the onset model to y[0 … end] (the floor first, rising). Returns null when the window is too short or no
 * rising onset fits.
 */
export function fitOnset(y: Float64Array, end: number): OnsetFit | null {
  const m = Math.min(y.length, end + 1);
  if (m < MIN_WINDOW) return null;
  const dt = Math.max(0.25, m / 400);
  const f = new Float64Array(3);
  const ata = new Float64Array(9);
  const atb = new Float64Array(3);
  let best: OnsetFit | null = null;
  for (const p of ONSET_EXPONENTS) {
    for (let t = 0; t < m - 2; t += dt) {
      ata.fill(0);
      atb.fill(0);
      for (let k = 0; k < m; k++) {
        f[0] = 1;
        f[1] = k / m;
        f[2] = k > t ? (k - t) ** p : 0;
        for (let a = 0; a < 3; a++) {
          atb[a]! += f[a]! * y[k]!;
          for (let b = 0; b < 3; b++) ata[a * 3 + b]! += f[a]! * f[b]!;
        }
      }
      const x = solve3(ata, atb);
      if (!x || !(x[2]! > 0)) continue;
      let rss = 0;
      for (let k = 0; k < m; k++) {
        const r = y[k]! - x[0]! - (x[1]! * k) / m - (k > t ? x[2]! * (k - t) ** p : 0);
        rss += r * r;
      }
      if (!best || rss < best.rss) best = { kink: t, exponent: p, amplitude: x[2]!, rss };
    }
  }
  return best;
}

/** Fractional position along y where the fitted onset exceeds its baseline by `level`. */
export function onsetCrossing(fit: OnsetFit, level: number): number {
  return fit.kink + (level / fit.amplitude) ** (1 / fit.exponent);
}
