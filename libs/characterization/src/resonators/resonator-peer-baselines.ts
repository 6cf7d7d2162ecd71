// Open-source peers of resonator-dip-finder-v0, re-implemented for the accuracy benchmark (issue 29): what a lab gets
// from the usual tools on a magnitude row with one resonance, so the benchmark shows QDC next to them on the same data.
// 1. scipy.signal.find_peaks with `prominence` on −|S21| (P. Virtanen et al., Nat. Methods 17, 261 (2020); the
//    algorithm of scipy/signal/_peak_finding_utils.pyx: local maxima with plateaus resolved to their middle sample,
//    topographic prominence without a window), the most prominent peak kept when its prominence reaches
//    FIND_PEAKS_PROMINENCE_SIGMA × σ (σ = MAD of first differences / √2 · 1.4826), then a Lorentzian + line
//    least-squares fit over ±3 half-prominence widths to centre it.
// 2. resonator_tools' notch_port fit (S. Probst et al., Rev. Sci. Instrum. 86, 024706 (2015);
//    github.com/sebastianprobst/resonator_tools), magnitude path: the resonance guessed at the minimum of |S21|², its
//    width from the half-depth crossing (as `_fit_skewed_lorentzian` starts), then the notch model of Eq. (1) (with
//    the Fano angle) fitted to |S21|² over the whole sweep; the fitted fr is the answer. Like the tool it has no
//    significance test: every row gets one resonance.
// Neither is part of the model catalogue; the circle fit on complex data needs the phase, which these rows lack.
import { levenbergMarquardt } from '../signal/least-squares.js';
import { fitNotchResonance } from '../signal/notch-resonance-fit.js';
import { MAD_TO_SIGMA, medianInPlace } from '../signal/order-statistics.js';

/** find_peaks baseline: minimum prominence of the kept peak, in units of the point-to-point noise σ. */
export const FIND_PEAKS_PROMINENCE_SIGMA = 5;

/** σ of white noise from the median absolute first difference (/√2). */
export function firstDifferenceNoise(values: Float64Array): number {
  const n = values.length;
  if (n < 2) return 0;
  const d = new Float64Array(n - 1);
  for (let i = 1; i < n; i++) d[i - 1] = Math.abs(values[i]! - values[i - 1]!);
  return (MAD_TO_SIGMA * medianInPlace(d, n - 1)) / Math.SQRT2;
}

/** scipy.signal._peak_finding_utils._local_maxima_1d: strict local maxima, a plateau's middle sample (floor). */
export function localMaxima(x: Float64Array): number[] {
  const peaks: number[] = [];
  const last = x.length - 1;
  let i = 1;
  while (i < last) {
    if (x[i - 1]! < x[i]!) {
      let ahead = i + 1;
      while (ahead < last && x[ahead] === x[i]) ahead++;
      if (x[ahead]! < x[i]!) {
        peaks.push((i + ahead - 1) >> 1);
        i = ahead;
      }
    }
    i++;
  }
  return peaks;
}

/** scipy.signal.peak_prominences (wlen = None) of one peak, with its bases. */
export function prominenceOf(x: Float64Array, peak: number): { prominence: number; leftBase: number; rightBase: number } {
  const top = x[peak]!;
  let leftMin = top;
  let leftBase = peak;
  for (let i = peak; i >= 0 && x[i]! <= top; i--) {
    if (x[i]! < leftMin) {
      leftMin = x[i]!;
      leftBase = i;
    }
  }
  let rightMin = top;
  let rightBase = peak;
  for (let i = peak; i < x.length && x[i]! <= top; i++) {
    if (x[i]! < rightMin) {
      rightMin = x[i]!;
      rightBase = i;
    }
  }
  return { prominence: top - Math.max(leftMin, rightMin), leftBase, rightBase };
}

