// Repeated resonator sweeps with a faint dip in every row (issue 29), with exact ground truth per row.
// Physical reason: single-photon-level spectroscopy (readout power kept low so that the resonator stays linear and the
// qubit unperturbed) and short averaging per row, repeated many times — vs flux, gate voltage, power or simply time —
// give rows whose one resonance is only 5–18 times the point-to-point noise deep (mostly 5–8): the HEMT's added
// noise is white and the same in every row. Between rows the resonance wanders by up to a linewidth (two-level-system
// and flux noise: frequency jitter) and the baseline drifts by a few per cent (amplifier gain drift, thermal); in half
// the sweeps the gain also drifts within a row (1/f), by up to 2 σ, slowly enough that the point-to-point noise — the
// σ the depths are quoted in — stays that of the white noise; standing-wave ripple up to 1 σ.
// Lineshape: notch |S21| = |1 − d e^{iφ}/(1 + 2iQl δ)| (Probst et al., Rev. Sci. Instrum. 86, 024706 (2015);
// Khalil et al., J. Appl. Phys. 111, 054510 (2012) for φ); noise is complex Gaussian per quadrature, so the magnitude
// noise is σ per point at the baseline. Rows with `flat: true` have no resonance in the window (tuned away), the same
// noise, tilt and ripple: what a finder reports there is a false dip.
// Labels: `index` = bottom of the noiseless dip, `width` = its FWHM in 1 − |S|²/baseline² (samples; matching tolerance
// ½ width), `depthSigma` = noiseless depth / σ.
import { createSeededRandom, deriveSeed, type SeededRandom } from './seeded-random.js';

/** Row depth / noise: this fraction of rows uniform in the faint range, the rest log-uniform up to the maximum. */
export const REPEATED_DIP_FAINT_FRACTION = 0.7;
export const REPEATED_DIP_FAINT_RANGE = [5, 8] as const;
export const REPEATED_DIP_MAX_DEPTH_SIGMA = 18;

export interface RepeatedDipSweepOptions {
  /** Rows (default 20–60). */
  rows?: number;
  /** Samples per row (default log-uniform 91–2001). */
  length?: number;
  /** Fraction of rows without a resonance (default 0). */
  flatFraction?: number;
  /** Every row's depth / σ (default: 70 % uniform 5–8, else log-uniform 8–18). The random draws are made anyway, so a
   * seed gives the same sweep otherwise. */
  depthSigma?: number;
  /** Within-row drift RMS in σ (default: 0 in half the sweeps, else uniform 0–2). */
  driftSigma?: number;
}

export interface RepeatedDipRow {
  trace: Float64Array;
  /** null on a flat row. */
  dip: { index: number; width: number; depthSigma: number } | null;
}

export interface RepeatedDipSweep {
  length: number;
  rows: RepeatedDipRow[];
}

function complexNormal(random: SeededRandom): [number, number] {
  return [random.normal(), random.normal()];
}

