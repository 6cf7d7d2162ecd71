// Turns a fitted calibration experiment into SPEC §6's assessment: status by per-family rules (documented in
// docs/agents.md), a reliability score, the next step, and a readable summary. The six questions QCalEval asks
// of a calibration plot (what experiment, is there signal, did the fit work, what is the value, is the scan
// range right, what next) are what `experiment`, `status`, `fit`, `next_step` and `content` answer.
import type { AssessmentStatus, CalibrationAssessment, CalibrationContext, CalibrationFamily, CalibrationSeries, FitSummary } from './calibration.types.js';
import { detectFamily } from './family-detection.js';
import { fitOscillation, type FamilyFit } from './fit/family-fits.js';
import { typicalStep } from './fit/initial-guesses.js';
import { fitDecayWithFloor, fitDragCrossing, fitResonatorLine, fitSpectroscopyLines } from './fit/lab-fits.js';

/** Signal-to-noise ratio (fitted amplitude / residual σ) below which nothing is called a signal. */
export const MIN_SNR = 3;
/** r² below which a fit is not trusted to describe the data. */
export const MIN_R_SQUARED = 0.3;

const KEY_PARAMETER: Record<CalibrationFamily, string> = {
  'rabi-amplitude': 'pi_amplitude',
  'rabi-time': 'pi_time',
  ramsey: 'detuning',
  t1: 't1',
  't2-echo': 't2',
  drag: 'crossing',
  'resonator-spectroscopy': 'frequency',
  'qubit-spectroscopy': 'frequency',
};

const TITLES: Record<CalibrationFamily, string> = {
  'rabi-amplitude': 'Rabi (amplitude sweep)',
  'rabi-time': 'Rabi (duration sweep)',
  ramsey: 'Ramsey',
  t1: 'T1 relaxation',
  't2-echo': 'T2 Hahn echo',
  drag: 'DRAG',
  'resonator-spectroscopy': 'resonator spectroscopy',
  'qubit-spectroscopy': 'qubit spectroscopy',
};

export interface CalibrationResult {
  assessment: CalibrationAssessment;
  /** Readable summary of the assessment. */
  content: string;
  /** The fitted curves (data units), for overlays and for comparing readers. */
  curves: ((x: number) => number)[];
  familySource: 'experiment' | 'text' | 'shape';
}

interface Verdict {
  status: AssessmentStatus;
  nextStep: string;
}

const fmt = (v: number): string => (Math.abs(v) >= 1e4 || (Math.abs(v) < 1e-3 && v !== 0) ? v.toExponential(3) : Number(v.toPrecision(4)).toString());
const withUnit = (v: number, unit: string): string => (unit ? `${fmt(v)} ${unit}` : fmt(v));

function fitFamily(family: CalibrationFamily, series: CalibrationSeries[], xUnit: string, yUnit: string): FamilyFit | null {
  const main = [...series].sort((a, b) => b.x.length - a.x.length)[0]!;
  switch (family) {
    case 'rabi-amplitude':
      return fitOscillation(main, { damped: false, keyName: 'pi_amplitude', xUnit, yUnit, kind: 'rabi' });
    case 'rabi-time':
      return fitOscillation(main, { damped: true, keyName: 'pi_time', xUnit, yUnit, kind: 'rabi' });
    case 'ramsey':
      return fitOscillation(main, { damped: true, keyName: 'detuning', xUnit, yUnit, kind: 'ramsey' });
    case 't1':
      return fitDecayWithFloor(main, 't1', xUnit, yUnit);
    case 't2-echo':
      return fitDecayWithFloor(main, 't2', xUnit, yUnit);
    case 'drag':
      return fitDragCrossing(series, xUnit, yUnit);
    case 'resonator-spectroscopy':
      return fitResonatorLine(main, xUnit, yUnit);
    case 'qubit-spectroscopy':
      return fitSpectroscopyLines(main, xUnit, yUnit);
  }
}

