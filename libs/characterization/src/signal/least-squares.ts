// Damped Gauss–Newton (Levenberg–Marquardt) least squares for small models: K. Levenberg, Q. Appl. Math. 2,
// 164 (1944); D. W. Marquardt, J. SIAM 11, 431 (1963). Forward-difference Jacobian, Marquardt's diagonal
// scaling, normal equations solved by Gaussian elimination with partial pivoting (≤ ~10 parameters).

export interface LeastSquaresProblem {
  /** Fills `out` (length = residual count) with model − data for the given parameters. */
  residuals(params: Float64Array, out: Float64Array): void;
  residualCount: number;
  /** Clamps parameters into their physical range in place. */
  constrain?(params: Float64Array): void;
  /** Per-parameter step for the finite-difference Jacobian. */
  steps: Float64Array;
}

export interface LeastSquaresResult {
  params: Float64Array;
  cost: number;
  converged: boolean;
}

const MAX_ITERATIONS = 60;

function solveInPlace(a: Float64Array, b: Float64Array, m: number): boolean {
  for (let col = 0; col < m; col++) {
    let pivot = col;
    for (let r = col + 1; r < m; r++) if (Math.abs(a[r * m + col]!) > Math.abs(a[pivot * m + col]!)) pivot = r;
    if (!(Math.abs(a[pivot * m + col]!) > 1e-300)) return false;
    if (pivot !== col) {
      for (let c = 0; c < m; c++) {
        const t = a[col * m + c]!;
        a[col * m + c] = a[pivot * m + c]!;
        a[pivot * m + c] = t;
      }
      const t = b[col]!;
      b[col] = b[pivot]!;
      b[pivot] = t;
    }
    for (let r = col + 1; r < m; r++) {
      const f = a[r * m + col]! / a[col * m + col]!;
      for (let c = col; c < m; c++) a[r * m + c] = a[r * m + c]! - f * a[col * m + c]!;
      b[r] = b[r]! - f * b[col]!;
    }
  }
  for (let r = m - 1; r >= 0; r--) {
    let s = b[r]!;
    for (let c = r + 1; c < m; c++) s -= a[r * m + c]! * b[c]!;
    b[r] = s / a[r * m + r]!;
  }
  return true;
}

function sumOfSquares(r: Float64Array): number {
  let s = 0;
  for (let i = 0; i < r.length; i++) s += r[i]! * r[i]!;
  return s;
}

export function levenbergMarquardt(problem: LeastSquaresProblem, initial: Float64Array): LeastSquaresResult {
  const m = initial.length;
  const n = problem.residualCount;
  const params = Float64Array.from(initial);
  problem.constrain?.(params);
  const r = new Float64Array(n);
  const rTrial = new Float64Array(n);
  const jac = new Float64Array(n * m);
  const jtj = new Float64Array(m * m);
  const jtr = new Float64Array(m);
  const a = new Float64Array(m * m);
  const delta = new Float64Array(m);
  const trial = new Float64Array(m);
  problem.residuals(params, r);
  let cost = sumOfSquares(r);
  if (!Number.isFinite(cost)) return { params, cost, converged: false };
  let lambda = 1e-3;
  let converged = false;
  for (let iteration = 0; iteration < MAX_ITERATIONS && !converged; iteration++) {
    for (let p = 0; p < m; p++) {
      const saved = params[p]!;
      params[p] = saved + problem.steps[p]!;
      problem.residuals(params, rTrial);
      params[p] = saved;
      for (let i = 0; i < n; i++) jac[i * m + p] = (rTrial[i]! - r[i]!) / problem.steps[p]!;
    }
    jtj.fill(0);
    jtr.fill(0);
    for (let i = 0; i < n; i++) {
      for (let p = 0; p < m; p++) {
        const jp = jac[i * m + p]!;
        jtr[p] = jtr[p]! + jp * r[i]!;
        for (let q = p; q < m; q++) jtj[p * m + q] = jtj[p * m + q]! + jp * jac[i * m + q]!;
      }
    }
    for (let p = 0; p < m; p++) for (let q = 0; q < p; q++) jtj[p * m + q] = jtj[q * m + p]!;
    let improved = false;
    for (let attempt = 0; attempt < 12 && !improved; attempt++) {
      a.set(jtj);
      for (let p = 0; p < m; p++) {
        a[p * m + p] = jtj[p * m + p]! * (1 + lambda) + 1e-300;
        delta[p] = -jtr[p]!;
      }
      if (!solveInPlace(a, delta, m)) {
        lambda *= 10;
        continue;
      }
      for (let p = 0; p < m; p++) trial[p] = params[p]! + delta[p]!;
      problem.constrain?.(trial);
      problem.residuals(trial, rTrial);
      const trialCost = sumOfSquares(rTrial);
      if (Number.isFinite(trialCost) && trialCost <= cost) {
        converged = cost - trialCost <= 1e-10 * cost;
        params.set(trial);
        r.set(rTrial);
        cost = trialCost;
        lambda = Math.max(1e-9, lambda / 3);
        improved = true;
      } else {
        lambda *= 4;
      }
    }
    if (!improved) converged = true;
  }
  return { params, cost, converged };
}
