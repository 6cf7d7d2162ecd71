// anticrossing-detector-v0: avoided crossings of a readout resonator with a flux-tunable qubit in a
// (2, frequency, flux) spectroscopy map (channel 0 = |S21|, channel 1 = phase, unused by v0).
// 1. Background: per-column offset (median over frequency) removed; the flux-median of every frequency row gives
//    the flux-independent spectrum, whose running median (61 rows) is the baseline; flux-independent lines are
//    its dips ≥ 6 robust σ (resonator and spurious modes alike); also dips of low quantiles over flux (a resonator
//    pulled by g²/Δ over much of the window), of each row and of each column's minimum over ±4 rows (a narrow one).
// 2. Per-column dip tracking near each line, after a Gaussian matched filter along frequency (FWHM of the line):
//    deepest dip within ±50 rows = the resonator-like dressed mode (its photon weight, hence its notch depth, is
//    ≥ ½), sub-row position by a parabola.
// 3. An avoided crossing is a sign flip of the tracked offset from the line within ≤ 3 columns (the resonator-like
//    branch jumps from one side of f_r to the other as the qubit passes through), with the qubit-like branch seen
//    on the opposite side in the flip columns (or a flip ≥ 3 rows each side). A dispersive shift never flips
//    sign; spurious lines never move.
// 4. Each crossing is fitted with the Jaynes–Cummings dressed-mode model on ±6 columns (both branches):
//    f± = (f_r + f_q)/2 ± sqrt(g² + (f_r − f_q)²/4), f_q − f_r = s·(column − x₀) locally (Blais et al., Phys. Rev. A
//    69, 062320 (2004)); the bare f_r is free within ±10 rows of the line row (the flux median is pulled by the
//    dispersive shift g²/Δ when the qubit stays near the resonator), with a weak quadratic prior towards the line;
//    x = x₀, y = f_r, splitting_px = 2g (up to 180 rows). Grid search, then a finer grid. Fits of one line closer
//    than 3 columns are one crossing (near a large splitting the tracked branch can flip back and forth): the
//    best-fitting one is reported.
// 5. Large splittings: where both dressed modes E± are tracked in the same columns, (E₊ − f_r)(f_r − E₋) = g² holds
//    in every column whatever f_q (product of the roots of the 2×2 JC block), i.e. E₊E₋ = f_r·(E₊ + E₋) − (f_r² + g²):
//    a straight-line fit over the columns gives f_r and g without a model of the qubit's (curved) flux dependence,
//    and x₀ is where E₊ + E₋ = 2 f_r. It replaces the hyperbola fit's f_r, g, x₀ when g ≥ 15 rows and well determined.
import { MAD_TO_SIGMA, medianAbsoluteDeviation, medianInPlace, runningMedian, selectInPlace } from '../signal/order-statistics.js';

/** Running-median window of the flux-independent baseline, rows. */
const BASELINE_HALF_WINDOW_ROWS = 30;
/** Line detection threshold in robust σ of the flux-median spectrum. */
const LINE_SIGMA = 6;
/** Lines are also sought in this quantile over flux of each frequency row (a line present in ≥ ¼ of the columns). */
const LOW_QUANTILE = 0.25;
/** Lines are also sought in the low quantile of the per-column minimum over ± this many rows (a narrow line that
 * drifts by a few rows). */
const SPREAD_LINE_HALF_ROWS = 4;
/** Largest FWHM of such a line (less the spread), rows. */
const SPREAD_LINE_MAX_FWHM = 4;
/** … and least depth of such a line in pixel-noise σ. */
const SPREAD_LINE_MIN_DEPTH_SIGMA = 1.5;
/** Minimal line depth relative to the baseline level (when the baseline is not near zero). */
const LINE_MIN_RELATIVE_DEPTH = 0.02;
/** Clamp of the measured line FWHM, rows. */
const MIN_LINE_FWHM = 1.5;
const MAX_LINE_FWHM = 16;
/** Matched-filter FWHM as a fraction of the line's FWHM. */
const MATCHED_FWHM_FRACTION = 1;
/** Search half-window around a line for the dressed modes, rows (≥ g_max + margin). */
const TRACK_HALF_WINDOW_ROWS = 70;
/** Rows around another line ignored while tracking. */
const OTHER_LINE_GUARD_ROWS = 12;
/** A tracked dip must be this many pixel-noise σ deep to count. */
const DIP_SIGMA = 4;
/** Sign flip: offsets beyond max(FLIP_MIN_ROWS, FLIP_SIGMA × tracking jitter) on both sides within FLIP_MAX_COLUMNS. */
const FLIP_MIN_ROWS = 1.5;
const FLIP_SIGMA = 3;
const FLIP_MAX_COLUMNS = 3;
/** … or within this many columns when every column between is untracked (a lossy qubit, γ ≳ κ, leaves both dressed
 * modes shallow at resonance). */
