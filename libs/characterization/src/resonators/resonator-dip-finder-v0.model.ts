// resonator-dip-finder-v0 — resonance dips in a magnitude trace: notch/hanger |S21| or reflection |S11|, linear or dB.
// Matching pursuit (Mallat & Zhang, IEEE Trans. Signal Process. 41, 3397 (1993)) with a resonance lineshape:
// 1. The trace is read as linear magnitude relative to its median (dB → 10^(dB/20)). White-noise σ from the median
//    absolute second difference (insensitive to tilt and to smooth dips filling most of the span).
// 2. Detection: correlation with Lorentzian dip templates of FWHM 1.5 samples … 1.5× the span (ratio 1.4), each
//    template projected, at every position, orthogonal to a constant and a straight line over the part inside the
//    trace (so gain, tilt and the span ends never respond; matched filtering, Turin 1960). z = response / (σ‖template‖)
//    against the analytic white-noise level; wide templates run on block means (≥ 5 blocks per FWHM).
// 3. The strongest candidate is fitted with the resonance model of signal/resonance-magnitude-fit.ts (Probst et al.
//    2015 notch/reflection with Fano angle, Khalil et al. 2012) over ±(4 FWHM + 3) samples; it is accepted when the
//    fit explains the window significantly better than a straight line (ΔRSS ≥ 6² σ²), the dip is ≥ 3σ deep, and —
//    unless it is deeper than standing-wave ripple gets (12 % of the baseline) — a resonance explains it better than
//    a smooth quartic baseline does (a ripple trough is smooth on the scale of its own width; a resonance is not).
//    An accepted resonance is divided out of the working trace and detection repeats on the remainder, so a noise
//    sub-dip on the flat bottom of a broad dip, or the tails of a deep one, never count as resonances of their own.
// 4. Reported index: the minimum of the fitted lineshape (not the Lorentzian centre, which differs for Fano dips).
// 5. Faint single dip (issue 29), when nothing passes: a likelihood-ratio test (matched filter, Turin 1960; Kay,
//    Fundamentals of Statistical Signal Processing II: Detection Theory (1998), ch. 4) over the fitted candidates: the
//    fit's √(ΔRSS over a line)/σ — the generalised-LRT statistic for a Lorentzian of unknown position and width —
//    divided by the noise measured on the row at the dip's own scale (drift, ripple), must reach the look-elsewhere
//    threshold t with trials · Q(t) = 1 % (trials = independent positions × widths of the template bank), plus ½.
//    The dip must be ≥ 4σ deep, shaped like a resonance, not better explained by a standing wave or a step, and no
//    wider than 0.35 of the span (a faint dip wider than that is slow gain drift as far as one row can tell). It is
//    reported with low_confidence: true. Wide dips must clear depth floors (WIDE_DIP_DEPTH_FLOORS:
//    ≥ 4σ beyond 0.1 of the span, 6σ beyond 0.4, 12σ beyond 0.7): shallower, they are slow gain drift on one row.
// Format: a trace with any negative value is read as dB (a linear magnitude is never negative), else linear.
import { MAD_TO_SIGMA, medianInPlace } from '../signal/order-statistics.js';
import { fitResonanceMagnitude, resonanceFactorMagnitude, resonanceFitValue, type ResonanceFit } from '../signal/resonance-magnitude-fit.js';

