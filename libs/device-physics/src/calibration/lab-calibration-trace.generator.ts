// Real-looking superconducting-qubit calibration traces (issue #29), harder than calibration-trace.generator.ts:
// each trace carries the imperfections lab data show, and its truth is the generating parameter the lab's own fit
// reports. Features and their physical reasons:
//   resonator spectroscopy  |S21| of a notch resonator with a complex coupling Q_c = |Q_c| e^{−iφ}:
//                           S21 = a (1 + s·u + r cos(2π u/P + ψ)) [1 − (Q_l/|Q_c|) e^{iφ} / (1 + 2i Q_l (f/f_r − 1))]
//                           (S. Probst et al., Rev. Sci. Instrum. 86, 024706 (2015), eq. 1). φ ≠ 0 comes from an
//                           impedance mismatch / complex background and makes the dip Fano-asymmetric (its minimum is
//                           not at f_r); the sloped baseline s is the cables' frequency-dependent loss and the ripple r
//                           a standing wave between mismatched connectors. Complex Gaussian noise from the amplifier
//                           chain is added before taking the magnitude. Truth: f_r.
//   qubit spectroscopy      Saturated two-level line P = ½ S/(1 + S + (Δ/γ)²): HWHM γ√(1 + S) grows with drive power
//                           (power broadening; Abragam, Principles of Nuclear Magnetism (1961), ch. III), convolved with
//                           a Gaussian of the flux-noise inhomogeneous width (a Voigt line). 45 % carry a second, weaker
//                           line: a two-level-system defect splitting the transition (Y. Shalibo et al., PRL 105,
//                           177001 (2010)) or a thermally populated excited-state / two-photon line beside it. Truth:
//                           the centre of the strongest line (what the lab sets the drive to).
//   T1                      A e^{−t/T1} + B with a non-zero floor B (residual thermal excited population, readout
//                           offset; K. Geerlings et al., PRL 110, 120501 (2013)), 15–40 delays (30 % geometric), scans
//                           of 2–6 T1 and readout voltage of either sign. Truth: T1.
//   T2 echo                 Decay towards the mixed-state level (floor ½ of the contrast) with a slow readout drift.
//   DRAG                    ⟨Z⟩ of two or three interleaved sequences (Xπ·Yπ/2, Yπ·Xπ/2 and a repeated-pulse variant),
//                           A_i sin(k_i (β − β*)) around a common level: linear near β*, bending towards the scan edges,
//                           all crossing at β* (F. Motzoi et al., PRL 103, 110501 (2009); M. Reed, PhD thesis, Yale (2013)).
//                           Shot noise σ is 15–60 % of the lines' separation at the scan edge. Truth: β*.
//   Rabi / Ramsey           ½(1 − e^{−x/τ} cos(…)) with a slow offset drift (amplifier / readout-resonator drift during
//                           the acquisition) and readout noise; Ramsey fringes decay with T2* (Krantz et al., Appl. Phys.
//                           Rev. 6, 021318 (2019), §V). Truth: π amplitude / π time / detuning (and T2* for Ramsey).
// Every family: 15 % of traces carry one or two readout glitches (4–8 σ outliers: a missed trigger, a cosmic-ray
// burst). Seeds: tune on TUNING_SEEDS, report on BENCHMARK_SEEDS (seeds.ts).
import { createSeededRandom, deriveSeed, type SeededRandom } from '../seeded-random.js';
import type { CalibrationTraceFamily } from './calibration-trace.generator.js';

export interface LabCalibrationTrace {
  family: CalibrationTraceFamily;
  series: { x: number[]; y: number[]; label: string }[];
  /** The key parameter the lab fits (name as the calibration agent reports it) and its true value. */
  truth: { name: string; value: number };
  /** Other true values (linewidth, T2*, scan range…) the benchmark's tolerances use. */
  extra: Record<string, number>;
  /** Which imperfections this trace carries (for sub-population rows). */
  features: string[];
  xUnit: string;
}

const linspace = (a: number, b: number, n: number): number[] => Array.from({ length: n }, (_, i) => a + ((b - a) * i) / (n - 1));

