// Fit of one resonance to a window of a magnitude trace: |S|(x) = (b + t(x − x0)) · |1 − s e^{iφ} / (1 + 2i(x − x0)/κ)|
// — S. Probst et al., Rev. Sci. Instrum. 86, 024706 (2015): notch (hanger) S21, Eq. (1), with s = Ql/|Qc| ∈ (0, 1],
// and reflection S11, Eq. (3), with s = 2Ql/Qc ∈ (0, 2]; e^{iφ} is the impedance-mismatch (Fano) rotation, the
// complex-Qc asymmetry of Khalil et al., J. Appl. Phys. 111, 054510 (2012). κ = fr/Ql in samples; the environment
// (cable loss, gain tilt) is a local straight line. Fitted in magnitude, where the receiver noise is additive.
// Long windows are fitted on block means (≤ ~1200 points): the lineshape is smooth on that scale.
import { levenbergMarquardt } from './least-squares.js';

export interface ResonanceFit {
  centre: number;
  /** fr/Ql, samples. */
  linewidth: number;
  strength: number;
  phi: number;
  /** Baseline magnitude at the centre and its slope per sample. */
  baseline: number;
  slope: number;
  /** Position of the minimum of the fitted lineshape (fractional index) and the fitted magnitude there. */
  minimumAt: number;
  minimum: number;
  /** Baseline at minimumAt minus the minimum (input magnitude units). */
  depth: number;
  /** Σ residual² over the same points of: the resonance fit; a straight line; the standing-wave hypothesis (line +
   * sinusoid of any period ≥ ¾ κ); the baseline-step hypothesis (line + one step anywhere in the window). */
  rss: number;
  rssLine: number;
  rssRipple: () => number;
  rssStep: () => number;
  /** Window fitted (inclusive sample indices). */
  from: number;
  to: number;
  /** Points fitted and samples per point (block size). */
  points: number;
  block: number;
}

/** |1 − s e^{iφ}/(1 + iu)|. */
export function resonanceFactorMagnitude(u: number, strength: number, phi: number): number {
  const d = 1 + u * u;
  const re = 1 - (strength * (Math.cos(phi) + u * Math.sin(phi))) / d;
  const im = -(strength * (Math.sin(phi) - u * Math.cos(phi))) / d;
  return Math.hypot(re, im);
}

const MAX_FIT_POINTS = 800;

/** The fitted magnitude at sample position x. */
export function resonanceFitValue(fit: Pick<ResonanceFit, 'centre' | 'linewidth' | 'strength' | 'phi' | 'baseline' | 'slope'>, x: number): number {
  const dx = x - fit.centre;
  return (fit.baseline + fit.slope * dx) * resonanceFactorMagnitude((2 * dx) / fit.linewidth, fit.strength, fit.phi);
}
/** Largest Fano angle fitted, rad: measured impedance-mismatch angles stay within ±0.6 (Probst et al. 2015; Khalil
 * et al. 2012); a wider bound lets a dispersive-looking ripple flank pass for a resonance. */
export const MAX_FANO_RAD = 0.8;

/** Least-squares polynomial of the given degree; returns Σ residual². */
function polynomialRss(x: Float64Array, y: Float64Array, degree: number): number {
  const n = x.length;
  const m = degree + 1;
  if (n <= m) return 0;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += x[i]!;
  mean /= n;
  let half = 1e-12;
  for (let i = 0; i < n; i++) half = Math.max(half, Math.abs(x[i]! - mean));
  const a = new Float64Array(m * m);
  const b = new Float64Array(m);
  const basis = new Float64Array(m);
  for (let i = 0; i < n; i++) {
    const s = (x[i]! - mean) / half;
    basis[0] = 1;
    for (let k = 1; k < m; k++) basis[k] = basis[k - 1]! * s;
    for (let r = 0; r < m; r++) {
      b[r] = b[r]! + basis[r]! * y[i]!;
      for (let c = 0; c < m; c++) a[r * m + c] = a[r * m + c]! + basis[r]! * basis[c]!;
    }
  }
  // Cholesky-free Gaussian elimination with partial pivoting.
  for (let col = 0; col < m; col++) {
    let p = col;
    for (let r = col + 1; r < m; r++) if (Math.abs(a[r * m + col]!) > Math.abs(a[p * m + col]!)) p = r;
    if (!(Math.abs(a[p * m + col]!) > 1e-300)) return NaN;
    if (p !== col) {
      for (let c = 0; c < m; c++) [a[col * m + c], a[p * m + c]] = [a[p * m + c]!, a[col * m + c]!];
      [b[col], b[p]] = [b[p]!, b[col]!];
    }
    for (let r = col + 1; r < m; r++) {
      const f = a[r * m + col]! / a[col * m + col]!;
      for (let c = col; c < m; c++) a[r * m + c] = a[r * m + c]! - f * a[col * m + c]!;
      b[r] = b[r]! - f * b[col]!;
    }
  }
  const coef = new Float64Array(m);
  for (let r = m - 1; r >= 0; r--) {
    let s = b[r]!;
    for (let c = r + 1; c < m; c++) s -= a[r * m + c]! * coef[c]!;
    coef[r] = s / a[r * m + r]!;
  }
  let rss = 0;
  for (let i = 0; i < n; i++) {
    const s = (x[i]! - mean) / half;
    let v = 0;
    for (let k = m - 1; k >= 0; k--) v = v * s + coef[k]!;
    rss += (v - y[i]!) ** 2;
  }
  return rss;
}

