// Held-out accuracy of the calibration agent's fits (ising-calibration-v1, libs/calibration; issue #29) on lab-like
// traces (libs/device-physics/src/calibration/lab-calibration-trace.generator.ts: Fano resonators on sloped, rippled
// baselines, power-broadened and double qubit lines, floored T1 with few points, noisy two- and three-sequence DRAG,
// drifting Rabi/Ramsey/echo, 15 % with readout glitches). Seeds: BENCHMARK_SEEDS (offset 300 000); the fits were tuned
// on TUNING_SEEDS only. Metric: fraction of traces whose key fitted value lands within a physicist's tolerance of the
// generating value. Baseline: what a notebook does — scipy.optimize.curve_fit of the textbook model from generic
// initial guesses (extreme point, FFT peak, first/last level; np.polyfit lines for DRAG), re-implemented on the same
// Levenberg–Marquardt fitter. Real data: the quantify-core / qutilities traces in ../shared/data/real against the
// values their authors' own fits assert.
import { assessCalibration, keyParameterOf, levenbergMarquardt, type CalibrationSeries, type ModelFunction } from '#qdc/calibration';
import {
  benchmarkSeeds,
  CALIBRATION_TRACE_FAMILIES,
  generateLabCalibrationTrace,
  type CalibrationTraceFamily,
  type LabCalibrationTrace,
} from '#qdc/device-physics';
import { loadRealCase, realDataAvailable } from './real-cases.js';
import type { AccuracySection, ReportRow } from './report-table.js';

const TARGET = 0.9;
const SEED_OFFSET = 300_000;
const MAX_TRACES = 200;

/** Tolerance per family: the half-width of the window the fitted value must land in, and how it is stated. */
const TOLERANCE: Record<CalibrationTraceFamily, { text: string; of: (t: LabCalibrationTrace) => number }> = {
  'rabi-amplitude': { text: 'π amplitude ±5 %', of: (t) => 0.05 * t.truth.value },
  'rabi-time': { text: 'π time ±5 %', of: (t) => 0.05 * t.truth.value },
  ramsey: { text: 'detuning ±3 %', of: (t) => 0.03 * t.truth.value },
  t1: { text: 'T1 ±10 %', of: (t) => 0.1 * t.truth.value },
  't2-echo': { text: 'T2 ±10 %', of: (t) => 0.1 * t.truth.value },
  drag: { text: 'β ±10 % of scan range', of: (t) => 0.1 * t.extra.range! },
  'resonator-spectroscopy': { text: 'f_r ±¼ linewidth (κ = f_r/Q_l)', of: (t) => 0.25 * t.extra.linewidth! },
  'qubit-spectroscopy': { text: 'f01 ±¼ FWHM of the main line', of: (t) => 0.25 * t.extra.linewidth! },
};

// ---- Naive baseline: textbook model, generic p0, one LM run (as curve_fit) ----

const mean = (v: number[]) => v.reduce((s, a) => s + a, 0) / v.length;
const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** np.fft.rfft peak (k ≥ 1) on the sample index, converted to cycles per x unit with the mean step. */
function fftPeak(x: number[], y: number[]): number {
  const n = y.length;
  const m = mean(y);
  const dx = (x[n - 1]! - x[0]!) / (n - 1);
  let best = 1;
  let bestPower = -1;
  for (let k = 1; k <= n >> 1; k++) {
    let c = 0;
    let s = 0;
    for (let i = 0; i < n; i++) {
      c += (y[i]! - m) * Math.cos((2 * Math.PI * k * i) / n);
      s += (y[i]! - m) * Math.sin((2 * Math.PI * k * i) / n);
    }
    if (c * c + s * s > bestPower) {
      bestPower = c * c + s * s;
      best = k;
    }
  }
  return best / (n * dx);
}