/** Template FWHM bank, samples: from 1.5, ×1.4, up to 1.5 × length. */
export const MIN_TEMPLATE_FWHM_SAMPLES = 1.5;
export const TEMPLATE_FWHM_RATIO = 1.4;
export const MAX_TEMPLATE_FWHM_PER_LENGTH = 1.5;
/** Template half-support, in template FWHM; blocks per template FWHM on wide scales. */
export const TEMPLATE_HALF_SUPPORT_FWHM = 2;
export const BLOCKS_PER_FWHM = 5;
/** A projected Lorentzian template of FWHM G responds most to dips of FWHM ≈ G / TEMPLATE_PER_DIP_FWHM. */
export const TEMPLATE_PER_DIP_FWHM = 1.3;
/** Candidate threshold on z (σ). */
export const DETECTION_SIGMA = 5.5;
/** Acceptance: fit improvement over a straight line, σ-equivalent; depth in σ; linewidth floor (samples). */
export const FIT_SIGNIFICANCE_SIGMA = 6;
export const MIN_DEPTH_SIGMA = 3;
export const MIN_LINEWIDTH_SAMPLES = 0.6;
/** Ripple test: depths ≥ this fraction of the baseline are never ripple; else the resonance must beat a quartic. */
export const RIPPLE_MAX_RELATIVE_DEPTH = 0.12;
export const HYPOTHESIS_RSS_RATIO = 1.5;
export const HYPOTHESIS_MIN_GAIN_SIGMA = 5;
/** The fitted dip rises by ≥ this fraction of its depth 2 linewidths either side (or at the sweep's end); the RMS
 * misfit beyond noise is ≤ this fraction of the depth. */
export const MIN_RISE_FRACTION = 0.1;
export const MAX_MISFIT_FRACTION = 0.25;
/** Faint dips (low_confidence): false-alarm probability per trace; candidates down to the look-elsewhere threshold
 * minus FAINT_CANDIDATE_MARGIN (never below FALLBACK_DETECTION_SIGMA), the top FALLBACK_CANDIDATES fitted; the fit's
 * √gain must reach the threshold plus FAINT_FIT_MARGIN; a standing-wave or step hypothesis must not fit better than
 * FALLBACK_HYPOTHESIS_RATIO of the resonance's RSS. */
export const FAINT_FALSE_ALARM = 0.01;
export const FAINT_CANDIDATE_MARGIN = 1;
export const FAINT_FIT_MARGIN = 0.5;
/** Faint dips wider than this fraction of the span are not told apart from slow drift. */
export const FAINT_MAX_SPAN_FRACTION = 0.35;
/** Depth floors for wide dips (else: baseline drift): a dip fitted wider than `spanFraction` of the span must be at
 * least `minDepthSigma` deep. Slow gain drift within a row (1/f, harmonics 1–4 of the row, up to 2σ RMS) makes troughs
 * 3–5σ deep a tenth of the span wide and 8–14σ "deep" against a straight line when the fit spans the whole row. */
export const WIDE_DIP_DEPTH_FLOORS: readonly { spanFraction: number; minDepthSigma: number }[] = [
  { spanFraction: 0.1, minDepthSigma: 4 },
  { spanFraction: 0.4, minDepthSigma: 6 },
  { spanFraction: 0.7, minDepthSigma: 12 },
];
/** Faint dips: fitted depth ≥ this many σ. */
export const FAINT_MIN_DEPTH_SIGMA = 4;
export const FALLBACK_DETECTION_SIGMA = 3.5;
export const FALLBACK_CANDIDATES = 12;
export const FALLBACK_HYPOTHESIS_RATIO = 0.9;
/** Fit window half-width, in dip FWHM (plus 3 samples). */
export const FIT_HALF_WINDOW_FWHM = 4;
/** Two resonances closer than this many FWHM (of the wider) are one. */
export const MIN_SEPARATION_FWHM = 2;
export const MIN_SEPARATION_SAMPLES = 3;
const MAX_FITS = 40;
/** After a rejected fit, candidates within this many template FWHM of it and at scales ≥ its own / ratio are skipped. */
export const REJECTED_REACH_FWHM = 1;
export const REJECTED_SCALE_RATIO = 4;
const MAX_ACCEPTED = 50;

export interface DipDetection {
  dipIndices: number[];
  /** fr/Ql in samples. */
  linewidths: number[];
  /** Baseline minus the bottom of the dip, in the input's units (linear magnitude or dB). */
  depths: number[];
  /** Dip depth / noise σ. */
  significance: number[];
  /** Per dip: true when reported only by the faint-dip likelihood-ratio test (low_confidence). */
  fallback: boolean[];
}

interface Candidate {
  index: number;
  fwhm: number;
  z: number;
}

