// Cramér–Rao bound for the decay families of the calibration benchmark (issue #15): how often ANY unbiased estimator
// of T in y = A e^{−x/T} + B (A, T, B unknown; Gaussian noise σ = A / SNR, the generator of
// libs/device-physics calibration-trace.generator.ts) can land within a relative tolerance of the truth. Fisher
// information J = Σ_i g_i g_iᵀ / σ² with g = ∂y/∂(A, T, B) = (e^{−u}, A u e^{−u} / T, 1), u = x/T; var(T̂) ≥ (J⁻¹)_TT
// (e.g. Kay, Fundamentals of Statistical Signal Processing I, §3.7). With T̂ ≈ N(T, var) the chance to be within
// tol·T is erf(tol / (√2 · sd_rel)). Averaged over the benchmark's traces it is the ceiling an efficient fit reaches.

function inverse3(m: number[][]): number[][] {
  const [[a, b, c], [d, e, f], [g, h, i]] = m as [[number, number, number], [number, number, number], [number, number, number]];
  const A = e * i - f * h;
  const B = -(d * i - f * g);
  const C = d * h - e * g;
  const det = a * A + b * B + c * C;
  return [
    [A / det, -(b * i - c * h) / det, (b * f - c * e) / det],
    [B / det, (a * i - c * g) / det, -(a * f - c * d) / det],
    [C / det, -(a * h - b * g) / det, (a * e - b * d) / det],
  ];
}

/** Abramowitz & Stegun 7.1.26 (|error| < 1.5·10⁻⁷). */
function erf(x: number): number {
  const t = 1 / (1 + 0.3275911 * Math.abs(x));
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return x >= 0 ? y : -y;
}

/** Cramér–Rao standard deviation of T̂ / T for samples at `x`, true decay time `t`, noise σ/A = 1/snr. */
export function decayTimeRelativeBound(x: readonly number[], t: number, snr: number): number {
  const j = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  for (const xi of x) {
    const u = xi / t;
    const g = [Math.exp(-u), u * Math.exp(-u), 1];
    for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) j[a]![b]! += g[a]! * g[b]!;
  }
  return Math.sqrt(inverse3(j)[1]![1]!) / snr;
}

/** Chance that an efficient unbiased estimator is within `tolerance` (relative) of T. */
export function chanceWithin(x: readonly number[], t: number, snr: number, tolerance: number): number {
  return erf(tolerance / (Math.SQRT2 * decayTimeRelativeBound(x, t, snr)));
}