/** Least squares of y on the given basis functions (rows of `basis`, each of length n); returns Σ residual². */
function linearRss(basis: Float64Array[], y: Float64Array): number {
  const m = basis.length;
  const n = y.length;
  const a = new Float64Array(m * m);
  const b = new Float64Array(m);
  for (let r = 0; r < m; r++) {
    for (let i = 0; i < n; i++) b[r] = b[r]! + basis[r]![i]! * y[i]!;
    for (let c = r; c < m; c++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += basis[r]![i]! * basis[c]![i]!;
      a[r * m + c] = s;
      a[c * m + r] = s;
    }
  }
  // Ridge of 1e-12 × trace keeps near-degenerate bases (very long periods) solvable.
  let trace = 0;
  for (let r = 0; r < m; r++) trace += a[r * m + r]!;
  for (let r = 0; r < m; r++) a[r * m + r] = a[r * m + r]! + 1e-12 * trace;
  const coef = Float64Array.from(b);
  const work = Float64Array.from(a);
  for (let col = 0; col < m; col++) {
    let p = col;
    for (let r = col + 1; r < m; r++) if (Math.abs(work[r * m + col]!) > Math.abs(work[p * m + col]!)) p = r;
    if (!(Math.abs(work[p * m + col]!) > 1e-300)) return Infinity;
    if (p !== col) {
      for (let c = 0; c < m; c++) [work[col * m + c], work[p * m + c]] = [work[p * m + c]!, work[col * m + c]!];
      [coef[col], coef[p]] = [coef[p]!, coef[col]!];
    }
    for (let r = col + 1; r < m; r++) {
      const f = work[r * m + col]! / work[col * m + col]!;
      for (let c = col; c < m; c++) work[r * m + c] = work[r * m + c]! - f * work[col * m + c]!;
      coef[r] = coef[r]! - f * coef[col]!;
    }
  }
  for (let r = m - 1; r >= 0; r--) {
    let s = coef[r]!;
    for (let c = r + 1; c < m; c++) s -= work[r * m + c]! * coef[c]!;
    coef[r] = s / work[r * m + r]!;
  }
  let rss = 0;
  for (let i = 0; i < n; i++) {
    let v = 0;
    for (let r = 0; r < m; r++) v += coef[r]! * basis[r]![i]!;
    rss += (v - y[i]!) ** 2;
  }
  return rss;
}

/** Standing-wave hypothesis: min over periods P (geometric grid, shortest `shortest`) of line + A cos + B sin. */
function rippleRss(x: Float64Array, y: Float64Array, shortest: number): number {
  const n = x.length;
  const span = x[n - 1]! - x[0]! || 1;
  const centre = (x[0]! + x[n - 1]!) / 2;
  const one = new Float64Array(n).fill(1);
  const line = x.map((v) => (v - centre) / span);
  const c = new Float64Array(n);
  const s = new Float64Array(n);
  let best = Infinity;
  for (let period = Math.max(shortest, span / 40); period <= 6 * span; period *= 1.15) {
    for (let i = 0; i < n; i++) {
      const w = (2 * Math.PI * (x[i]! - centre)) / period;
      c[i] = Math.cos(w);
      s[i] = Math.sin(w);
    }
    best = Math.min(best, linearRss([one, line, c, s], y));
  }
  return best;
}

