// Nonlinear least squares by Levenberg–Marquardt: K. Levenberg, Q. Appl. Math. 2, 164 (1944); D. W. Marquardt,
// J. SIAM 11, 431 (1963), with Marquardt's diagonal scaling (Numerical Recipes, 3rd ed., §15.5.2). Parameter
// standard errors from the covariance s²(JᵀJ)⁻¹ with s² = SSR/(n − p), as scipy.optimize.curve_fit reports them
// (absolute_sigma=False), which is what qiskit-experiments' curve analysis shows as stderr.

export type ModelFunction = (x: number, p: readonly number[]) => number;

export interface LeastSquaresFit {
  parameters: number[];
  stderr: number[];
  /** Sum of squared residuals. */
  ssr: number;
  rSquared: number;
  iterations: number;
  converged: boolean;
}

const MAX_ITERATIONS = 200;
const RELATIVE_TOLERANCE = 1e-9;

function ssrOf(model: ModelFunction, x: ArrayLike<number>, y: ArrayLike<number>, p: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) {
    const r = y[i]! - model(x[i]!, p);
    s += r * r;
  }
  return Number.isFinite(s) ? s : Infinity;
}

/** Jacobian of the model (not the residual) by central differences, one row per sample. */
function jacobian(model: ModelFunction, x: ArrayLike<number>, p: readonly number[]): Float64Array[] {
  const n = x.length;
  const rows = Array.from({ length: n }, () => new Float64Array(p.length));
  const q = p.slice();
  for (let j = 0; j < p.length; j++) {
    const h = 1e-6 * Math.max(Math.abs(p[j]!), 1e-12) + 1e-12;
    q[j] = p[j]! + h;
    const up = Array.from({ length: n }, (_, i) => model(x[i]!, q));
    q[j] = p[j]! - h;
    for (let i = 0; i < n; i++) rows[i]![j] = (up[i]! - model(x[i]!, q)) / (2 * h);
    q[j] = p[j]!;
  }
  return rows;
}

/** Solves A z = b for a small symmetric positive (semi)definite A by Gaussian elimination with pivoting; null if singular. */
export function solveLinear(a: number[][], b: number[]): number[] | null {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[pivot]![c]!)) pivot = r;
    if (!(Math.abs(m[pivot]![c]!) > 1e-300)) return null;
    [m[c], m[pivot]] = [m[pivot]!, m[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      if (f === 0) continue;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  const z = m.map((row, i) => row[n]! / row[i]!);
  return z.every(Number.isFinite) ? z : null;
}

function invert(a: number[][]): number[][] | null {
  const n = a.length;
  const columns: number[][] = [];
  for (let j = 0; j < n; j++) {
    const e = Array.from({ length: n }, (_, i) => (i === j ? 1 : 0));
    const col = solveLinear(a, e);
    if (!col) return null;
    columns.push(col);
  }
  return Array.from({ length: n }, (_, i) => columns.map((col) => col[i]!));
}

/** Fits `model` to (x, y) from the start `p0`; `maxIterations` bounds the work (short runs screen many starts). */
export function levenbergMarquardt(
  model: ModelFunction,
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  p0: readonly number[],
  maxIterations = MAX_ITERATIONS,
): LeastSquaresFit {
  const n = x.length;
  const k = p0.length;
  let p = p0.slice();
  let ssr = ssrOf(model, x, y, p);
  let lambda = 1e-3;
  let iterations = 0;
  let converged = false;
  for (; iterations < maxIterations && Number.isFinite(ssr); iterations++) {
    const J = jacobian(model, x, p);
    const jtj = Array.from({ length: k }, () => new Array<number>(k).fill(0));
    const jtr = new Array<number>(k).fill(0);
    for (let i = 0; i < n; i++) {
      const r = y[i]! - model(x[i]!, p);
      const row = J[i]!;
      for (let a = 0; a < k; a++) {
        jtr[a]! += row[a]! * r;
        for (let b = a; b < k; b++) jtj[a]![b]! += row[a]! * row[b]!;
      }
    }
    for (let a = 0; a < k; a++) for (let b = 0; b < a; b++) jtj[a]![b] = jtj[b]![a]!;
    let improved = false;
    for (let attempt = 0; attempt < 12; attempt++) {
      const damped = jtj.map((row, a) => row.map((v, b) => (a === b ? v + lambda * Math.max(v, 1e-30) : v)));
      const step = solveLinear(damped, jtr);
      if (!step) {
        lambda *= 10;
        continue;
      }
      const trial = p.map((v, a) => v + step[a]!);
      const trialSsr = ssrOf(model, x, y, trial);
      if (trialSsr < ssr) {
        const relative = (ssr - trialSsr) / Math.max(ssr, 1e-300);
        p = trial;
        ssr = trialSsr;
        lambda = Math.max(lambda / 10, 1e-12);
        improved = true;
        if (relative < RELATIVE_TOLERANCE) converged = true;
        break;
      }
      lambda *= 10;
    }
    if (!improved || converged) {
      converged = true;
      break;
    }
  }
  return { parameters: p, stderr: standardErrors(model, x, p, ssr), ssr, rSquared: rSquared(y, ssr), iterations, converged };
}

function standardErrors(model: ModelFunction, x: ArrayLike<number>, p: readonly number[], ssr: number): number[] {
  const n = x.length;
  const k = p.length;
  if (n <= k) return p.map(() => Infinity);
  const J = jacobian(model, x, p);
  const jtj = Array.from({ length: k }, (_, a) => Array.from({ length: k }, (_, b) => J.reduce((s, row) => s + row[a]! * row[b]!, 0)));
  const inverse = invert(jtj);
  const s2 = ssr / (n - k);
  return p.map((_, a) => (inverse && inverse[a]![a]! >= 0 ? Math.sqrt(inverse[a]![a]! * s2) : Infinity));
}

export function rSquared(y: ArrayLike<number>, ssr: number): number {
  let mean = 0;
  for (let i = 0; i < y.length; i++) mean += y[i]!;
  mean /= y.length;
  let sst = 0;
  for (let i = 0; i < y.length; i++) sst += (y[i]! - mean) ** 2;
  return sst > 0 ? 1 - ssr / sst : 0;
}
