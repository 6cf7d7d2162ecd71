// Synthetic superconducting-qubit calibration traces with known truth, for the calibration agent's tests and
// benchmark. Excited-state population (readout contrast C, offset B, Gaussian readout noise σ):
//   Rabi            P = ½(1 − e^{−t/τ} cos(π a / a_π))                        (Krantz et al., Appl. Phys. Rev. 6, 021318 (2019), §IV.D)
//   Ramsey          P = ½(1 − e^{−t/T2*} cos(2π Δ t))                          (ibid., §V.B)
//   T1 / T2 echo    P = e^{−t/T}                                               (ibid., §V)
//   DRAG            ⟨Z⟩ of two pulse sequences, linear in 1/β near the optimum with slopes of opposite sign, crossing at x*
//                   (F. Motzoi et al., PRL 103, 110501 (2009); the "Xπ·Yπ/2 vs Yπ·Xπ/2" check of Reed's thesis (2013))
//   spectroscopy    Lorentzian of HWHM γ: a dip in |S21| (resonator) or a peak in the population (qubit)
import { createSeededRandom, deriveSeed, type SeededRandom } from '../seeded-random.js';

export const CALIBRATION_TRACE_FAMILIES = [
  'rabi-amplitude',
  'rabi-time',
  'ramsey',
  't1',
  't2-echo',
  'drag',
  'resonator-spectroscopy',
  'qubit-spectroscopy',
] as const;
export type CalibrationTraceFamily = (typeof CALIBRATION_TRACE_FAMILIES)[number];

export interface CalibrationTrace {
  family: CalibrationTraceFamily;
  series: { x: number[]; y: number[]; label: string }[];
  /** The key parameter's true value (π amplitude/time, detuning, T1, T2, DRAG crossing, resonance frequency). */
  truth: { name: string; value: number };
  title: string;
  xLabel: string;
  yLabel: string;
  xUnit: string;
  /** Signal amplitude over noise σ. */
  snr: number;
}

export interface CalibrationTraceOptions {
  /** Points per series (default random 41–151). */
  points?: number;
  /** Noise σ relative to the signal's full swing (default random 0.005–0.05, i.e. SNR 20–200 as after averaging). */
  relativeNoise?: number;
}

const linspace = (a: number, b: number, n: number): number[] => Array.from({ length: n }, (_, i) => a + ((b - a) * i) / (n - 1));

function noisy(random: SeededRandom, values: number[], sigma: number): number[] {
  return values.map((v) => v + sigma * random.normal());
}