/** Baseline-step hypothesis: min over step positions of line + a step. */
function stepRss(x: Float64Array, y: Float64Array): number {
  const n = x.length;
  const span = x[n - 1]! - x[0]! || 1;
  const centre = (x[0]! + x[n - 1]!) / 2;
  const one = new Float64Array(n).fill(1);
  const line = x.map((v) => (v - centre) / span);
  const step = new Float64Array(n);
  let best = Infinity;
  const stride = Math.max(1, Math.floor(n / 80));
  for (let k = 2; k < n - 1; k += stride) {
    for (let i = 0; i < n; i++) step[i] = i >= k ? 1 : 0;
    best = Math.min(best, linearRss([one, line, step], y));
  }
  return best;
}

/** Fits magnitude[from … to] (inclusive) from a starting guess; null when the fit fails. */
export function fitResonanceMagnitude(
  magnitude: Float64Array,
  from: number,
  to: number,
  guess: { centre: number; linewidth: number; strength: number; baseline: number; slope: number },
): ResonanceFit | null {
  const samples = to - from + 1;
  if (samples < 6) return null;
  const block = Math.max(1, Math.ceil(samples / MAX_FIT_POINTS));
  const count = Math.floor(samples / block);
  if (count < 6) return null;
  const x = new Float64Array(count);
  const y = new Float64Array(count);
  for (let k = 0; k < count; k++) {
    let sx = 0;
    let sy = 0;
    for (let j = 0; j < block; j++) {
      const i = from + k * block + j;
      sx += i;
      sy += magnitude[i]!;
    }
    x[k] = sx / block;
    y[k] = sy / block;
  }
  const scale = Math.abs(guess.baseline) > 0 ? Math.abs(guess.baseline) : 1;
  const lo = x[0]!;
  const hi = x[count - 1]!;
  const maxLinewidth = 6 * samples;
  const problem = {
    residualCount: count,
    steps: Float64Array.from([1e-3 * guess.linewidth + 1e-4, 1e-3 * guess.linewidth + 1e-4, 1e-4, 1e-4, 1e-6 * scale, 1e-8 * scale]),
    residuals(p: Float64Array, out: Float64Array) {
      const [x0, kappa, s, phi, b, t] = p as unknown as [number, number, number, number, number, number];
      const sc = s * Math.cos(phi);
      const ss = s * Math.sin(phi);
      for (let k = 0; k < count; k++) {
        const dx = x[k]! - x0;
        const u = (2 * dx) / kappa;
        const d = 1 + u * u;
        const re = 1 - (sc + u * ss) / d;
        const im = -(ss - u * sc) / d;
        out[k] = ((b + t * dx) * Math.sqrt(re * re + im * im) - y[k]!) / scale;
      }
    },
    constrain(p: Float64Array) {
      p[0] = Math.min(hi, Math.max(lo, p[0]!));
      p[1] = Math.min(maxLinewidth, Math.max(0.3, p[1]!));
      p[2] = Math.min(2, Math.max(0.002, p[2]!));
      p[3] = Math.min(MAX_FANO_RAD, Math.max(-MAX_FANO_RAD, p[3]!));
    },
  };
  const start = Float64Array.from([
    guess.centre,
    Math.max(0.5, guess.linewidth),
    Math.min(1.9, Math.max(0.01, guess.strength)),
    0,
    guess.baseline,
    guess.slope,
  ]);
  const result = levenbergMarquardt(problem, start);
  if (!Number.isFinite(result.cost)) return null;
  const [centre, linewidth, strength, phi, baseline, slope] = result.params as unknown as [number, number, number, number, number, number];
  if (!(baseline > 0) || !Number.isFinite(linewidth)) return null;

  // Minimum of the fitted curve (environment line included) on a fine grid within ±4κ of the centre.
  const gridFrom = Math.max(from, centre - 4 * linewidth);
  const gridTo = Math.min(to, centre + 4 * linewidth);
  const step = Math.max(0.01, (gridTo - gridFrom) / 4000);
  let minimumAt = centre;
  let minimum = Infinity;
  for (let xg = gridFrom; xg <= gridTo + 1e-9; xg += step) {
    const dx = xg - centre;
    const v = (baseline + slope * dx) * resonanceFactorMagnitude((2 * dx) / linewidth, strength, phi);
    if (v < minimum) {
      minimum = v;
      minimumAt = xg;
    }
  }
  const depth = baseline + slope * (minimumAt - centre) - minimum;
  return {
    centre,
    linewidth,
    strength,
    phi,
    baseline,
    slope,
    minimumAt,
    minimum,
    depth,
    rss: result.cost * scale * scale,
    rssLine: polynomialRss(x, y, 1),
    rssRipple: () => rippleRss(x, y, Math.max(3 * block, 0.75 * linewidth)),
    rssStep: () => stepRss(x, y),
    from,
    to,
    points: count,
    block,
  };
}