const FLIP_MAX_GAP_COLUMNS = 8;
/** A flip this large on both sides needs no qubit-like branch (it may be too faint to see), rows. */
const STRONG_FLIP_MIN_ROWS = 3;
/** Qubit-like branch: depth ≥ this fraction of the resonator-like one, opposite side, in the flip columns. */
const SECOND_BRANCH_MIN_FRACTION = 0.12;
/** Columns each side of a crossing used by the dressed-mode fit. */
const FIT_HALF_COLUMNS = 6;
/** Residuals beyond this many rows count as this (truncated quadratic loss against mistracked columns). */
const FIT_RESIDUAL_CAP_ROWS = 4;
/** Largest coupling g searched by the fit, rows (splittings up to 2·MAX_COUPLING_ROWS). */
const MAX_COUPLING_ROWS = 90;
/** Bare-resonator row searched within ± this many rows of the flux-median line. */
const FIT_CENTRE_RANGE_ROWS = 10;
/** Prior on dy: cost += CENTRE_PRIOR_WEIGHT·dy² (the flux-median line is the bare resonator unless the data say otherwise). */
const CENTRE_PRIOR_WEIGHT = 1;
/** A jump of the resonator-like branch whose midpoint is this far from the line also centres a fit there, rows. */
const JUMP_CENTRE_MIN_ROWS = 4;
/** Two-branch estimate (step 5): columns each side of the flip used, rows of g from which it applies, fewest columns,
 * least spread (std) of E₊ + E₋ over them (rows), largest standard error of f_r (rows), largest shift of x₀ from the
 * flip (columns), outliers beyond this many robust σ of the line fit dropped. */
const TWO_BRANCH_HALF_COLUMNS = 10;
const TWO_BRANCH_MIN_COUPLING_ROWS = 15;
const TWO_BRANCH_MIN_COLUMNS = 4;
const TWO_BRANCH_MIN_SUM_SPREAD_ROWS = 2;
const TWO_BRANCH_MAX_CENTRE_ERROR_ROWS = 1;
const TWO_BRANCH_MAX_SHIFT_COLUMNS = 4;
const TWO_BRANCH_OUTLIER_SIGMA = 3;
/** A fit without the two-branch estimate closer than this to one with it is dropped, columns. */
const TWO_BRANCH_EXCLUSION_COLUMNS = 8;
/** Crossings of one line closer than this many columns are one crossing (the tracked branch can flip back and forth
 * across f_r near a large splitting): the fit with the smallest cost per point stands. */
const MERGE_COLUMNS = 3;

export interface Anticrossing {
  x: number;
  y: number;
  splitting_px: number;
  /** Fitted |df_q/dcolumn| at the crossing, rows per column. */
  qubit_slope: number;
}

export interface AnticrossingDetection {
  anticrossings: Anticrossing[];
  /** Rows of the flux-independent lines found (resonator and spurious). */
  line_rows: number[];
}

interface Track {
  /** Offset of the resonator-like dip from the line, rows (NaN when no dip). */
  offset: Float64Array;
  depth: Float64Array;
  /** Deepest dip on the opposite side of the line (NaN when none). */
  secondOffset: Float64Array;
  secondDepth: Float64Array;
}

/** σ of Gaussian data from the median absolute deviation. */
const robustSigma = (values: Float64Array): number => MAD_TO_SIGMA * medianAbsoluteDeviation(values);

/** Sub-sample position of a local maximum at i by a parabola through i − 1, i, i + 1. */
function parabolicPeak(values: Float64Array, i: number, stride: number, offset: number, n: number): number {
  if (i <= 0 || i >= n - 1) return i;
  const a = values[offset + (i - 1) * stride]!;
  const b = values[offset + i * stride]!;
  const c = values[offset + (i + 1) * stride]!;
  const den = a - 2 * b + c;
  return den < 0 ? i + Math.max(-0.5, Math.min(0.5, (0.5 * (a - c)) / den)) : i;
}

