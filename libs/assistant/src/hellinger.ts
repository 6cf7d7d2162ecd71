/**
 * Hellinger fidelity between two distributions over bitstrings, (Σ_x √(p(x) q(x)))², the score
 * conductorquantum's QCircuitEval and Qiskit's `hellinger_fidelity` use to grade circuit answers.
 */
export type Distribution = Record<string, number>;

/** Normalises counts (or weights) to probabilities; keys with zero weight are dropped. */
export function normalise(weights: Distribution): Distribution {
  const total = Object.values(weights).reduce((s, v) => s + v, 0);
  const out: Distribution = {};
  if (total <= 0) return out;
  for (const [k, v] of Object.entries(weights)) if (v > 0) out[k] = v / total;
  return out;
}

export function hellingerFidelity(p: Distribution, q: Distribution): number {
  const a = normalise(p);
  const b = normalise(q);
  let bc = 0;
  for (const [k, v] of Object.entries(a)) bc += Math.sqrt(v * (b[k] ?? 0));
  return bc * bc;
}
