// L2-regularised logistic regression on standardised features, fitted by Newton–Raphson / IRLS (Hastie,
// Tibshirani & Friedman, The Elements of Statistical Learning, 2nd ed., §4.4.1). Its output is a probability
// trained on log-loss, so it is calibrated on the training distribution (checked by the reliability table of
// the accuracy benchmark on held-out seeds).

export interface LogisticModel {
  /** Per-feature mean and std used to standardise, then weights and bias. */
  mean: number[];
  std: number[];
  weights: number[];
  bias: number;
}

export function logisticScore(model: LogisticModel, features: ArrayLike<number>): number {
  let z = model.bias;
  for (let j = 0; j < model.weights.length; j++) z += model.weights[j]! * ((features[j]! - model.mean[j]!) / model.std[j]!);
  return 1 / (1 + Math.exp(-z));
}

function solve(a: Float64Array, b: Float64Array, m: number): Float64Array {
  // Cholesky of the (positive-definite, ridge-regularised) Hessian.
  const l = new Float64Array(m * m);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i * m + j]!;
      for (let k = 0; k < j; k++) s -= l[i * m + k]! * l[j * m + k]!;
      l[i * m + j] = i === j ? Math.sqrt(Math.max(s, 1e-12)) : s / l[j * m + j]!;
    }
  }
  const y = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= l[i * m + k]! * y[k]!;
    y[i] = s / l[i * m + i]!;
  }
  const x = new Float64Array(m);
  for (let i = m - 1; i >= 0; i--) {
    let s = y[i]!;
    for (let k = i + 1; k < m; k++) s -= l[k * m + i]! * x[k]!;
    x[i] = s / l[i * m + i]!;
  }
  return x;
}

export function trainLogisticRegression(features: number[][], labels: boolean[], l2 = 1e-2, iterations = 30): LogisticModel {
  const n = features.length;
  const d = features[0]!.length;
  const mean = new Array<number>(d).fill(0);
  const std = new Array<number>(d).fill(0);
  for (const f of features) for (let j = 0; j < d; j++) mean[j] = mean[j]! + f[j]! / n;
  for (const f of features) for (let j = 0; j < d; j++) std[j] = std[j]! + (f[j]! - mean[j]!) ** 2 / n;
  for (let j = 0; j < d; j++) std[j] = Math.sqrt(std[j]!) || 1;
  const m = d + 1;
  const x = features.map((f) => [...f.map((v, j) => (v - mean[j]!) / std[j]!), 1]);
  let w = new Float64Array(m);
  for (let it = 0; it < iterations; it++) {
    const h = new Float64Array(m * m);
    const g = new Float64Array(m);
    for (let i = 0; i < n; i++) {
      const xi = x[i]!;
      let z = 0;
      for (let j = 0; j < m; j++) z += w[j]! * xi[j]!;
      const p = 1 / (1 + Math.exp(-z));
      const r = p - (labels[i] ? 1 : 0);
      const s = Math.max(p * (1 - p), 1e-9);
      for (let j = 0; j < m; j++) {
        g[j] = g[j]! + r * xi[j]!;
        for (let k = 0; k <= j; k++) h[j * m + k] = h[j * m + k]! + s * xi[j]! * xi[k]!;
      }
    }
    for (let j = 0; j < m; j++) {
      for (let k = 0; k < j; k++) h[k * m + j] = h[j * m + k]!;
      if (j < d) {
        h[j * m + j] = h[j * m + j]! + l2 * n;
        g[j] = g[j]! + l2 * n * w[j]!;
      }
    }
    const step = solve(h, g, m);
    let change = 0;
    const next = new Float64Array(m);
    for (let j = 0; j < m; j++) {
      next[j] = w[j]! - step[j]!;
      change = Math.max(change, Math.abs(step[j]!));
    }
    w = next;
    if (change < 1e-8) break;
  }
  return { mean, std, weights: Array.from(w.subarray(0, d)), bias: w[d]! };
}