/** Dressed-mode offset from f_r for detuning Δ = f_q − f_r: branch 0 resonator-like, 1 qubit-like. */
function dressedOffset(delta: number, g: number, branch: 0 | 1): number {
  const root = Math.sqrt(g * g + 0.25 * delta * delta);
  return delta >= 0 === (branch === 0) ? 0.5 * delta - root : 0.5 * delta + root;
}

interface FitPoint {
  column: number;
  offset: number;
  branch: 0 | 1;
}

function fitCost(points: FitPoint[], x0: number, s: number, g: number, dy: number, centre: number): number {
  let cost = 0;
  const cap = FIT_RESIDUAL_CAP_ROWS * FIT_RESIDUAL_CAP_ROWS;
  for (const p of points) {
    const model = dy + dressedOffset(s * (p.column - x0), g, p.branch);
    const r = p.offset - model;
    cost += Math.min(r * r, cap);
  }
  return cost + CENTRE_PRIOR_WEIGHT * (dy - centre) * (dy - centre);
}

interface CrossingFit {
  cost: number;
  x0: number;
  slope: number;
  g: number;
  /** Bare resonator row − line row (the flux-median line is pulled by the dispersive shift g²/Δ). */
  dy: number;
}

/** Coarse grid over (x₀, s, g) at a fixed dy. */
function coarseFit(points: FitPoint[], xLow: number, xHigh: number, sign: number, dy: number, centre: number): CrossingFit {
  let best: CrossingFit = { cost: Infinity, x0: 0.5 * (xLow + xHigh), slope: 10, g: 5, dy };
  const slopes = Array.from({ length: 36 }, (_, k) => 0.5 * 400 ** (k / 35));
  for (let x0 = xLow; x0 <= xHigh + 1e-9; x0 += 0.1) {
    for (const slope of slopes) {
      for (let g = 1; g <= MAX_COUPLING_ROWS; g += 1) {
        const cost = fitCost(points, x0, sign * slope, g, dy, centre);
        if (cost < best.cost) best = { cost, x0, slope, g, dy };
      }
    }
  }
  return best;
}

/** Finer grid around `from`, dy included (±FIT_CENTRE_RANGE_ROWS). */
function fineFit(points: FitPoint[], from: CrossingFit, sign: number, centre: number): CrossingFit {
  let best = from;
  for (let x0 = from.x0 - 0.1; x0 <= from.x0 + 0.1 + 1e-9; x0 += 0.02) {
    for (let k = -6; k <= 6; k++) {
      const slope = from.slope * 400 ** (k / (35 * 6));
      for (let g = Math.max(0.5, from.g - 1); g <= from.g + 1 + 1e-9; g += 0.1) {
        for (let dy = centre - FIT_CENTRE_RANGE_ROWS; dy <= centre + FIT_CENTRE_RANGE_ROWS + 1e-9; dy += 0.5) {
          const cost = fitCost(points, x0, sign * slope, g, dy, centre);
          if (cost < best.cost) best = { cost, x0, slope, g, dy };
        }
      }
    }
  }
  return best;
}

/**
 * Two-branch hyperbola fit: offsets from the line row of the dressed modes, dy + E±(Δ) with Δ = s·(column − x₀)
 * and E± = ±sqrt(g² + Δ²/4) + Δ/2 about the bare resonator (row = line row + dy). A coarse (x₀, s, g) grid at dy = 0,
 * a finer grid that frees dy, then the coarse grid and the finer grid again at the new dy.
 */
function fitCrossing(points: FitPoint[], xLow: number, xHigh: number, sign: number, centre: number): CrossingFit {
  let fit = fineFit(points, coarseFit(points, xLow, xHigh, sign, centre, centre), sign, centre);
  if (fit.dy !== centre) {
    const again = fineFit(points, coarseFit(points, xLow, xHigh, sign, fit.dy, centre), sign, centre);
    if (again.cost < fit.cost) fit = again;
  }
  return fit;
}

/**
 * Avoided crossings in a (2, rows, cols) C-order map: channel 0 magnitude (linear or dB), channel 1 phase.
 * Works on any rows ≥ 64 and cols ≥ 8; pure noise gives no lines, hence no crossings.
 */
