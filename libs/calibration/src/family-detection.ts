// Which experiment a plot or data set shows: the caller's `experiment` first, then words in the title, axis
// labels and prompt (QCalEval's families: Rabi, Ramsey, T1, echo, DRAG, spectroscopy), then the shape, chosen by
// the Bayesian information criterion among the candidate fit models (G. Schwarz, Ann. Stat. 6, 461 (1978)).
import type { CalibrationContext, CalibrationFamily, CalibrationSeries } from './calibration.types.js';
import { fitDragLines, fitExponentialDecay, fitLorentzian, fitOscillation } from './fit/family-fits.js';

const ALIASES: [RegExp, CalibrationFamily][] = [
  [/^drag|beta/, 'drag'],
  [/^ramsey|t2[-_ ]?(\*|star)/, 'ramsey'],
  [/echo|hahn|^t2e?$|^t2[-_ ]/, 't2-echo'],
  [/^t1|relaxation/, 't1'],
  [/rabi.*(time|duration|length)|time[-_ ]?rabi/, 'rabi-time'],
  [/rabi/, 'rabi-amplitude'],
  [/resonator|readout|cavity|punch/, 'resonator-spectroscopy'],
  [/qubit.*spec|two[-_ ]?tone|spectroscopy/, 'qubit-spectroscopy'],
];

/** The family named by the caller's `experiment` string, or undefined when it names none we fit. */
export function familyFromName(name: string | undefined): CalibrationFamily | undefined {
  if (!name) return undefined;
  const text = name.trim().toLowerCase();
  for (const [pattern, family] of ALIASES) if (pattern.test(text)) return family;
  return undefined;
}

const TIME_WORDS = /time|duration|length|delay|\b(ns|us|µs|μs|ms|s)\b/;
const AMPLITUDE_WORDS = /amp|power|drive|dac|voltage|\bv\b|scale/;

/** Scores families by words in the text (title and labels weigh more than the prompt); undefined when none match. */
export function familyFromText(context: CalibrationContext): CalibrationFamily | undefined {
  const strong = [context.title, context.yLabel].filter(Boolean).join(' ').toLowerCase();
  const xLabel = (context.xLabel ?? '').toLowerCase();
  const prompt = (context.prompt ?? '').toLowerCase();
  const scores = new Map<CalibrationFamily, number>();
  const add = (family: CalibrationFamily, weight: number) => scores.set(family, (scores.get(family) ?? 0) + weight);
  const scan = (text: string, weight: number) => {
    if (!text) return;
    if (/\bdrag\b|inverse drag|\bbeta\b|β/.test(text)) add('drag', 3 * weight);
    if (/ramsey|t2\s*\*|t2 star|t2\*/.test(text)) add('ramsey', 3 * weight);
    if (/echo|hahn|\bt2e\b|\bt2\b(?!\s*\*)/.test(text)) add('t2-echo', 2 * weight);
    if (/\bt1\b|relaxation|energy decay/.test(text)) add('t1', 3 * weight);
    if (/rabi/.test(text)) add(TIME_WORDS.test(xLabel) && !AMPLITUDE_WORDS.test(xLabel) ? 'rabi-time' : 'rabi-amplitude', 3 * weight);
    // A swept pulse duration is Rabi's axis (Ramsey, T1 and echo sweep a delay): a weak vote.
    if (/pulse (duration|length|width)|\bduration\b/.test(text)) add('rabi-time', 0.5 * weight);
    if (/resonator|readout|cavity|transmission|\bs21\b|punch/.test(text)) add('resonator-spectroscopy', 2 * weight);
    if (/qubit spec|two[- ]tone|qubit freq|spectroscopy/.test(text))
      add(/resonator|readout|cavity/.test(text) ? 'resonator-spectroscopy' : 'qubit-spectroscopy', 1.5 * weight);
  };
  scan(strong, 2);
  scan(xLabel, 1);
  scan(prompt, 1);
  let best: CalibrationFamily | undefined;
  let bestScore = 0;
  for (const [family, score] of scores) {
    if (score > bestScore) {
      best = family;
      bestScore = score;
    }
  }
  return best;
}

const bic = (ssr: number, n: number, k: number): number => n * Math.log(Math.max(ssr, 1e-300) / n) + k * Math.log(n);

/** Shape only: the candidate model with the lowest BIC; two or more near-linear series are DRAG. */
export function familyFromShape(series: CalibrationSeries[]): CalibrationFamily {
  const main = [...series].sort((a, b) => b.x.length - a.x.length)[0]!;
  if (series.length >= 2) {
    const drag = fitDragLines(series, '', '');
    if (drag && drag.summary.r_squared > 0.6) return 'drag';
  }
  const n = main.x.length;
  const candidates: { family: CalibrationFamily; score: number }[] = [];
  const exp = fitExponentialDecay(main, 't1', '', '');
  const ssrOf = (curve: (x: number) => number) => main.x.reduce((s, x, i) => s + (main.y[i]! - curve(x)) ** 2, 0);
  if (exp) candidates.push({ family: 't1', score: bic(ssrOf(exp.curves[0]!), n, 3) });
  const cos = fitOscillation(main, { damped: false, keyName: 'pi_amplitude', xUnit: '', yUnit: '', kind: 'rabi' });
  if (cos) candidates.push({ family: 'rabi-amplitude', score: bic(ssrOf(cos.curves[0]!), n, 4) });
  const damped = fitOscillation(main, { damped: true, keyName: 'pi_time', xUnit: '', yUnit: '', kind: 'ramsey' });
  if (damped) {
    // Decay adds one parameter; ask for a clear gain before calling it Ramsey rather than amplitude Rabi.
    candidates.push({ family: 'ramsey', score: bic(ssrOf(damped.curves[0]!), n, 5) + 6 });
  }
  const lor = fitLorentzian(main, '', '');
  if (lor) {
    const span = Math.abs(main.x[n - 1]! - main.x[0]!);
    const fwhm = lor.summary.parameters.fwhm!.value;
    const dip = lor.summary.parameters.amplitude!.value < 0;
    const centre = lor.summary.parameters.frequency!.value;
    const inside = centre - main.x[0]! > fwhm && main.x[n - 1]! - centre > fwhm;
    if (fwhm < span / 2 && inside)
      candidates.push({ family: dip ? 'resonator-spectroscopy' : 'qubit-spectroscopy', score: bic(ssrOf(lor.curves[0]!), n, 4) - 2 });
  }
  candidates.sort((a, b) => a.score - b.score);
  return candidates[0]?.family ?? 't1';
}

/** Caller's name, then text, then shape. */
export function detectFamily(series: CalibrationSeries[], context: CalibrationContext): { family: CalibrationFamily; source: 'experiment' | 'text' | 'shape' } {
  const named = familyFromName(context.experiment);
  if (named) return { family: named, source: 'experiment' };
  const fromText = familyFromText(context);
  if (fromText) return { family: fromText, source: 'text' };
  return { family: familyFromShape(series), source: 'shape' };
}
