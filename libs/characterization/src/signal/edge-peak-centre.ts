// Where is a peak that touches the end of the trace centred? A mirrored-end filter cannot tell a peak centred
// on the first sample from the rising flank of one centred outside the window, so the end is fitted with
// y_j = a cosh⁻²((j − c)/s) + b: c on a grid, (a, b) by linear least squares at each c (variable projection,
// Golub & Pereyra, SIAM J. Numer. Anal. 10, 413 (1973)). A monotonic flank or background fits best with c
// outside the window. Whether the top is inside at all is a likelihood-ratio test between the best fit with its
// centre inside and the best with it at least OUTSIDE_LIMIT_SAMPLES outside, widths up to 6× nominal (a convex rise
// into the end — the barriers opening, the flank of the next peak — is a wide peak's tail).
import { FWHM_PER_COSH_SCALE } from './thermal-peak-kernel.js';

const CENTRE_STEP_SAMPLES = 0.25;
/** Widths tried, relative to the nominal FWHM (the matched-filter scale is only known to ±25 %). */
const WIDTH_FACTORS = [0.6, 0.8, 1, 1.3, 1.7, 2.2, 3, 4, 6];
/** Centres at least this far inward from the end sample count as inside, this far beyond it as outside, samples. */
/** Ratio between the extra widths tried below 0.6× nominal, down to `smallestFwhm`. */
const WIDTH_STEP_BELOW = 1.4;
export const INSIDE_LIMIT_SAMPLES = -0.5;
export const OUTSIDE_LIMIT_SAMPLES = -2;

export interface EdgePeakFit {
  /** Fitted centre in trace indices (may lie outside 0 … length−1). */
  centre: number;
  /** Fitted peak amplitude above the background, trace units. */
  amplitude: number;
  /** Residual sums of squares of the best fits with the centre inside the window and outside it (trace units²). */
  insideError: number;
  outsideError: number;
}

/**
 * Fit of a peak of about the given FWHM (0.6–1.3×) near the start (`fromStart`) or end of trace[offset … offset+length−1], over
 * `span` samples from that end, with the centre at most `maxCentre` samples inward; widths down to `smallestFwhm` are tried too. Null if no fit with a
 * positive amplitude exists.
 */
export function fitEdgePeak(
  trace: Float64Array,
  fromStart: boolean,
  nominalFwhm: number,
  span: number,
  maxCentre: number,
  offset = 0,
  length = trace.length - offset,
  smallestFwhm = WIDTH_FACTORS[0]! * nominalFwhm,
): EdgePeakFit | null {
  const count = Math.min(length, Math.max(3, Math.round(span)));
  const at = (j: number): number => trace[offset + (fromStart ? j : length - 1 - j)]!;
  let sy = 0;
  let syy = 0;
  for (let j = 0; j < count; j++) {
    sy += at(j);
    syy += at(j) * at(j);
  }
  let best: EdgePeakFit | null = null;
  let bestError = Infinity;
  let insideError = Infinity;
  let outsideError = Infinity;
  // The nominal width comes from the matched-filter scale, which at an end can be far wider than the peak.
  const widths = WIDTH_FACTORS.map((factor) => factor * nominalFwhm);
  for (let fwhm = widths[0]! / WIDTH_STEP_BELOW; fwhm >= smallestFwhm; fwhm /= WIDTH_STEP_BELOW) widths.push(fwhm);
  for (const fwhm of widths) {
    const scale = fwhm / FWHM_PER_COSH_SCALE;
    // c is measured inward from the end: c < 0 lies outside the window.
    for (let c = -2 * fwhm - 2; c <= maxCentre; c += CENTRE_STEP_SAMPLES) {
      let sp = 0;
      let spp = 0;
      let spy = 0;
      for (let j = 0; j < count; j++) {
        const ch = Math.cosh((j - c) / scale);
        const p = 1 / (ch * ch);
        sp += p;
        spp += p * p;
        spy += p * at(j);
      }
      const det = count * spp - sp * sp;
      if (!(det > 1e-12 * count * spp)) continue;
      const a = (count * spy - sp * sy) / det;
      if (!(a > 0)) continue;
      const b = (sy - a * sp) / count;
      // Residual sum of squares of the least-squares solution: Σy² − a Σpy − b Σy.
      const error = syy - a * spy - b * sy;
      if (c >= INSIDE_LIMIT_SAMPLES) insideError = Math.min(insideError, error);
      if (c <= OUTSIDE_LIMIT_SAMPLES) outsideError = Math.min(outsideError, error);
      if (error < bestError) {
        bestError = error;
        best = { centre: fromStart ? c : length - 1 - c, amplitude: a, insideError: 0, outsideError: 0 };
      }
    }
  }
  if (best) {
    best.insideError = insideError;
    best.outsideError = outsideError;
  }
  return best;
}