export function detectAnticrossings(data: Float64Array, rows: number, cols: number): AnticrossingDetection {
  // 1. Column offsets, flux-median spectrum, baseline, lines.
  const magnitude = new Float64Array(rows * cols);
  const column = new Float64Array(rows);
  const all = new Float64Array(cols);
  for (let c = 0; c < cols; c++) {
    for (let r = 0; r < rows; r++) column[r] = data[r * cols + c]!;
    all[c] = medianInPlace(column, rows);
  }
  const globalLevel = medianInPlace(Float64Array.from(all), cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) magnitude[r * cols + c] = data[r * cols + c]! - (all[c]! - globalLevel);
  // Flux-independent spectrum (median over flux) and a low quantile over flux: a resonator pulled by g²/Δ over most
  // of the flux window (qubit parked near it) sits at one row in only part of the columns, so its median dip fades.
  const fluxMedian = new Float64Array(rows);
  const fluxLow = new Float64Array(rows);
  const rowValues = new Float64Array(cols);
  const lowRank = Math.floor(LOW_QUANTILE * (cols - 1));
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) rowValues[c] = magnitude[r * cols + c]!;
    fluxMedian[r] = medianInPlace(rowValues, cols);
    fluxLow[r] = selectInPlace(rowValues, cols, lowRank);
  }
  const baseline = runningMedian(fluxMedian, BASELINE_HALF_WINDOW_ROWS);
  const level = Math.abs(globalLevel);
  const medianLines = spectrumLines(fluxMedian, baseline, level);
  const lowLines = spectrumLines(fluxLow, runningMedian(fluxLow, BASELINE_HALF_WINDOW_ROWS), level);
  const kept: { row: number; depth: number; width: number }[] = [];
  for (const line of medianLines) if (kept.every((k) => Math.abs(k.row - line.row) > 2 * OTHER_LINE_GUARD_ROWS)) kept.push(line);
  // A low-quantile line only where no median line is within tracking reach (else one resonator is tracked twice).
  const medianKept = kept.length;
  for (const line of lowLines) {
    const far = kept.every((k, i) => Math.abs(k.row - line.row) > (i < medianKept ? TRACK_HALF_WINDOW_ROWS : 2 * OTHER_LINE_GUARD_ROWS));
    if (far) kept.push(line);
  }
  // A narrow resonator pulled by g²/Δ drifts a few rows across its plateaus, so no single row holds it in ¼ of the
  // columns: the low quantile of the per-column minimum over ±SPREAD_LINE_HALF_ROWS finds it (only where no line is in
  // reach, narrow and deep against the pixel noise: the minimum also lowers the noise, so broad standing-wave troughs
  // and noise would pass its 6 σ too).
  // Pixel noise from frequency differences (the lines are a small fraction of the rows).
  const differences = new Float64Array((rows - 1) * cols);
  for (let r = 0; r < rows - 1; r++) for (let c = 0; c < cols; c++) differences[r * cols + c] = magnitude[(r + 1) * cols + c]! - magnitude[r * cols + c]!;
  const pixelSigma = robustSigma(differences) / Math.SQRT2;
  const spreadLow = spreadLowSpectrum(magnitude, rows, cols, lowRank);
  for (const line of spectrumLines(spreadLow, runningMedian(spreadLow, BASELINE_HALF_WINDOW_ROWS), level)) {
    const narrow = line.width - 2 * SPREAD_LINE_HALF_ROWS <= SPREAD_LINE_MAX_FWHM;
    if (narrow && line.depth >= SPREAD_LINE_MIN_DEPTH_SIGMA * pixelSigma && kept.every((k) => Math.abs(k.row - line.row) > TRACK_HALF_WINDOW_ROWS))
      kept.push({ ...line, width: Math.max(MIN_LINE_FWHM, line.width - 2 * SPREAD_LINE_HALF_ROWS) });
  }
  if (!kept.length) return { anticrossings: [], line_rows: [] };

  const anticrossings: Anticrossing[] = [];
  for (const line of kept) {
    const others = kept.filter((k) => k !== line).map((k) => k.row);
    const window = matchedDipWindow(magnitude, baseline, rows, cols, line.row, line.width);
    const track = trackLine(window, cols, line.row, others, pixelSigma * window.noiseGain);
    anticrossings.push(...crossingsOfLine(track, cols, line.row));
  }
  anticrossings.sort((a, b) => a.x - b.x || a.y - b.y);
  return { anticrossings, line_rows: kept.map((k) => round2(k.row)).sort((a, b) => a - b) };
}