const cosine: ModelFunction = (x, [a, f, phi, b]) => a! * Math.cos(2 * Math.PI * f! * x + phi!) + b!;
const dampedCosine: ModelFunction = (x, [a, f, phi, b, r]) => a! * Math.exp(-r! * x) * Math.cos(2 * Math.PI * f! * x + phi!) + b!;
const exponential: ModelFunction = (x, [a, r, b]) => a! * Math.exp(-r! * x) + b!;
const lorentzian: ModelFunction = (x, [a, x0, g, b]) => a! / (1 + ((x - x0!) / g!) ** 2) + b!;

function polyfit(x: number[], y: number[]): [number, number] {
  const mx = mean(x);
  const my = mean(y);
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < x.length; i++) {
    sxx += (x[i]! - mx) ** 2;
    sxy += (x[i]! - mx) * (y[i]! - my);
  }
  const m = sxy / sxx;
  return [m, my - m * mx];
}

export function naiveFit(family: CalibrationTraceFamily, series: CalibrationSeries[]): number {
  const { x, y } = series[0]!;
  const span = x[x.length - 1]! - x[0]!;
  const amp = (Math.max(...y) - Math.min(...y)) / 2;
  switch (family) {
    case 'rabi-amplitude':
    case 'rabi-time': {
      const damped = family === 'rabi-time';
      const p0 = [amp, fftPeak(x, y), 0, mean(y), ...(damped ? [1 / span] : [])];
      const fit = levenbergMarquardt(damped ? dampedCosine : cosine, x, y, p0);
      return 1 / (2 * Math.abs(fit.parameters[1]!));
    }
    case 'ramsey': {
      const fit = levenbergMarquardt(dampedCosine, x, y, [amp, fftPeak(x, y), 0, mean(y), 1 / span]);
      return Math.abs(fit.parameters[1]!);
    }
    case 't1':
    case 't2-echo': {
      const fit = levenbergMarquardt(exponential, x, y, [y[0]! - y[y.length - 1]!, 3 / span, y[y.length - 1]!]);
      return 1 / fit.parameters[1]!;
    }
    case 'drag': {
      const [m1, c1] = polyfit(series[0]!.x, series[0]!.y);
      const [m2, c2] = polyfit(series[1]!.x, series[1]!.y);
      return (c2 - c1) / (m1 - m2);
    }
    case 'resonator-spectroscopy':
    case 'qubit-spectroscopy': {
      const base = median(y);
      let k = 0;
      for (let i = 1; i < y.length; i++) if (Math.abs(y[i]! - base) > Math.abs(y[k]! - base)) k = i;
      const fit = levenbergMarquardt(lorentzian, x, y, [y[k]! - base, x[k]!, span / 20, base]);
      return fit.parameters[1]!;
    }
  }
}

function qdcFit(family: CalibrationTraceFamily, series: CalibrationSeries[], xUnit: string): number {
  const result = assessCalibration(series, { experiment: family, xUnit });
  return result.assessment.fit?.parameters[keyParameterOf(family)]?.value ?? Number.NaN;
}

/** Sub-populations reported as info rows when they hold ≥ 10 traces. */
const FEATURES = [
  'Fano |φ| ≥ 0.4',
  'ripple',
  'power-broadened',
  'double line',
  'short scan',
  'floor > 10 %',
  'geometric delays',
  'three sequences',
  'curved',
  'noise > 40 % of separation',
  'glitch',
];