interface Accepted {
  at: number;
  fit: ResonanceFit;
  significance: number;
  fallback: boolean;
  /** Matched-filter significance: √(ΔRSS over a line)/σ, divided by the scale-noise factor for faint dips. */
  z: number;
}

/** σ of white noise from the median absolute second difference (√6 σ for white noise). */
export function secondDifferenceNoise(values: Float64Array): number {
  const n = values.length;
  if (n < 3) return 0;
  const d = new Float64Array(n - 2);
  let sumSq = 0;
  for (let i = 1; i < n - 1; i++) {
    const v = values[i - 1]! - 2 * values[i]! + values[i + 1]!;
    d[i - 1] = Math.abs(v);
    sumSq += v * v;
  }
  const mad = medianInPlace(d, n - 2);
  if (mad > 0) return (MAD_TO_SIGMA * mad) / Math.sqrt(6);
  // Quantised or noiseless data: a small fraction of the RMS second difference.
  return Math.sqrt(sumSq / (n - 2) / 6) * 1e-3;
}

/** z-scores of the projected Lorentzian dip template of FWHM `fwhm` (samples of `values`). */
function templateScores(values: Float64Array, fwhm: number, sigma: number, out: Float64Array): void {
  const n = values.length;
  const half = Math.max(2, Math.ceil(TEMPLATE_HALF_SUPPORT_FWHM * fwhm));
  const width = 2 * half + 1;
  const t = new Float64Array(width);
  for (let j = -half; j <= half; j++) t[j + half] = -1 / (1 + ((2 * j) / fwhm) ** 2);
  // Prefix sums over the template (index j + half) and over the data.
  const pt0 = new Float64Array(width + 1);
  const pt1 = new Float64Array(width + 1);
  const pt2 = new Float64Array(width + 1);
  for (let k = 0; k < width; k++) {
    const j = k - half;
    pt0[k + 1] = pt0[k]! + t[k]!;
    pt1[k + 1] = pt1[k]! + j * t[k]!;
    pt2[k + 1] = pt2[k]! + t[k]! * t[k]!;
  }
  const px = new Float64Array(n + 1);
  const pix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    px[i + 1] = px[i]! + values[i]!;
    pix[i + 1] = pix[i]! + i * values[i]!;
  }
  for (let i = 0; i < n; i++) {
    const jlo = Math.max(-half, -i);
    const jhi = Math.min(half, n - 1 - i);
    const count = jhi - jlo + 1;
    if (count < 4) {
      out[i] = 0;
      continue;
    }
    // Σ over valid j of 1, j, j², t, j t, t².
    const s0 = count;
    const s1 = ((jlo + jhi) * count) / 2;
    const s2 = (jhi * (jhi + 1) * (2 * jhi + 1) - (jlo - 1) * jlo * (2 * jlo - 1)) / 6;
    const T0 = pt0[jhi + half + 1]! - pt0[jlo + half]!;
    const T1 = pt1[jhi + half + 1]! - pt1[jlo + half]!;
    const T2 = pt2[jhi + half + 1]! - pt2[jlo + half]!;
    const det = s0 * s2 - s1 * s1;
    if (!(det > 0)) {
      out[i] = 0;
      continue;
    }
    const alpha = (T0 * s2 - T1 * s1) / det;
    const beta = (T1 * s0 - T0 * s1) / det;
    const norm2 = T2 - alpha * T0 - beta * T1;
    if (!(norm2 > 1e-12)) {
      out[i] = 0;
      continue;
    }
    let r = 0;
    for (let j = jlo; j <= jhi; j++) r += t[j + half]! * values[i + j]!;
    const sx = px[i + jhi + 1]! - px[i + jlo]!;
    const sjx = pix[i + jhi + 1]! - pix[i + jlo]! - i * sx;
    r -= alpha * sx + beta * sjx;
    out[i] = r / (sigma * Math.sqrt(norm2));
  }
}