const round2 = (v: number): number => Math.round(v * 100) / 100;

/** Dips of a flux statistic of the spectrum below its running-median baseline: ≥ LINE_SIGMA robust σ and
 * ≥ LINE_MIN_RELATIVE_DEPTH of the level; deepest first. */
function spectrumLines(spectrum: Float64Array, baseline: Float64Array, level: number): { row: number; depth: number; width: number }[] {
  const rows = spectrum.length;
  const lineDepth = Float64Array.from(spectrum, (v, r) => baseline[r]! - v);
  const lineSigma = robustSigma(lineDepth);
  const lines: { row: number; depth: number; width: number }[] = [];
  for (let r = 1; r < rows - 1; r++) {
    const v = lineDepth[r]!;
    if (!(v > lineDepth[r - 1]! && v >= lineDepth[r + 1]!)) continue;
    if (v < LINE_SIGMA * lineSigma || v < LINE_MIN_RELATIVE_DEPTH * level) continue;
    const row = parabolicPeak(lineDepth, r, 1, 0, rows);
    lines.push({ row, depth: v, width: lineWidth(lineDepth, row) });
  }
  return lines.sort((a, b) => b.depth - a.depth);
}

/** Per row, the `lowRank`-th smallest over flux of each column's minimum over ±SPREAD_LINE_HALF_ROWS rows. */
function spreadLowSpectrum(magnitude: Float64Array, rows: number, cols: number, lowRank: number): Float64Array {
  const spectrum = new Float64Array(rows);
  const values = new Float64Array(cols);
  for (let r = 0; r < rows; r++) {
    const first = Math.max(0, r - SPREAD_LINE_HALF_ROWS);
    const last = Math.min(rows - 1, r + SPREAD_LINE_HALF_ROWS);
    for (let c = 0; c < cols; c++) {
      let lowest = Infinity;
      for (let k = first; k <= last; k++) lowest = Math.min(lowest, magnitude[k * cols + c]!);
      values[c] = lowest;
    }
    spectrum[r] = selectInPlace(values, cols, lowRank);
  }
  return spectrum;
}

/** FWHM (rows) of the flux-median line at `row`, by half-depth crossings, clamped to [MIN_LINE_FWHM, MAX_LINE_FWHM]. */
function lineWidth(lineDepth: Float64Array, row: number): number {
  const centre = Math.round(row);
  const half = 0.5 * lineDepth[centre]!;
  let left = centre;
  while (left > 0 && lineDepth[left - 1]! > half) left--;
  let right = centre;
  while (right < lineDepth.length - 1 && lineDepth[right + 1]! > half) right++;
  return Math.max(MIN_LINE_FWHM, Math.min(MAX_LINE_FWHM, right - left + 1));
}

interface DipWindow {
  /** Smoothed dip depth (baseline − magnitude) on rows [first, first + count), C order (count, cols). */
  dip: Float64Array;
  first: number;
  count: number;
  /** Noise std of `dip` per unit pixel noise. */
  noiseGain: number;
}

/**
 * Dip depth around a line, smoothed along frequency by a Gaussian of the line's FWHM (matched to the bare line;
 * near a crossing the dressed modes are narrower, ½(κ + γ), and half as deep).
 */
function matchedDipWindow(magnitude: Float64Array, baseline: Float64Array, rows: number, cols: number, lineRow: number, fwhm: number): DipWindow {
  const sigma = Math.max(0.5, (MATCHED_FWHM_FRACTION * fwhm) / 2.355);
  const reach = Math.ceil(2.5 * sigma);
  const kernel = Float64Array.from({ length: 2 * reach + 1 }, (_, k) => Math.exp(-0.5 * ((k - reach) / sigma) ** 2));
  const total = kernel.reduce((a, b) => a + b, 0);
  for (let k = 0; k < kernel.length; k++) kernel[k] = kernel[k]! / total;
  const noiseGain = Math.sqrt(kernel.reduce((a, b) => a + b * b, 0));
  const first = Math.max(0, Math.floor(lineRow - TRACK_HALF_WINDOW_ROWS) - 1);
  const last = Math.min(rows - 1, Math.ceil(lineRow + TRACK_HALF_WINDOW_ROWS) + 1);
  const count = last - first + 1;
  const dip = new Float64Array(count * cols);
  for (let r = first; r <= last; r++) {
    for (let c = 0; c < cols; c++) {
      let sum = 0;
      for (let k = -reach; k <= reach; k++) {
        const rr = Math.min(rows - 1, Math.max(0, r + k));
        sum += kernel[k + reach]! * (baseline[rr]! - magnitude[rr * cols + c]!);
      }
      dip[(r - first) * cols + c] = sum;
    }
  }
  return { dip, first, count, noiseGain };
}