/** Per-family status rules (docs/agents.md, "Status rules"). */
function judge(family: CalibrationFamily, fit: FamilyFit, series: CalibrationSeries[], xUnit: string): Verdict {
  const x = series.flatMap((s) => s.x);
  const xMin = Math.min(...x);
  const xMax = Math.max(...x);
  const span = xMax - xMin;
  const step = typicalStep([...series].sort((a, b) => b.x.length - a.x.length)[0]!.x);
  const p = fit.summary.parameters;
  const key = p[KEY_PARAMETER[family]]!.value;
  const snr = fit.amplitude / Math.max(fit.noise, 1e-300);
  const weak = snr < MIN_SNR || fit.summary.r_squared < MIN_R_SQUARED;
  const u = (v: number) => withUnit(v, xUnit);
  switch (family) {
    case 'rabi-amplitude':
    case 'rabi-time': {
      const what = family === 'rabi-amplitude' ? 'amplitude' : 'duration';
      const f = p.rabi_rate!.value;
      if (weak || f * span < 0.3)
        return {
          status: 'no-signal',
          nextStep: `No Rabi oscillation is visible. Check the drive frequency (run qubit spectroscopy) and increase the ${what} range.`,
        };
      if (key > xMax)
        return {
          status: 'needs-adjustment',
          nextStep: `The π-pulse ${what} (${u(key)}) lies beyond the scan (max ${u(xMax)}); extend the ${what} range to at least ${u(2 * key)}.`,
        };
      if (f * step > 0.25)
        return { status: 'needs-adjustment', nextStep: `Fewer than four points per Rabi period; reduce the ${what} step below ${u(1 / (8 * f))}.` };
      return { status: 'success', nextStep: `Set the π-pulse ${what} to ${u(key)} (π/2: ${u(key / 2)}), then run Ramsey to fine-tune the qubit frequency.` };
    }
    case 'ramsey': {
      if (weak)
        return {
          status: 'no-signal',
          nextStep: 'No Ramsey fringes are visible. Check the π/2 pulse (Rabi) and the qubit frequency (spectroscopy), and shorten the delays.',
        };
      if (key * span < 1)
        return {
          status: 'needs-adjustment',
          nextStep: `Less than one fringe in the scan (detuning ${fmt(key)} per ${xUnit || 'x unit'}); increase the deliberate detuning or the delay range.`,
        };
      if (key * step > 0.4)
        return { status: 'needs-adjustment', nextStep: 'Fringes are near the sampling limit (aliasing risk); reduce the delay step or the detuning.' };
      const t2 = p.t2_star?.value;
      return {
        status: 'success',
        nextStep: `Detuning ${fmt(key)}${xUnit ? ` 1/${xUnit}` : ''}: correct the qubit frequency by this amount (sign from the set detuning)${t2 && t2 < 1e300 ? `; T2* ≈ ${u(t2)}` : ''}.`,
      };
    }
    case 't1':
    case 't2-echo': {
      const name = family === 't1' ? 'T1' : 'T2';
      if (fit.summary.parameters.amplitude!.value === 0 || weak)
        return { status: 'no-signal', nextStep: `No decay is visible. Check the π pulse (Rabi) and readout, and extend the delays.` };
      if (key > 1e300 || key <= 0)
        return { status: 'failed', nextStep: `The signal does not decay (fitted rate ≤ 0); the data do not look like a ${name} measurement.` };
      if (span < 2 * key)
        return {
          status: 'needs-adjustment',
          nextStep: `${name} ≈ ${u(key)} but the scan covers only ${u(span)}; extend the delays to about ${u(5 * key)} for a reliable fit.`,
        };
      if (key < 3 * step)
        return { status: 'needs-adjustment', nextStep: `${name} ≈ ${u(key)} is shorter than three delay steps; use a finer delay step (≤ ${u(key / 5)}).` };
      return { status: 'success', nextStep: `${name} = ${u(key)}. Use delays up to about ${u(5 * key)} for future ${name} scans.` };
    }
    case 'drag': {
      const dm = Math.abs(p.slope_1!.value - p.slope_2!.value);
      const dmErr = Math.hypot(p.slope_1!.stderr, p.slope_2!.stderr);
      if (dm < 3 * dmErr || fit.summary.r_squared < MIN_R_SQUARED)
        return {
          status: 'no-signal',
          nextStep: 'The two series do not cross with a resolvable angle; widen the DRAG range or increase the number of pulse repetitions.',
        };
      if (key < xMin || key > xMax)
        return {
          status: 'needs-adjustment',
          nextStep: `The lines cross at ${u(key)}, outside the scanned range [${u(xMin)}, ${u(xMax)}]; re-centre the scan on the crossing.`,
        };
      return { status: 'success', nextStep: `Set the DRAG parameter to the crossing, ${u(key)}, then repeat with more pulse repetitions to refine it.` };
    }
    case 'resonator-spectroscopy':
    case 'qubit-spectroscopy': {
      const fwhm = p.fwhm!.value;
      const what = family === 'resonator-spectroscopy' ? 'resonance' : 'qubit transition';
      if (weak)
        return {
          status: 'no-signal',
          nextStep: `No ${what} is visible; widen the frequency range or raise the ${family === 'resonator-spectroscopy' ? 'readout' : 'drive'} power.`,
        };
      if (key < xMin || key > xMax || key - xMin < fwhm / 2 || xMax - key < fwhm / 2)
        return { status: 'needs-adjustment', nextStep: `The ${what} (${u(key)}) is at or beyond the edge of the scan; re-centre the sweep on it.` };
      if (fwhm < 2 * step)
        return { status: 'needs-adjustment', nextStep: `The line (FWHM ${u(fwhm)}) is narrower than two frequency steps; use a finer step around ${u(key)}.` };
      return {
        status: 'success',
        nextStep:
          family === 'resonator-spectroscopy'
            ? `Set the readout frequency to ${u(key)} (linewidth ${u(fwhm)}).`
            : `Set the qubit drive frequency to ${u(key)}, then run a Rabi experiment.`,
      };
    }
  }
}