function templateWidths(length: number): number[] {
  const widths = [MIN_TEMPLATE_FWHM_SAMPLES];
  const widest = MAX_TEMPLATE_FWHM_PER_LENGTH * length;
  while (widths.at(-1)! * TEMPLATE_FWHM_RATIO <= widest) widths.push(widths.at(-1)! * TEMPLATE_FWHM_RATIO);
  return widths;
}

/** Local maxima of z ≥ threshold at every scale, strongest first. */
function candidates(work: Float64Array, sigma: number, threshold: number): Candidate[] {
  const n = work.length;
  const found: Candidate[] = [];
  for (const fwhm of templateWidths(n)) {
    const block = Math.max(1, Math.floor(fwhm / BLOCKS_PER_FWHM));
    const m = Math.floor(n / block);
    if (m < 6) continue;
    const values = new Float64Array(m);
    for (let k = 0; k < m; k++) {
      let s = 0;
      const last = k === m - 1 ? n : (k + 1) * block;
      for (let i = k * block; i < last; i++) s += work[i]!;
      values[k] = s / (last - k * block);
    }
    const z = new Float64Array(m);
    templateScores(values, fwhm / block, sigma / Math.sqrt(block), z);
    for (let k = 0; k < m; k++) {
      const v = z[k]!;
      if (!(v >= threshold)) continue;
      if ((k > 0 && !(v > z[k - 1]!)) || (k < m - 1 && !(v >= z[k + 1]!))) continue;
      // Bottom of the dip in the block (or its neighbours).
      const lo = Math.max(0, (k - 1) * block);
      const hi = Math.min(n - 1, (k + 2) * block - 1);
      let index = Math.min(n - 1, k * block + (block >> 1));
      if (block > 1) for (let i = lo; i <= hi; i++) if (work[i]! < work[index]!) index = i;
      found.push({ index, fwhm, z: v });
    }
  }
  found.sort((a, b) => b.z - a.z || a.index - b.index);
  return found;
}

function fitCandidate(work: Float64Array, c: Candidate): ResonanceFit | null {
  const n = work.length;
  const width = Math.max(1, c.fwhm / TEMPLATE_PER_DIP_FWHM);
  // Bottom: lowest 3-point mean within ±width/2.
  let bottom = c.index;
  let best = Infinity;
  const reach = Math.max(1, Math.ceil(width / 2));
  for (let i = Math.max(1, c.index - reach); i <= Math.min(n - 2, c.index + reach); i++) {
    const v = work[i - 1]! + work[i]! + work[i + 1]!;
    if (v < best) {
      best = v;
      bottom = i;
    }
  }
  // Fit over ±(4 FWHM + 3); when the fitted linewidth outgrows the window, refit over the wider window (the dip must be
  // seen to rise back to its baseline, or a ripple trough's bottom passes for a broad resonance).
  let fit: ResonanceFit | null = null;
  let centre = bottom;
  let linewidth = width;
  for (let pass = 0; pass < 3; pass++) {
    const halfWindow = Math.ceil(FIT_HALF_WINDOW_FWHM * linewidth) + 3;
    const from = Math.max(0, Math.round(centre) - halfWindow);
    const to = Math.min(n - 1, Math.round(centre) + halfWindow);
    const edge = Math.max(1, Math.round((to - from + 1) / 10));
    let left = 0;
    let right = 0;
    for (let i = 0; i < edge; i++) {
      left += work[from + i]!;
      right += work[to - i]!;
    }
    left /= edge;
    right /= edge;
    const slope = (right - left) / Math.max(1, to - from - edge);
    const baseline = Math.max(left + slope * (centre - from), work[bottom]! + 1e-12);
    const depth = Math.min(0.98, Math.max(0.02, 1 - work[bottom]! / (baseline || 1)));
    const guess =
      fit && pass > 0
        ? { centre: fit.centre, linewidth: fit.linewidth, strength: fit.strength, baseline: fit.baseline, slope: fit.slope }
        : { centre, linewidth, strength: depth, baseline, slope };
    const next = fitResonanceMagnitude(work, from, to, guess);
    if (!next) return fit;
    fit = next;
    const covered = (from === 0 || fit.minimumAt - from >= 2 * fit.linewidth) && (to === n - 1 || to - fit.minimumAt >= 2 * fit.linewidth);
    if (covered) return fit;
    centre = fit.minimumAt;
    linewidth = fit.linewidth;
  }
  return null;
}