function trackLine(window: DipWindow, cols: number, lineRow: number, otherLines: number[], pixelSigma: number): Track {
  const { dip, first, count } = window;
  const rows = count;
  const lineLocal = lineRow - first;
  const others = otherLines.map((o) => o - first);
  const track: Track = {
    offset: new Float64Array(cols).fill(NaN),
    depth: new Float64Array(cols),
    secondOffset: new Float64Array(cols).fill(NaN),
    secondDepth: new Float64Array(cols),
  };
  const lo = 1;
  const hi = rows - 2;
  const guarded = (r: number): boolean => others.some((o) => Math.abs(r - o) <= OTHER_LINE_GUARD_ROWS);
  for (let c = 0; c < cols; c++) {
    let bestRow = -1;
    let bestDepth = -Infinity;
    for (let r = lo; r <= hi; r++) {
      const v = dip[r * cols + c]!;
      if (v > bestDepth && v > dip[(r - 1) * cols + c]! && v >= dip[(r + 1) * cols + c]! && !guarded(r)) {
        bestDepth = v;
        bestRow = r;
      }
    }
    if (bestRow < 0 || bestDepth < DIP_SIGMA * pixelSigma) continue;
    const position = parabolicPeak(dip, bestRow, cols, c, rows);
    track.offset[c] = position - lineLocal;
    track.depth[c] = bestDepth;
    const side = Math.sign(position - lineLocal);
    let secondRow = -1;
    let secondDepth = -Infinity;
    for (let r = lo; r <= hi; r++) {
      if (Math.sign(r - lineLocal) === side || Math.abs(r - position) < 3 || guarded(r)) continue;
      const v = dip[r * cols + c]!;
      if (v > secondDepth && v > dip[(r - 1) * cols + c]! && v >= dip[(r + 1) * cols + c]!) {
        secondDepth = v;
        secondRow = r;
      }
    }
    if (secondRow >= 0 && secondDepth >= DIP_SIGMA * pixelSigma) {
      track.secondOffset[c] = parabolicPeak(dip, secondRow, cols, c, rows) - lineLocal;
      track.secondDepth[c] = secondDepth;
    }
  }
  return track;
}