/** One trace of `family` with random physical parameters drawn from `seed`. */
export function generateCalibrationTrace(family: CalibrationTraceFamily, seed: number, options: CalibrationTraceOptions = {}): CalibrationTrace {
  const random = createSeededRandom(deriveSeed(seed, `calibration-${family}`));
  const n = options.points ?? random.integer(41, 151);
  const rel = options.relativeNoise ?? random.between(0.005, 0.05);
  const contrast = random.between(0.6, 1);
  const offset = random.between(0, 0.15);
  const sigma = rel * contrast;
  const population = (p: number[]) =>
    noisy(
      random,
      p.map((v) => offset + contrast * v),
      sigma,
    );
  const snr = 1 / rel;
  switch (family) {
    case 'rabi-amplitude': {
      const aPi = random.between(0.1, 0.8);
      const x = linspace(0, aPi * random.between(2.2, 4.5), n);
      return {
        family,
        series: [{ x, y: population(x.map((a) => 0.5 * (1 - Math.cos((Math.PI * a) / aPi)))), label: 'data' }],
        truth: { name: 'pi_amplitude', value: aPi },
        title: 'Rabi amplitude',
        xLabel: 'Drive amplitude (a.u.)',
        yLabel: 'Excited state population',
        xUnit: 'a.u.',
        snr,
      };
    }
    case 'rabi-time': {
      const tPi = random.between(20, 120);
      const xMax = tPi * random.between(3, 6);
      const tau = xMax * random.between(0.8, 4);
      const x = linspace(0, xMax, n);
      return {
        family,
        series: [{ x, y: population(x.map((t) => 0.5 * (1 - Math.exp(-t / tau) * Math.cos((Math.PI * t) / tPi)))), label: 'data' }],
        truth: { name: 'pi_time', value: tPi },
        title: 'Rabi time',
        xLabel: 'Pulse duration (ns)',
        yLabel: 'Excited state population',
        xUnit: 'ns',
        snr,
      };
    }
    case 'ramsey': {
      const detuning = random.between(0.3, 2); // MHz
      const xMax = random.between(3, 8) / detuning; // µs: 3–8 fringes
      const t2 = xMax * random.between(0.5, 3);
      const x = linspace(0, xMax, n);
      return {
        family,
        series: [{ x, y: population(x.map((t) => 0.5 * (1 - Math.exp(-t / t2) * Math.cos(2 * Math.PI * detuning * t)))), label: 'data' }],
        truth: { name: 'detuning', value: detuning },
        title: 'Ramsey',
        xLabel: 'Delay (µs)',
        yLabel: 'Excited state population',
        xUnit: 'µs',
        snr,
      };
    }
    case 't1':
    case 't2-echo': {
      const t = random.between(10, 150); // µs
      const x = linspace(0, t * random.between(3, 7), n);
      const echo = family === 't2-echo';
      // The echo decays over half the contrast (to the mixed state): noise is scaled to that swing, as documented.
      const y = echo
        ? noisy(
            random,
            x.map((v) => offset + contrast * (0.5 + 0.5 * Math.exp(-v / t))),
            sigma / 2,
          )
        : population(x.map((v) => Math.exp(-v / t)));
      return {
        family,
        series: [{ x, y, label: 'data' }],
        truth: { name: echo ? 't2' : 't1', value: t },
        title: echo ? 'T2 Hahn echo' : 'T1',
        xLabel: 'Delay (µs)',
        yLabel: 'Excited state population',
        xUnit: 'µs',
        snr,
      };
    }
    case 'drag': {
      const crossing = random.between(-3, 3);
      const halfSpan = random.between(2.5, 5);
      const centre = crossing + random.between(-0.5, 0.5) * halfSpan;
      const m = n > 60 ? Math.round(n / 3) : Math.max(15, Math.round(n / 2));
      const x = linspace(centre - halfSpan, centre + halfSpan, m);
      // ⟨Z⟩ stays inside [−0.95, 0.95]: the steeper line spans at most ±0.8 around the crossing level.
      const reach = Math.max(Math.abs(centre - halfSpan - crossing), Math.abs(centre + halfSpan - crossing));
      const slope1 = (random.between(0.3, 0.8) / reach) * (random.chance(0.5) ? 1 : -1);
      const slope2 = -slope1 * random.between(0.5, 1);
      const level = random.between(-0.15, 0.15);
      const amplitude = Math.abs(slope1 - slope2) * halfSpan;
      const s = rel * amplitude;
      return {
        family,
        series: [
          {
            x,
            y: noisy(
              random,
              x.map((v) => level + slope1 * (v - crossing)),
              s,
            ),
            label: 'Xπ·Yπ/2',
          },
          {
            x: x.slice(),
            y: noisy(
              random,
              x.map((v) => level + slope2 * (v - crossing)),
              s,
            ),
            label: 'Yπ·Xπ/2',
          },
        ],
        truth: { name: 'crossing', value: crossing },
        title: 'DRAG calibration',
        xLabel: 'Inverse DRAG coefficient',
        yLabel: '⟨Z⟩',
        xUnit: '',
        snr,
      };
    }
    case 'resonator-spectroscopy':
    case 'qubit-spectroscopy': {
      const resonator = family === 'resonator-spectroscopy';
      const f0 = resonator ? random.between(6, 7.5) : random.between(4, 5.5); // GHz
      const hwhm = resonator ? random.between(0.3, 2) * 1e-3 : random.between(0.5, 3) * 1e-3;
      const span = hwhm * random.between(12, 30);
      const x = linspace(f0 - span * random.between(0.3, 0.7), f0 + span * random.between(0.3, 0.7), n).map((v) => v);
      const shape = x.map((f) => 1 / (1 + ((f - f0) / hwhm) ** 2));
      const y = resonator
        ? noisy(
            random,
            shape.map((v) => offset + contrast * (1 - 0.8 * v)),
            sigma * 0.8,
          )
        : population(shape);
      return {
        family,
        series: [{ x, y, label: 'data' }],
        truth: { name: 'frequency', value: f0 },
        title: resonator ? 'Resonator spectroscopy' : 'Qubit spectroscopy',
        xLabel: 'Frequency (GHz)',
        yLabel: resonator ? '|S21| (a.u.)' : 'Excited state population',
        xUnit: 'GHz',
        snr,
      };
    }
  }
}