export function findResonatorDips(trace: Float64Array): DipDetection {
  const n = trace.length;
  const none: DipDetection = { dipIndices: [], linewidths: [], depths: [], significance: [], fallback: [] };
  if (n < 8) return none;
  let minimum = Infinity;
  for (let i = 0; i < n; i++) minimum = Math.min(minimum, trace[i]!);
  const isDb = minimum < 0;
  // Linear magnitude relative to the median level (keeps every scale well conditioned).
  const levels = Float64Array.from(trace);
  const median = medianInPlace(levels, n);
  const scale = isDb ? 1 : Math.abs(median) > 0 ? Math.abs(median) : 1;
  const magnitude = new Float64Array(n);
  for (let i = 0; i < n; i++) magnitude[i] = isDb ? 10 ** ((trace[i]! - median) / 20) : trace[i]! / scale;
  const sigma = secondDifferenceNoise(magnitude);
  if (!(sigma > 0)) return none;

  const work = Float64Array.from(magnitude);
  const accepted: Accepted[] = [];
  let fallback: Accepted | null = null;
  const rejected: Candidate[] = [];
  let fits = 0;
  const threshold = lookElsewhereThreshold(n);
  let list = candidates(work, sigma, DETECTION_SIGMA);
  while (fits < MAX_FITS && accepted.length < MAX_ACCEPTED) {
    const next = list.find(
      (c) =>
        !rejected.some((r) => Math.abs(r.index - c.index) <= Math.max(1, REJECTED_REACH_FWHM * r.fwhm) && c.fwhm >= r.fwhm / REJECTED_SCALE_RATIO) &&
        !accepted.some((a) => Math.abs(a.at - c.index) < Math.max(MIN_SEPARATION_SAMPLES, MIN_SEPARATION_FWHM * a.fit.linewidth)),
    );
    if (!next) break;
    fits++;
    const fit = fitCandidate(work, next);
    const verdict = fit ? judge(fit, sigma, n) : null;
    const clash =
      fit &&
      accepted.some((a) => Math.abs(a.at - fit.minimumAt) < Math.max(MIN_SEPARATION_SAMPLES, MIN_SEPARATION_FWHM * Math.max(a.fit.linewidth, fit.linewidth)));
    if (!fit || !verdict || clash || next.z < DETECTION_SIGMA || !verdict.accept) {
      // The scale-noise factor is ≥ 1: computed only for fits whose white-noise z already reaches the threshold.
      if (fit && verdict && !clash && Math.sqrt(Math.max(0, verdict.gain)) >= threshold && verdict.faintOk) {
        const z = Math.sqrt(verdict.gain) / scaleNoiseFactor(work, fit, sigma);
        if (z >= threshold && (!fallback || z > fallback.z)) fallback = { at: fit.minimumAt, fit, significance: verdict.significance, fallback: true, z };
      }
      rejected.push(next);
      continue;
    }
    accepted.push({ at: fit.minimumAt, fit, significance: verdict.significance, fallback: false, z: Math.sqrt(verdict.gain) });
    // Divide the accepted resonance out of the working trace and look again.
    for (let i = 0; i < n; i++) {
      const f = resonanceFactorMagnitude((2 * (i - fit.centre)) / fit.linewidth, fit.strength, fit.phi);
      if (f > 1e-3) work[i] = work[i]! / f;
    }
    rejected.length = 0;
    list = candidates(work, sigma, DETECTION_SIGMA);
  }
  if (accepted.length === 0) {
    // Faint single dip (issue 29): likelihood-ratio test over the strongest few candidates down to the look-elsewhere
    // threshold, with the fit's gain judged against the noise actually present at the dip's scale (drift, ripple).
    for (const c of candidates(work, sigma, Math.max(FALLBACK_DETECTION_SIGMA, threshold - FAINT_CANDIDATE_MARGIN)).slice(0, FALLBACK_CANDIDATES)) {
      const fit = fitCandidate(work, c);
      const verdict = fit ? judge(fit, sigma, n) : null;
      if (!fit || !verdict || !(Math.sqrt(Math.max(0, verdict.gain)) >= threshold) || !verdict.faintOk) continue;
      const z = Math.sqrt(verdict.gain) / scaleNoiseFactor(work, fit, sigma);
      if (z >= threshold && (!fallback || z > fallback.z)) fallback = { at: fit.minimumAt, fit, significance: verdict.significance, fallback: true, z };
    }
  }
  if (accepted.length === 0 && fallback) accepted.push(fallback);

  accepted.sort((a, b) => a.at - b.at);
  const out: DipDetection = { dipIndices: [], linewidths: [], depths: [], significance: [], fallback: [] };
  for (const a of accepted) {
    const { fit } = a;
    const base = fit.baseline + fit.slope * (fit.minimumAt - fit.centre);
    const ratio = Math.max(1e-15, fit.minimum / base);
    const depth = isDb ? -20 * Math.log10(ratio) : fit.depth * scale;
    if (!Number.isFinite(depth) || !(depth > 0)) continue;
    out.dipIndices.push(Math.min(n - 1, Math.max(0, Math.round(a.at))));
    out.linewidths.push(fit.linewidth);
    out.depths.push(depth);
    out.significance.push(a.significance);
    out.fallback.push(a.fallback);
  }
  return out;
}