function crossingsOfLine(track: Track, cols: number, lineRow: number): Anticrossing[] {
  const d = track.offset;
  const steps: number[] = [];
  for (let c = 0; c + 1 < cols; c++) if (Number.isFinite(d[c]!) && Number.isFinite(d[c + 1]!)) steps.push(d[c + 1]! - d[c]!);
  const jitter = steps.length >= 4 ? robustSigma(Float64Array.from(steps)) / Math.SQRT2 : 1;
  const threshold = Math.max(FLIP_MIN_ROWS, FLIP_SIGMA * jitter);

  // Flip candidates (a, b): opposite signs beyond the threshold, b − a ≤ FLIP_MAX_COLUMNS, qubit-like branch seen.
  const events: { a: number; b: number; sign: number }[] = [];
  for (let a = 0; a < cols; a++) {
    const da = d[a]!;
    if (!Number.isFinite(da) || Math.abs(da) < threshold) continue;
    for (let b = a + 1; b <= Math.min(cols - 1, a + FLIP_MAX_GAP_COLUMNS); b++) {
      // Beyond FLIP_MAX_COLUMNS only across untracked columns (both branches too faint at the crossing).
      if (b - a > FLIP_MAX_COLUMNS && Number.isFinite(d[b - 1]!)) break;
      const db = d[b]!;
      if (!Number.isFinite(db) || Math.abs(db) < threshold || Math.sign(db) === Math.sign(da)) continue;
      let secondSeen = false;
      for (let c = Math.max(0, a - 1); c <= Math.min(cols - 1, b + 1); c++) {
        const so = track.secondOffset[c]!;
        if (Number.isFinite(so) && Math.sign(so) !== Math.sign(d[c]!) && track.secondDepth[c]! >= SECOND_BRANCH_MIN_FRACTION * track.depth[c]!)
          secondSeen = true;
      }
      const strongFlip = Math.min(Math.abs(da), Math.abs(db)) >= Math.max(STRONG_FLIP_MIN_ROWS, 2 * threshold);
      // Across ≥ 2 untracked columns the branches on each side must persist one more column (same side, ≥ ½ threshold).
      const persists = (c: number, sign: number): boolean => c >= 0 && c < cols && Number.isFinite(d[c]!) && sign * d[c]! >= 0.5 * threshold;
      const gapFlip = b - a >= 3 && Number.isNaN(d[a + 1]!) && Number.isNaN(d[b - 1]!) && persists(a - 1, Math.sign(da)) && persists(b + 1, Math.sign(db));
      if (!secondSeen && !strongFlip && !gapFlip) continue;
      // d goes + → − with increasing column when Δ = f_q − f_r goes − → +: slope sign of the qubit.
      events.push({ a, b, sign: da > 0 ? 1 : -1 });
      break;
    }
  }
  // Merge overlapping candidates (one crossing can flip across several column pairs).
  const merged: { a: number; b: number; sign: number }[] = [];
  for (const e of events) {
    const last = merged[merged.length - 1];
    if (last && e.a <= last.b + 1 && e.sign === last.sign) last.b = Math.max(last.b, e.b);
    else merged.push({ ...e });
  }

  const fits: { crossing: Anticrossing; costPerPoint: number; twoBranch: boolean }[] = [];
  for (const e of merged) {
    const points: FitPoint[] = [];
    for (let c = Math.max(0, e.a - FIT_HALF_COLUMNS); c <= Math.min(cols - 1, e.b + FIT_HALF_COLUMNS); c++) {
      if (Number.isFinite(d[c]!)) points.push({ column: c, offset: d[c]!, branch: 0 });
      const so = track.secondOffset[c]!;
      if (c >= e.a - 1 && c <= e.b + 1 && Number.isFinite(so) && track.secondDepth[c]! >= SECOND_BRANCH_MIN_FRACTION * track.depth[c]!)
        points.push({ column: c, offset: so, branch: 1 });
    }
    // Prior centre of the bare row: the line; when the fit runs to the end of its range (the resonator is pulled by
    // g²/Δ on both sides of the crossing, qubit parked near it), also the midpoint of the jump of the resonator-like
    // branch; the better fit stands.
    let fit = fitCrossing(points, e.a, e.b, e.sign, 0);
    const jumpMidpoint = 0.5 * (d[e.a]! + d[e.b]!);
    if (Math.abs(fit.dy) >= FIT_CENTRE_RANGE_ROWS - 0.5 && Math.abs(jumpMidpoint) > JUMP_CENTRE_MIN_ROWS) {
      const shifted = fitCrossing(points, e.a, e.b, e.sign, jumpMidpoint);
      if (shifted.cost < fit.cost) fit = shifted;
    }
    const twoBranch = twoBranchCentre(track, cols, e);
    const confirmed =
      twoBranch !== null && twoBranch.g >= TWO_BRANCH_MIN_COUPLING_ROWS && Math.abs(twoBranch.x0 - 0.5 * (e.a + e.b)) <= TWO_BRANCH_MAX_SHIFT_COLUMNS;
    if (confirmed) fit = { ...fit, x0: twoBranch.x0, dy: twoBranch.dy, g: twoBranch.g };
    fits.push({
      crossing: { x: round2(fit.x0), y: round2(lineRow + fit.dy), splitting_px: round2(2 * fit.g), qubit_slope: round2(fit.slope) },
      costPerPoint: fit.cost / Math.max(1, points.length),
      twoBranch: confirmed,
    });
  }
  // Chains of fits closer than MERGE_COLUMNS: one crossing, the two-branch one, else the best-fitting one.
  const chained: (typeof fits)[number][] = [];
  fits.sort((p, q) => p.crossing.x - q.crossing.x);
  for (let i = 0; i < fits.length; ) {
    let j = i;
    let best = fits[i]!;
    while (j + 1 < fits.length && fits[j + 1]!.crossing.x - fits[j]!.crossing.x < MERGE_COLUMNS) {
      j++;
      const next = fits[j]!;
      if (next.twoBranch !== best.twoBranch ? next.twoBranch : next.costPerPoint < best.costPerPoint) best = next;
    }
    chained.push(best);
    i = j + 1;
  }
  // A line pulled by g²/Δ is crossed by the resonator-like branch a few columns from a large splitting: a fit without
  // the two-branch estimate that close to one with it is that, not a second crossing.
  const near = (p: (typeof fits)[number], q: (typeof fits)[number]): boolean => Math.abs(p.crossing.x - q.crossing.x) < TWO_BRANCH_EXCLUSION_COLUMNS;
  return chained.filter((p) => p.twoBranch || !chained.some((q) => q.twoBranch && near(p, q))).map((p) => p.crossing);
}