export function calibrationScores(
  family: CalibrationTraceFamily,
  seeds: number[],
): { qdc: number; naive: number; features: Map<string, { n: number; qdc: number; naive: number }>; t2Star?: number; ceiling?: number } {
  let qdc = 0;
  let naive = 0;
  let t2Hits = 0;
  let ceiling = 0;
  const features = new Map<string, { n: number; qdc: number; naive: number }>();
  for (const seed of seeds) {
    const trace = generateLabCalibrationTrace(family, seed);
    const tolerance = TOLERANCE[family].of(trace);
    const truth = trace.truth.value;
    let ours = Number.NaN;
    let t2 = Number.NaN;
    try {
      const result = assessCalibration(trace.series, { experiment: family, xUnit: trace.xUnit });
      ours = result.assessment.fit?.parameters[keyParameterOf(family)]?.value ?? Number.NaN;
      t2 = result.assessment.fit?.parameters.t2_star?.value ?? Number.NaN;
    } catch {
      ours = Number.NaN;
    }
    let theirs = Number.NaN;
    try {
      theirs = naiveFit(family, trace.series);
    } catch {
      theirs = Number.NaN;
    }
    const hitQ = Math.abs(ours - truth) <= tolerance;
    const hitN = Math.abs(theirs - truth) <= tolerance;
    if (hitQ) qdc++;
    if (hitN) naive++;
    if (family === 't1' || family === 't2-echo') {
      // Noise ceiling: the textbook model started at the true parameters (what the noise alone allows).
      const { x, y } = trace.series[0]!;
      const fit = levenbergMarquardt(exponential, x, y, [trace.extra.amplitude!, 1 / truth, trace.extra.baseline!]);
      if (Math.abs(1 / fit.parameters[1]! - truth) <= tolerance) ceiling++;
    }
    if (family === 'ramsey' && Math.abs(t2 - trace.extra.t2_star!) <= 0.25 * trace.extra.t2_star!) t2Hits++;
    for (const feature of new Set(trace.features)) {
      const entry = features.get(feature) ?? { n: 0, qdc: 0, naive: 0 };
      entry.n++;
      if (hitQ) entry.qdc++;
      if (hitN) entry.naive++;
      features.set(feature, entry);
    }
  }
  return {
    qdc: qdc / seeds.length,
    naive: naive / seeds.length,
    features,
    ...(family === 'ramsey' ? { t2Star: t2Hits / seeds.length } : {}),
    ...(family === 't1' || family === 't2-echo' ? { ceiling: ceiling / seeds.length } : {}),
  };
}

/** Real traces with their authors' fitted values: [case, family, truth, tolerance, x scale]. */
interface RealCheck {
  name: string;
  family: CalibrationTraceFamily;
  row?: number;
  truth: number;
  tolerance: number;
  toleranceText: string;
}

/** A resonator case: its authors' fitted f_r and loaded Q, so the tolerance is a quarter linewidth (κ = f_r / Q). */
function resonatorCase(name: string, fr: number, loadedQ: number): RealCheck {
  return { name, family: 'resonator-spectroscopy', truth: fr, tolerance: 0.25 * (fr / loadedQ), toleranceText: '±¼ κ' };
}

const REAL_CHECKS: RealCheck[] = [
  { name: 'quantify_rabi', family: 'rabi-amplitude', truth: 0.4988, tolerance: 0.005, toleranceText: '±0.005 V (test)' },
  { name: 'quantify_t1', family: 't1', truth: 1.07e-5, tolerance: 0.1 * 1.07e-5, toleranceText: '±10 %' },
  { name: 'quantify_echo', family: 't2-echo', truth: 1.0e-5, tolerance: 0.1e-5, toleranceText: '±10 %' },
  { name: 'quantify_ramsey', family: 'ramsey', truth: 260217.48, tolerance: 0.03 * 260217.48, toleranceText: '±3 %' },
  resonatorCase('quantify_resonator_id2_a', 4482667411.33, 4949.63),
  resonatorCase('quantify_resonator_id2_b', 4482704759.65, 4148.42),
  resonatorCase('quantify_resonator_id4', 4540265849.63, 4917.42),
  resonatorCase('quantify_resonator_id5', 4576407330.09, 6475.14),
  {
    name: 'qutilities_s21_3powers',
    row: 1,
    family: 'resonator-spectroscopy',
    truth: 7041959000,
    tolerance: 0.25 * 7041959000 * (1 / 302791 + 1 / 89837),
    toleranceText: '±¼ κ',
  },
];