function judge(fit: ResonanceFit, sigma: number, n: number): { accept: boolean; faintOk: boolean; significance: number; gain: number } | null {
  if (!(fit.linewidth >= MIN_LINEWIDTH_SAMPLES) || !(fit.depth > 0)) return null;
  // A minimum on the first or last sample is a slope into the end of the sweep, not a located dip.
  if (!(fit.minimumAt >= 1 && fit.minimumAt <= n - 2)) return null;
  const pointSigma2 = (sigma * sigma) / fit.block;
  const significance = fit.depth / sigma;
  const gain = (fit.rssLine - fit.rss) / pointSigma2;
  const base = fit.baseline + fit.slope * (fit.minimumAt - fit.centre);
  const relative = fit.depth / Math.max(1e-300, base);
  const margin = HYPOTHESIS_MIN_GAIN_SIGMA ** 2 * pointSigma2;
  // The fitted dip must rise back on both sides inside the sweep, and explain the window to within a fraction of its
  // depth (a dip fitted across other, narrower dips, or across a kinked baseline, does not).
  const rise =
    Math.min(
      resonanceFitValue(fit, Math.max(0, fit.minimumAt - 2 * fit.linewidth)),
      resonanceFitValue(fit, Math.min(n - 1, fit.minimumAt + 2 * fit.linewidth)),
    ) - fit.minimum;
  const misfit = Math.sqrt(Math.max(0, fit.rss / fit.points - pointSigma2)) / fit.depth;
  const shaped = rise >= MIN_RISE_FRACTION * fit.depth && misfit <= MAX_MISFIT_FRACTION;
  const significant = gain >= MIN_DEPTH_SIGMA ** 2 && significance >= MIN_DEPTH_SIGMA && shaped;
  const notRipple =
    significant &&
    ((relative >= RIPPLE_MAX_RELATIVE_DEPTH && fit.rssRipple() >= FALLBACK_HYPOTHESIS_RATIO * fit.rss) ||
      (fit.rssRipple() >= HYPOTHESIS_RSS_RATIO * fit.rss + margin && fit.rssStep() >= HYPOTHESIS_RSS_RATIO * fit.rss + margin));
  // A wide dip shallower than its floor is what slow gain drift (1/f) makes of a flat row: not accepted.
  const wideFaint = WIDE_DIP_DEPTH_FLOORS.some((f) => fit.linewidth > f.spanFraction * n && significance < f.minDepthSigma);
  const accept = gain >= FIT_SIGNIFICANCE_SIGMA ** 2 && notRipple && !wideFaint;
  // Faint dip: a resonance shape at least MIN_DEPTH_SIGMA deep that a standing wave or a step does not explain better;
  // its significance (the gain, against the look-elsewhere threshold) is judged by the caller.
  const faintOk =
    significance >= FAINT_MIN_DEPTH_SIGMA &&
    fit.linewidth <= FAINT_MAX_SPAN_FRACTION * n &&
    shaped &&
    fit.rssRipple() >= FALLBACK_HYPOTHESIS_RATIO * fit.rss &&
    fit.rssStep() >= FALLBACK_HYPOTHESIS_RATIO * fit.rss;
  return { accept, faintOk, significance, gain };
}

