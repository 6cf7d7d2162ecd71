// Fit of one notch resonance to a transmitted-power window: |S21|² = B (1 + t (x − x0)) |1 − d e^{iφ}/(1 + 2i(x − x0)/κ)|²
// — the magnitude of S. Probst et al., Rev. Sci. Instrum. 86, 024706 (2015), Eq. (1), with d = Ql/|Qc| and
// κ = fr/Ql in samples; the environment's slowly varying gain is a local straight line B(1 + t(x − x0)).
// With u = 2(x − x0)/κ: |1 − d e^{iφ}/(1 + iu)|² = 1 − (2d(cos φ + u sin φ) − d²)/(1 + u²).
import { levenbergMarquardt } from './least-squares.js';

export interface NotchFit {
  centre: number;
  /** fr / Ql in samples (FWHM of 1 − |S21|²/baseline). */
  linewidth: number;
  /** Ql / |Qc|. */
  couplingRatio: number;
  phi: number;
  /** Baseline power at the centre. */
  baseline: number;
  /** Minimum of |notch factor|² over detuning (power transmitted at the bottom, relative to baseline). */
  minimumPowerRatio: number;
  /** RMS residual, power units. */
  rms: number;
}

export function notchPowerFactor(u: number, d: number, phi: number): number {
  return 1 - (2 * d * (Math.cos(phi) + u * Math.sin(phi)) - d * d) / (1 + u * u);
}

/** Least-squares notch fit of power[from … to] (indices into the trace) from a starting guess. */
export function fitNotchResonance(
  power: Float64Array,
  from: number,
  to: number,
  guess: { centre: number; linewidth: number; couplingRatio: number; baseline: number },
): NotchFit | null {
  const count = to - from + 1;
  if (count < 5) return null;
  const scale = Math.abs(guess.baseline) > 0 ? Math.abs(guess.baseline) : 1;
  const maxLinewidth = 4 * count;
  const problem = {
    residualCount: count,
    steps: Float64Array.from([1e-3 * guess.linewidth + 1e-4, 1e-3 * guess.linewidth + 1e-4, 1e-4, 1e-4, 1e-6 * scale, 1e-6 / count]),
    residuals(p: Float64Array, out: Float64Array) {
      const [x0, kappa, d, phi, b, t] = p as unknown as [number, number, number, number, number, number];
      for (let i = 0; i < count; i++) {
        const x = from + i;
        const u = (2 * (x - x0)) / kappa;
        out[i] = (b * (1 + t * (x - x0)) * notchPowerFactor(u, d, phi) - power[x]!) / scale;
      }
    },
    constrain(p: Float64Array) {
      p[0] = Math.min(to, Math.max(from, p[0]!));
      p[1] = Math.min(maxLinewidth, Math.max(0.3, p[1]!));
      p[2] = Math.min(1.5, Math.max(0.005, p[2]!));
      p[3] = Math.min(1.4, Math.max(-1.4, p[3]!));
      p[5] = Math.min(1 / count, Math.max(-1 / count, p[5]!));
    },
  };
  const start = Float64Array.from([guess.centre, guess.linewidth, Math.min(1.2, Math.max(0.02, guess.couplingRatio)), 0, guess.baseline, 0]);
  const result = levenbergMarquardt(problem, start);
  if (!Number.isFinite(result.cost)) return null;
  const [centre, linewidth, couplingRatio, phi, baseline] = result.params as unknown as [number, number, number, number, number];
  // Minimum of the notch factor: solve sin φ u² + (2cos φ − d) u − sin φ = 0 (dP/du = 0), or u = 0 when φ = 0.
  let minimumPowerRatio = notchPowerFactor(0, couplingRatio, phi);
  const s = Math.sin(phi);
  if (Math.abs(s) > 1e-12) {
    const b = 2 * Math.cos(phi) - couplingRatio;
    for (const u of [(-b + Math.sqrt(b * b + 4 * s * s)) / (2 * s), (-b - Math.sqrt(b * b + 4 * s * s)) / (2 * s)]) {
      minimumPowerRatio = Math.min(minimumPowerRatio, notchPowerFactor(u, couplingRatio, phi));
    }
  }
  return { centre, linewidth, couplingRatio, phi, baseline, minimumPowerRatio: Math.max(0, minimumPowerRatio), rms: Math.sqrt(result.cost / count) * scale };
}