interface BranchPair {
  column: number;
  /** E₊ + E₋ and E₊·E₋, offsets from the line row. */
  sum: number;
  product: number;
}

/** Least squares product = dy·sum + k; null when the sums barely vary. */
function productLine(pairs: BranchPair[]): { dy: number; k: number; centreError: number } | null {
  const n = pairs.length;
  if (n < 3) return null;
  let meanSum = 0;
  let meanProduct = 0;
  for (const p of pairs) {
    meanSum += p.sum / n;
    meanProduct += p.product / n;
  }
  let sxx = 0;
  let sxy = 0;
  for (const p of pairs) {
    sxx += (p.sum - meanSum) ** 2;
    sxy += (p.sum - meanSum) * (p.product - meanProduct);
  }
  if (sxx / n < TWO_BRANCH_MIN_SUM_SPREAD_ROWS ** 2) return null;
  const dy = sxy / sxx;
  const k = meanProduct - dy * meanSum;
  let rss = 0;
  for (const p of pairs) rss += (p.product - dy * p.sum - k) ** 2;
  return { dy, k, centreError: Math.sqrt(rss / (n - 2) / sxx) };
}

/**
 * Bare-resonator row (offset dy from the line), g and x₀ from the columns near a flip where both dressed modes are
 * tracked (step 5 of the header): E₊E₋ = f_r(E₊ + E₋) − (f_r² + g²) whatever the qubit frequency.
 */
function twoBranchCentre(track: Track, cols: number, e: { a: number; b: number }): { dy: number; g: number; x0: number } | null {
  const pairs: BranchPair[] = [];
  for (let c = Math.max(0, e.a - TWO_BRANCH_HALF_COLUMNS); c <= Math.min(cols - 1, e.b + TWO_BRANCH_HALF_COLUMNS); c++) {
    const main = track.offset[c]!;
    const second = track.secondOffset[c]!;
    if (!Number.isFinite(main) || !Number.isFinite(second) || track.secondDepth[c]! < SECOND_BRANCH_MIN_FRACTION * track.depth[c]!) continue;
    pairs.push({ column: c, sum: main + second, product: main * second });
  }
  const first = productLine(pairs);
  if (!first) return null;
  const residuals = Float64Array.from(pairs, (p) => Math.abs(p.product - first.dy * p.sum - first.k));
  const limit = TWO_BRANCH_OUTLIER_SIGMA * MAD_TO_SIGMA * medianInPlace(Float64Array.from(residuals), residuals.length);
  const kept = pairs.filter((_, i) => residuals[i]! <= limit);
  if (kept.length < TWO_BRANCH_MIN_COLUMNS) return null;
  const line = productLine(kept);
  if (!line || line.centreError > TWO_BRANCH_MAX_CENTRE_ERROR_ROWS) return null;
  const g2 = -line.k - line.dy * line.dy;
  if (!(g2 > 0)) return null;
  // x₀: E₊ + E₋ − 2·dy changes sign between neighbouring kept columns (≤ 3 apart), the change nearest the flip.
  const centre = 0.5 * (e.a + e.b);
  let x0 = NaN;
  for (let i = 0; i + 1 < kept.length; i++) {
    const p = kept[i]!;
    const q = kept[i + 1]!;
    const fp = p.sum - 2 * line.dy;
    const fq = q.sum - 2 * line.dy;
    if (q.column - p.column > 3 || Math.sign(fp) === Math.sign(fq)) continue;
    const x = p.column + ((q.column - p.column) * fp) / (fp - fq);
    if (Number.isNaN(x0) || Math.abs(x - centre) < Math.abs(x0 - centre)) x0 = x;
  }
  return Number.isFinite(x0) ? { dy: line.dy, g: Math.sqrt(g2), x0 } : null;
}