/** Peer 1: find_peaks(−|S21|, prominence) + Lorentzian fit; at most one dip (the most prominent). */
export function findPeaksLorentzianDip(trace: Float64Array): number[] {
  const n = trace.length;
  if (n < 5) return [];
  const negative = new Float64Array(n);
  for (let i = 0; i < n; i++) negative[i] = -trace[i]!;
  const sigma = firstDifferenceNoise(trace);
  let best = -1;
  let bestProminence = 0;
  for (const peak of localMaxima(negative)) {
    const p = prominenceOf(negative, peak).prominence;
    if (p > bestProminence) {
      bestProminence = p;
      best = peak;
    }
  }
  if (best < 0 || !(bestProminence >= FIND_PEAKS_PROMINENCE_SIGMA * sigma)) return [];
  // Half-prominence width (scipy.signal.peak_widths, rel_height 0.5), samples.
  const level = negative[best]! - bestProminence / 2;
  let left = best;
  while (left > 0 && negative[left]! > level) left--;
  let right = best;
  while (right < n - 1 && negative[right]! > level) right++;
  const width = Math.max(1, right - left);
  const from = Math.max(0, Math.round(best - 3 * width));
  const to = Math.min(n - 1, Math.round(best + 3 * width));
  const count = to - from + 1;
  if (count < 6) return [best];
  // y = b + c (x − x0) − A / (1 + (2 (x − x0) / w)²)
  const problem = {
    residualCount: count,
    steps: Float64Array.from([1e-3 * width + 1e-4, 1e-3 * width + 1e-4, 1e-6 + 1e-4 * bestProminence, 1e-6 + 1e-4 * Math.abs(trace[best]!), 1e-8]),
    residuals(p: Float64Array, out: Float64Array) {
      const [x0, w, a, b, c] = p as unknown as [number, number, number, number, number];
      for (let k = 0; k < count; k++) {
        const x = from + k;
        out[k] = b + c * (x - x0) - a / (1 + ((2 * (x - x0)) / w) ** 2) - trace[x]!;
      }
    },
    constrain(p: Float64Array) {
      p[0] = Math.min(to, Math.max(from, p[0]!));
      p[1] = Math.min(4 * count, Math.max(0.3, p[1]!));
    },
  };
  const baseline = Math.max(trace[from]!, trace[to]!);
  const fit = levenbergMarquardt(problem, Float64Array.from([best, width, bestProminence, baseline, 0]));
  const [x0, , a] = fit.params as unknown as [number, number, number];
  if (!Number.isFinite(fit.cost) || !(a > 0)) return [best];
  return [Math.min(n - 1, Math.max(0, Math.round(x0)))];
}

/** Peer 2: resonator_tools-style notch fit of |S21|² over the whole sweep, seeded at its minimum; always one dip. */
export function resonatorToolsNotchDip(trace: Float64Array): number[] {
  const n = trace.length;
  if (n < 8) return [];
  const power = new Float64Array(n);
  for (let i = 0; i < n; i++) power[i] = trace[i]! * trace[i]!;
  let bottom = 0;
  for (let i = 1; i < n; i++) if (power[i]! < power[bottom]!) bottom = i;
  const baseline = Math.max(power[0]!, power[n - 1]!, medianInPlace(Float64Array.from(power), n));
  const half = (baseline + power[bottom]!) / 2;
  let left = bottom;
  while (left > 0 && power[left]! < half) left--;
  let right = bottom;
  while (right < n - 1 && power[right]! < half) right++;
  const linewidth = Math.max(1, right - left);
  const coupling = Math.min(0.95, Math.max(0.02, 1 - Math.sqrt(Math.max(0, power[bottom]! / baseline))));
  const fit = fitNotchResonance(power, 0, n - 1, { centre: bottom, linewidth, couplingRatio: coupling, baseline });
  if (!fit || !Number.isFinite(fit.centre)) return [bottom];
  return [Math.min(n - 1, Math.max(0, Math.round(fit.centre)))];
}