export function generateRepeatedDipSweep(seed: number, options: RepeatedDipSweepOptions = {}): RepeatedDipSweep {
  const random = createSeededRandom(deriveSeed(seed, 'repeated-dip-sweep'));
  const rowCount = options.rows ?? random.integer(20, 60);
  const length = options.length ?? Math.round(random.logBetween(91, 2001));
  const flatFraction = options.flatFraction ?? 0;
  const coupling = random.logBetween(0.03, 0.9); // Ql/|Qc|: the notch depth for φ = 0 (under-coupled: shallow)
  const phi = random.between(-0.3, 0.3);
  // κ in samples: survey rows (coarse steps: 1.2 samples up to 5 % of the span) or zoomed rows centred on the known
  // resonance (FWHM 5–30 % of the span), half each.
  const fwhm = random.chance(0.5) ? random.logBetween(1.2, Math.max(6, 0.05 * length)) : random.logBetween(0.05, 0.3) * length;
  const centre0 = random.between(0.25, 0.75) * (length - 1);
  const tilt = random.between(-0.05, 0.05);
  // Standing-wave ripple up to one noise σ (relative to the baseline; set per row below).
  const rippleInSigma = random.chance(0.5) ? random.between(0, 1) : 0;
  let rippleAmplitude = 0;
  // Half the sweeps drift within a row by up to 2 σ (std), slowly: the point-to-point noise stays σ.
  const drawnDrift = random.chance(0.5) ? random.between(0, 2) : 0;
  const driftInSigma = options.driftSigma ?? drawnDrift;
  const ripplePeriod = random.between(0.3, 1.5) * length;
  const rows: RepeatedDipRow[] = [];
  let centre = centre0;
  for (let r = 0; r < rowCount; r++) {
    centre = Math.min(0.85 * (length - 1), Math.max(0.15 * (length - 1), centre + 0.3 * fwhm * random.normal()));
    const flat = random.chance(flatFraction);
    const gain = 1 + 0.03 * random.normal();
    const ripplePhase = random.between(0, 2 * Math.PI);
    const drawnDepth = random.chance(REPEATED_DIP_FAINT_FRACTION)
      ? random.between(REPEATED_DIP_FAINT_RANGE[0], REPEATED_DIP_FAINT_RANGE[1])
      : random.logBetween(REPEATED_DIP_FAINT_RANGE[1], REPEATED_DIP_MAX_DEPTH_SIGMA);
    const depthSigma = options.depthSigma ?? drawnDepth;
    rippleAmplitude = (rippleInSigma * coupling * Math.cos(phi)) / depthSigma;
    const clean = new Float64Array(length);
    const env = new Float64Array(length);
    for (let i = 0; i < length; i++) {
      env[i] = gain * (1 + (tilt * (i - length / 2)) / length) * (1 + rippleAmplitude * Math.sin((2 * Math.PI * i) / ripplePeriod + ripplePhase));
      let re = 1;
      let im = 0;
      if (!flat) {
        const u = (2 * (i - centre)) / fwhm;
        const den = 1 + u * u;
        re = 1 - (coupling * (Math.cos(phi) + u * Math.sin(phi))) / den;
        im = -(coupling * (Math.sin(phi) - u * Math.cos(phi))) / den;
      }
      clean[i] = env[i]! * Math.hypot(re, im);
    }
    let bottom = 0;
    for (let i = 1; i < length; i++) if (clean[i]! / env[i]! < clean[bottom]! / env[bottom]!) bottom = i;
    // Depth relative to the local environment; noise σ set by the row's depth in σ.
    const depth = flat ? coupling * gain : env[bottom]! - clean[bottom]!;
    const sigma = depth / depthSigma;
    // Slow gain drift within the row (1/f-like: harmonics k = 1…4 of the row, amplitude ∝ 1/k), in units of σ.
    const drift = new Float64Array(length);
    if (driftInSigma > 0) {
      for (let k = 1; k <= 4; k++) {
        const amplitude = random.normal() / k;
        const phase = random.between(0, 2 * Math.PI);
        for (let i = 0; i < length; i++) drift[i]! += amplitude * Math.sin((2 * Math.PI * k * i) / length + phase);
      }
      let power = 0;
      for (let i = 0; i < length; i++) power += drift[i]! * drift[i]!;
      const norm = Math.sqrt(power / length) || 1;
      for (let i = 0; i < length; i++) drift[i] = (driftInSigma * sigma * drift[i]!) / norm;
    }
    const trace = new Float64Array(length);
    for (let i = 0; i < length; i++) {
      // Complex noise on the complex signal: |S + n| (the signal's phase does not change the magnitude statistics).
      const [a, b] = complexNormal(random);
      trace[i] = Math.hypot(clean[i]! + drift[i]! + sigma * a, sigma * b);
    }
    let dip: RepeatedDipRow['dip'] = null;
    if (!flat) {
      // FWHM of 1 − |S|²/env² around the bottom.
      const power = (i: number) => 1 - (clean[i]! / env[i]!) ** 2;
      const half = power(bottom) / 2;
      let left = bottom;
      while (left > 0 && power(left) > half) left--;
      let right = bottom;
      while (right < length - 1 && power(right) > half) right++;
      dip = { index: bottom, width: Math.max(1, right - left), depthSigma };
    }
    rows.push({ trace, dip });
  }
  return { length, rows };
}