/** A slow drift: linear ramp plus a smoothed random walk, normalised to peak amplitude `size`. */
function drift(random: SeededRandom, n: number, size: number): number[] {
  const ramp = random.between(-1, 1);
  let walk = 0;
  const raw = Array.from({ length: n }, (_, i) => {
    walk += random.normal() / Math.sqrt(n);
    return ramp * (i / Math.max(1, n - 1) - 0.5) + 0.5 * walk;
  });
  const peak = Math.max(...raw.map(Math.abs), 1e-12);
  return raw.map((v) => (size * v) / peak);
}

/** Adds Gaussian noise and, on 15 % of traces, one or two 4–8 σ glitches. */
function measure(random: SeededRandom, values: number[], sigma: number, features: string[], addNoise = true): number[] {
  const y = values.map((v) => (addNoise ? v + sigma * random.normal() : v));
  if (random.chance(0.15)) {
    features.push('glitch');
    const count = random.integer(1, 2);
    for (let k = 0; k < count; k++) {
      const i = random.integer(0, y.length - 1);
      y[i]! += (random.chance(0.5) ? 1 : -1) * random.between(4, 8) * sigma;
    }
  }
  return y;
}

/** One lab-like trace of `family` drawn from `seed`. */
export function generateLabCalibrationTrace(family: CalibrationTraceFamily, seed: number): LabCalibrationTrace {
  const random = createSeededRandom(deriveSeed(seed, `lab-calibration-${family}`));
  const features: string[] = [];
  // Readout: a voltage offset and a contrast of either sign (the population maps to I, Q or |V| linearly).
  const contrast = random.between(0.2, 1.5) * (random.chance(0.5) ? 1 : -1);
  const offset = random.between(-1, 1);
  switch (family) {
    case 'rabi-amplitude':
    case 'rabi-time': {
      const amplitude = family === 'rabi-amplitude';
      const xPi = amplitude ? random.between(0.1, 0.8) : random.between(20, 120);
      const n = random.integer(31, 101);
      const x = linspace(0, xPi * random.between(2.2, 5), n);
      const tau = amplitude ? (random.chance(0.5) ? Infinity : x[n - 1]! * random.between(1, 5)) : x[n - 1]! * random.between(0.8, 4);
      if (Number.isFinite(tau)) features.push('damped');
      const rel = random.between(0.02, 0.1);
      const d = drift(random, n, Math.abs(contrast) * random.between(0, 0.05));
      const y = measure(
        random,
        x.map((v, i) => offset + contrast * 0.5 * (1 - Math.exp(-v / tau) * Math.cos((Math.PI * v) / xPi)) + d[i]!),
        rel * Math.abs(contrast),
        features,
      );
      return {
        family,
        series: [{ x, y, label: 'data' }],
        truth: { name: amplitude ? 'pi_amplitude' : 'pi_time', value: xPi },
        extra: { snr: 1 / rel },
        features,
        xUnit: amplitude ? 'V' : 'ns',
      };
    }
    case 'ramsey': {
      const detuning = random.between(0.2, 2); // MHz
      const n = random.integer(40, 120);
      const xMax = random.between(3, 10) / detuning;
      const t2 = xMax * random.between(0.3, 2);
      const x = linspace(xMax / n, xMax, n);
      const rel = random.between(0.02, 0.1);
      const d = drift(random, n, Math.abs(contrast) * random.between(0, 0.05));
      const phase = random.between(-0.3, 0.3); // π/2-pulse error and phase-advance of the virtual-Z detuning
      const y = measure(
        random,
        x.map((t, i) => offset + contrast * 0.5 * (1 - Math.exp(-t / t2) * Math.cos(2 * Math.PI * detuning * t + phase)) + d[i]!),
        rel * Math.abs(contrast),
        features,
      );
      return {
        family,
        series: [{ x, y, label: 'data' }],
        truth: { name: 'detuning', value: detuning },
        extra: { t2_star: t2, snr: 1 / rel },
        features,
        xUnit: 'µs',
      };
    }
    case 't1':
    case 't2-echo': {
      const echo = family === 't2-echo';
      const t = random.between(10, 150); // µs
      const n = echo ? random.integer(30, 80) : random.integer(15, 40);
      const reach = t * random.between(2, 6);
      if (reach < 3 * t) features.push('short scan');
      const geometric = !echo && random.chance(0.3);
      if (geometric) features.push('geometric delays');
      const t0 = reach * random.between(0.002, 0.02);
      const x = geometric ? linspace(Math.log(t0), Math.log(reach), n).map(Math.exp) : linspace(t0, reach, n);
      // Excited population after the π pulse: (1 − 2 p_th) e^{−t/T1} + p_th; echo decays to the mixed state ½.
      const pTh = echo ? 0 : random.between(0.02, 0.25);
      if (pTh > 0.1) features.push('floor > 10 %');
      const rel = random.between(0.005, 0.03);
      const d = drift(random, n, echo ? Math.abs(contrast) * random.between(0, 0.015) : 0);
      const population = (v: number) => (echo ? 0.5 + 0.5 * Math.exp(-v / t) : (1 - 2 * pTh) * Math.exp(-v / t) + pTh);
      const y = measure(
        random,
        x.map((v, i) => offset + contrast * population(v) + d[i]!),
        rel * Math.abs(contrast),
        features,
      );
      return {
        family,
        series: [{ x, y, label: 'data' }],
        truth: { name: echo ? 't2' : 't1', value: t },
        extra: {
          floor: pTh,
          snr: 1 / rel,
          // y = A e^{−t/T} + B before noise and drift: the start of the noise-ceiling fit.
          amplitude: contrast * (echo ? 0.5 : 1 - 2 * pTh),
          baseline: offset + contrast * (echo ? 0.5 : pTh),
        },
        features,
        xUnit: 'µs',
      };
    }
    case 'drag': {
      const halfSpan = random.between(1, 4);
      const beta = random.between(-2, 2);
      const centre = beta + random.between(-0.45, 0.45) * halfSpan;
      const lo = centre - halfSpan;
      const hi = centre + halfSpan;
      const m = random.integer(15, 41);
      const x = linspace(lo, hi, m);
      const three = random.chance(0.4);
      if (three) features.push('three sequences');
      const reach = Math.max(beta - lo, hi - beta);
      const level = random.between(-0.1, 0.1);
      const slope = (random.between(0.25, 0.7) / reach) * (random.chance(0.5) ? 1 : -1);
      const slopes = [slope, -slope * random.between(0.5, 1.5)];
      if (three) slopes.push(slope * random.between(1.5, 3) * (random.chance(0.5) ? 1 : -1));
      // sin(k (β − β*)) / k: slope as given at β*, bending by up to ~1 rad at the far edge (curved lines).
      const bend = random.between(0, 1) / reach;
      if (bend * reach > 0.6) features.push('curved');
      const separation = Math.abs(slopes[0]! - slopes[1]!) * halfSpan;
      const noiseFraction = random.between(0.15, 0.6);
      if (noiseFraction > 0.4) features.push('noise > 40 % of separation');
      const sigma = noiseFraction * separation;
      const labels = ['Xπ·Yπ/2', 'Yπ·Xπ/2', '(Xπ·Yπ/2)³'];
      const series = slopes.map((s, k) => ({
        x: x.slice(),
        y: measure(
          random,
          x.map((v) => level + (bend > 0 ? (s * Math.sin(bend * (v - beta))) / bend : s * (v - beta))),
          sigma,
          features,
        ),
        label: labels[k]!,
      }));
      return {
        family,
        series,
        truth: { name: 'crossing', value: beta },
        extra: { range: hi - lo, snr: 1 / noiseFraction },
        features: [...new Set(features)],
        xUnit: '',
      };
    }
    case 'resonator-spectroscopy': {
      const fr = random.between(4, 8); // GHz
      const ql = random.logBetween(2e3, 5e4);
      const kappa = fr / ql; // FWHM
      const depth = random.between(0.3, 0.95); // Q_l / |Q_c|
      const phi = random.between(-0.8, 0.8);
      if (Math.abs(phi) >= 0.4) features.push('Fano |φ| ≥ 0.4');
      const n = random.integer(101, 801);
      const span = kappa * random.logBetween(5, 30);
      const centre = fr + random.between(-0.25, 0.25) * span;
      const x = linspace(centre - span / 2, centre + span / 2, n);
      const slope = random.between(-0.15, 0.15);
      const ripple = random.chance(0.5) ? random.between(0.005, 0.05) : 0;
      if (ripple > 0) features.push('ripple');
      const period = span * random.between(0.4, 3);
      const psi = random.between(0, 2 * Math.PI);
      const a = random.between(0.01, 1);
      const rel = random.logBetween(0.005, 0.08) * depth;
      const noisy = x.map((f) => {
        const u = (f - centre) / span;
        const g = a * (1 + slope * u + ripple * Math.cos((2 * Math.PI * (f - centre)) / period + psi));
        // 1 − d e^{iφ}/(1 + 2i Q_l δ), δ = f/f_r − 1
        const w = 2 * ql * (f / fr - 1);
        const den = 1 + w * w;
        const nr = depth * (Math.cos(phi) + w * Math.sin(phi));
        const ni = depth * (Math.sin(phi) - w * Math.cos(phi));
        const re = g * (1 - nr / den) + a * rel * random.normal();
        const im = g * (-ni / den) + a * rel * random.normal();
        return Math.hypot(re, im);
      });
      const y = measure(random, noisy, a * rel, features, false);
      return {
        family,
        series: [{ x, y, label: '|S21|' }],
        truth: { name: 'frequency', value: fr },
        extra: { linewidth: kappa, phi, snr: depth / rel },
        features,
        xUnit: 'GHz',
      };
    }
    case 'qubit-spectroscopy': {
      const f0 = random.between(4, 6); // GHz
      const gamma = random.logBetween(0.2, 2) * 1e-3; // natural HWHM
      const saturation = random.logBetween(0.1, 20);
      if (saturation > 3) features.push('power-broadened');
      const hwhm = gamma * Math.sqrt(1 + saturation);
      const inhomogeneous = random.chance(0.5) ? hwhm * random.between(0.2, 1) : 0;
      const double = random.chance(0.45);
      const satellite = double ? { shift: random.between(1.5, 6) * hwhm * (random.chance(0.5) ? 1 : -1), weight: random.between(0.2, 0.6) } : null;
      if (satellite) features.push('double line');
      const n = random.integer(61, 401);
      const span = hwhm * random.between(10, 30);
      const centre = f0 + random.between(-0.2, 0.2) * span + (satellite ? satellite.shift / 2 : 0);
      const x = linspace(centre - span / 2, centre + span / 2, n);
      const line = (d: number) => (0.5 * saturation) / (1 + saturation + (d / gamma) ** 2);
      // Voigt by Gauss–Hermite-like quadrature over 21 Gaussian offsets.
      const nodes = Array.from({ length: 21 }, (_, k) => (k - 10) / 4);
      const weights = nodes.map((z) => Math.exp(-0.5 * z * z));
      const wSum = weights.reduce((s, w) => s + w, 0);
      const voigt = (d: number) => (inhomogeneous > 0 ? nodes.reduce((s, z, k) => s + weights[k]! * line(d - z * inhomogeneous), 0) / wSum : line(d));
      const population = (f: number) => voigt(f - f0) + (satellite ? satellite.weight * voigt(f - f0 - satellite.shift) : 0);
      const peak = voigt(0);
      const rel = random.between(0.03, 0.12);
      const slope = random.between(-0.3, 0.3) * Math.abs(contrast) * peak;
      const y = measure(
        random,
        x.map((f) => offset + contrast * population(f) + (slope * (f - centre)) / span),
        rel * Math.abs(contrast) * peak,
        features,
      );
      return {
        family,
        series: [{ x, y, label: 'data' }],
        truth: { name: 'frequency', value: f0 },
        // Voigt FWHM (J. J. Olivero & R. L. Longbothum, JQSRT 17, 233 (1977)).
        extra: { linewidth: 0.5346 * 2 * hwhm + Math.sqrt(0.2166 * (2 * hwhm) ** 2 + (2.3548 * inhomogeneous) ** 2), snr: 1 / rel },
        features,
        xUnit: 'GHz',
      };
    }
  }
}