function realSeries(check: RealCheck): CalibrationSeries[] {
  const { shape, data } = loadRealCase(check.name);
  const n = shape[shape.length - 1]!;
  // Axis ranges as stored in each case's JSON (start, stop, length).
  const axes: Record<string, [number, number]> = {
    quantify_rabi: [-1, 1],
    quantify_t1: [3e-7, 6e-5],
    quantify_echo: [4e-7, 3.2e-5],
    quantify_ramsey: [2e-7, 1e-5],
    quantify_resonator_id2_a: [4474800000, 4490700000],
    quantify_resonator_id2_b: [4474800000, 4490780000],
    quantify_resonator_id4: [4532500000, 4548480000],
    quantify_resonator_id5: [4568800000, 4584780000],
    qutilities_s21_3powers: [7041000000, 7043000000],
  };
  const [start, stop] = axes[check.name]!;
  const x = Array.from({ length: n }, (_, i) => start + ((stop - start) * i) / (n - 1));
  const y = Array.from(data.subarray((check.row ?? 0) * n, ((check.row ?? 0) + 1) * n));
  return [{ x, y }];
}

export function accuracySections(traces: number): AccuracySection[] {
  const n = Math.min(traces, MAX_TRACES);
  const seeds = benchmarkSeeds(n, SEED_OFFSET);
  const header = ['family', 'tolerance', 'N', 'QDC', 'naive curve_fit', 'target'];
  const rows: ReportRow[] = [];
  const featureRows: ReportRow[] = [];
  for (const family of CALIBRATION_TRACE_FAMILIES) {
    const s = calibrationScores(family, seeds);
    // Where the noise alone keeps an ideal fit under the target (T1, echo), the target is that ceiling.
    const target = s.ceiling !== undefined && s.ceiling < TARGET ? s.ceiling : TARGET;
    const targetText = target < TARGET ? `≥ ${target.toFixed(3)} (ceiling)` : `≥ ${TARGET}`;
    rows.push({ cells: [family, TOLERANCE[family].text, String(n), s.qdc.toFixed(3), s.naive.toFixed(3), targetText], pass: s.qdc >= target });
    if (s.ceiling !== undefined)
      rows.push({
        cells: [`${family} noise ceiling`, `${TOLERANCE[family].text}, LM started at the truth`, String(n), s.ceiling.toFixed(3), '', 'info'],
        pass: null,
      });
    if (s.t2Star !== undefined) rows.push({ cells: ['ramsey T2*', 'T2* ±25 %', String(n), s.t2Star.toFixed(3), '', 'info'], pass: null });
    for (const feature of FEATURES) {
      const e = s.features.get(feature);
      if (!e || e.n < 10) continue;
      featureRows.push({ cells: [family, feature, String(e.n), (e.qdc / e.n).toFixed(3), (e.naive / e.n).toFixed(3), 'info'], pass: null });
    }
  }
  const sections: AccuracySection[] = [
    { title: 'Calibration fits on lab-like traces (held-out BENCHMARK_SEEDS)', header, rows },
    { title: 'Calibration fits by imperfection (same traces)', header: ['family', 'feature', 'N', 'QDC', 'naive curve_fit', 'target'], rows: featureRows },
  ];
  if (realDataAvailable()) {
    const realRows: ReportRow[] = [];
    for (const check of REAL_CHECKS) {
      const series = realSeries(check);
      const ours = qdcFit(check.family, series, '');
      let theirs = Number.NaN;
      try {
        theirs = naiveFit(check.family, series);
      } catch {
        theirs = Number.NaN;
      }
      const ok = Math.abs(ours - check.truth) <= check.tolerance;
      const rel = (v: number) => `${v.toPrecision(6)} (${(((v - check.truth) / check.tolerance) * 100).toFixed(0)} % of tol)`;
      realRows.push({
        cells: [
          `${check.name}${check.row !== undefined ? ` row ${check.row}` : ''}`,
          check.family,
          check.truth.toPrecision(6),
          check.toleranceText,
          rel(ours),
          rel(theirs),
        ],
        pass: ok,
      });
    }
    sections.push({
      title: 'Calibration fits on measured traces (authors’ fitted values)',
      header: ['case', 'family', 'authors', 'tolerance', 'QDC', 'naive curve_fit'],
      rows: realRows,
    });
  }
  return sections;
}