/** Upper tail of the standard normal, Q(t) (asymptotic series; relative error < 1 % for t ≥ 3, used for t ≥ 3). */
function normalTail(t: number): number {
  const t2 = t * t;
  return (Math.exp(-t2 / 2) / (t * Math.sqrt(2 * Math.PI))) * (1 - 1 / t2 + 3 / (t2 * t2));
}

/** Independent trials of the template search on n samples: Σ over the template bank of n / max(1, FWHM). */
export function independentTrials(n: number): number {
  let trials = 0;
  for (const fwhm of templateWidths(n)) trials += n / Math.max(1, fwhm);
  return trials;
}

/** Look-elsewhere threshold on the matched-filter z for a false-alarm probability FAINT_FALSE_ALARM per trace of n
 * samples: trials · Q(t) = α (Gaussian z under white noise), plus the fit's extra freedom (FAINT_FIT_MARGIN). */
export function lookElsewhereThreshold(n: number): number {
  const target = FAINT_FALSE_ALARM / Math.max(1, independentTrials(n));
  let lo = 3;
  let hi = 9;
  for (let k = 0; k < 40; k++) {
    const mid = (lo + hi) / 2;
    if (normalTail(mid) > target) lo = mid;
    else hi = mid;
  }
  return hi + FAINT_FIT_MARGIN;
}

/**
 * Noise at the scale of a fitted dip relative to white noise: the RMS of the matched-filter z of the trace with the
 * fitted resonance divided out, at the template that matches the dip, over every position (1 for white noise; > 1
 * where slow drift or ripple has structure on the dip's scale). The faint dip's z is divided by it — a
 * pre-whitening of the detection statistic by the noise measured on the row itself (Kay, Fundamentals of Statistical
 * Signal Processing II: Detection Theory, 1998, §§ 4.5, 9.4: the matched filter in coloured / unknown-level noise).
 */
function scaleNoiseFactor(work: Float64Array, fit: ResonanceFit, sigma: number): number {
  const n = work.length;
  const residual = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const f = resonanceFactorMagnitude((2 * (i - fit.centre)) / fit.linewidth, fit.strength, fit.phi);
    residual[i] = f > 1e-3 ? work[i]! / f : work[i]!;
  }
  const fwhm = Math.max(MIN_TEMPLATE_FWHM_SAMPLES, fit.linewidth * TEMPLATE_PER_DIP_FWHM);
  const block = Math.max(1, Math.floor(fwhm / BLOCKS_PER_FWHM));
  const m = Math.floor(n / block);
  if (m < 6) return 1;
  const values = new Float64Array(m);
  for (let k = 0; k < m; k++) {
    let s = 0;
    const last = k === m - 1 ? n : (k + 1) * block;
    for (let i = k * block; i < last; i++) s += residual[i]!;
    values[k] = s / (last - k * block);
  }
  const z = new Float64Array(m);
  templateScores(values, fwhm / block, sigma / Math.sqrt(block), z);
  let sum = 0;
  let count = 0;
  for (let k = 0; k < m; k++) {
    if (z[k] === 0) continue;
    sum += z[k]! * z[k]!;
    count++;
  }
  return count > 0 ? Math.max(1, Math.sqrt(sum / count)) : 1;
}