/**
 * Reliability in [0, 1]: √r² × (1 − e^{−SNR/5}) × 1/(1 + 10·relative stderr of the key parameter); zero when
 * there is no signal or the fit failed.
 */
function reliabilityOf(family: CalibrationFamily, fit: FamilyFit, status: AssessmentStatus): number {
  if (status === 'no-signal' || status === 'failed') return 0;
  const key = fit.summary.parameters[KEY_PARAMETER[family]]!;
  const relative = Math.abs(key.stderr / (key.value || 1e-300));
  const snr = fit.amplitude / Math.max(fit.noise, 1e-300);
  const value = Math.sqrt(Math.max(0, fit.summary.r_squared)) * (1 - Math.exp(-snr / 5)) * (1 / (1 + 10 * relative));
  return Math.round(Math.max(0, Math.min(1, value)) * 1000) / 1000;
}

function summarise(assessment: CalibrationAssessment, family: CalibrationFamily | undefined): string {
  const lines = [`Experiment: ${family ? TITLES[family] : 'unknown'} (${assessment.series} series). Status: ${assessment.status}.`];
  if (assessment.fit && family) {
    const key = KEY_PARAMETER[family];
    const parts = Object.entries(assessment.fit.parameters)
      .filter(([name]) => name !== 'phase' && name !== 'offset')
      .map(([name, p]) => `${name} = ${fmt(p.value)} ± ${fmt(p.stderr)}${p.unit ? ` ${p.unit}` : ''}`);
    lines.push(`Fit ${assessment.fit.model} (R² = ${assessment.fit.r_squared.toFixed(3)}): ${parts.join(', ')}. Key result: ${key}.`);
  }
  lines.push(`Reliability ${assessment.reliability.toFixed(2)}. Next step: ${assessment.next_step}`);
  return lines.join('\n');
}

/** Checks the arrays a caller sent; throws a message saying what was expected and what came. */
export function validateSeries(series: CalibrationSeries[]): void {
  if (series.length === 0) throw new RangeError('expected at least one series');
  for (const [i, s] of series.entries()) {
    if (s.x.length !== s.y.length) throw new RangeError(`series ${i}: expected x and y of equal length; got ${s.x.length} and ${s.y.length}`);
    if (s.x.length < 5) throw new RangeError(`series ${i}: expected at least 5 points; got ${s.x.length}`);
    if (![...s.x, ...s.y].every(Number.isFinite)) throw new RangeError(`series ${i}: expected finite numbers; got NaN or Infinity`);
  }
}

/** Sorts each series by x (fits and range rules assume increasing x). */
function sorted(series: CalibrationSeries[]): CalibrationSeries[] {
  return series.map((s) => {
    const order = s.x.map((_, i) => i).sort((a, b) => s.x[a]! - s.x[b]!);
    return { ...s, x: order.map((i) => s.x[i]!), y: order.map((i) => s.y[i]!) };
  });
}

/** Fits and assesses measured series (the `data` path, and the last step of the plot reader). */
export function assessCalibration(input: CalibrationSeries[], context: CalibrationContext = {}): CalibrationResult {
  validateSeries(input);
  const series = sorted(input);
  const { family, source } = detectFamily(series, context);
  const xUnit = context.xUnit ?? '';
  const yUnit = context.yUnit ?? '';
  let fit: FamilyFit | null = null;
  try {
    fit = fitFamily(family, series, xUnit, yUnit);
  } catch {
    fit = null;
  }
  let assessment: CalibrationAssessment;
  if (!fit || !Object.values(fit.summary.parameters).every((p) => Number.isFinite(p.value))) {
    assessment = {
      experiment: family,
      status: 'failed',
      fit: null,
      reliability: 0,
      next_step: `The ${TITLES[family]} model could not be fitted to the data; check that the data are a ${TITLES[family]} measurement.`,
      series: series.length,
    };
  } else {
    const verdict = judge(family, fit, series, xUnit);
    const summary: FitSummary = { ...fit.summary, r_squared: Math.round(fit.summary.r_squared * 1e6) / 1e6 };
    assessment = {
      experiment: family,
      status: verdict.status,
      fit: summary,
      reliability: reliabilityOf(family, fit, verdict.status),
      next_step: verdict.nextStep,
      series: series.length,
    };
  }
  return { assessment, content: summarise(assessment, family), curves: fit?.curves ?? [], familySource: source };
}

export const keyParameterOf = (family: CalibrationFamily): string => KEY_PARAMETER[family];
