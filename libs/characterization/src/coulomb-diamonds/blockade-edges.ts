// Blockade edges of a Coulomb-diamond map (axis 0 = bias, axis 1 = gate), current or differential conductance.
// Orthodox theory (Kouwenhoven et al., NATO ASI E 345 (1997), Sec. 2.3): current is zero inside the diamonds and
// rises by a thermally broadened Fermi step where a dot level meets a lead's Fermi level; the conductance
// dI/dV_b peaks exactly at the T = 0 edge (the half-rise of the step). So per gate column, walking out from zero
// bias, the blockade ends at the first conductance peak on each side.
// Steps: binomial smoothing; read-out (bias parity: current odd, conductance even about zero bias; else the tails:
// current has signal of both signs, conductance peaks of one sign); offset
// (histogram mode, refined on the zero-bias rows) and noise (MAD of the zero-bias rows, Hampel 1974); the
// zero-bias row (current: |I − median| summed over a row is smallest there; conductance: the two edge families
// meet pairwise at the degeneracy points there, so a row crosses the fewest lines; up to 3 such rows are walked and one
// that closes clearly more columns replaces the fewest-lines row — tip rows and a faint bias polarity also cross few
// lines); per column the first significant rise on each side, located at the
// conductance maximum with a parabolic sub-pixel fit (conductance maps), or at the half-rise of the step once each row
// is divided by its own scale (current maps: bias-dependent tunnel rates multiply the current by a function of the bias
// alone; halfRiseEdge).

import { MAD_TO_SIGMA, sortedQuantile as quantile } from '../signal/order-statistics.js';
import { binomialSmooth, differenceNoise, histogramMode, median, smoothProfile, subPixelArgMin } from './map-filters.js';

export type DiamondReadoutGuess = 'current' | 'conductance';

export interface BlockadeEdges {
  rows: number;
  cols: number;
  readout: DiamondReadoutGuess;
  /** Sub-pixel zero-bias row. */
  zeroBiasRow: number;
  /** Per column, the upper (smaller row) and lower blockade edges, sub-pixel; NaN where the blockade runs out of the window. */
  upper: Float64Array;
  lower: Float64Array;
  /** Peak conductance (in noise units) at each found edge; 0 where none. */
  upperStrength: Float64Array;
  lowerStrength: Float64Array;
  /** True when the map shows transport structure at all (else: noise, nothing found). */
  structured: boolean;
  /** Edge-evidence map (conductance-like, positive on edges), rows × cols, and its noise std. */
  evidence: Float64Array;
  evidenceNoise: number;
  /** |smoothed map − offset| (current) or the conductance (rows × cols), and per row its scale (ROW_SCALE_QUANTILE, floored); used by visible-tips.ts. */
  level: Float64Array;
  rowLevelScale: Float64Array;
}

/** A rise counts once the level exceeds this many noise std. */
const RISE_SIGMA = 4;
/** The edge is the conductance maximum within this many rows before / after the first significant point. */
const EDGE_BACK_ROWS = 3;
/** …searched up to this many rows beyond it; a maximum followed by a PEAK_DROP fall (or no new maximum) within PEAK_DROP_ROWS ends the search. */
const EDGE_SEARCH_ROWS = Number.MAX_SAFE_INTEGER;
const PEAK_DROP = 0.15;
/** Current maps: the edge is the half-rise of the growth-normalised step (halfRiseEdge). */
const HALF_RISE_START = 0.25;
const PLATEAU_ROWS = 10;
const PEAK_DROP_ROWS = 3;
const ROW_SCALE_QUANTILE = 0.9;
const ROW_SCALE_FLOOR = 10;
/** Current read-out: dI/dy as a difference over ±this many rows (a smoothed derivative). */
const CURRENT_DERIVATIVE_ROWS = 2;
/** Conductance peaks this many noise std high count as strong edges; a map needs STRUCTURE_FRACTION of columns with two. */
const STRONG_EDGE_SIGMA = 6;
const STRUCTURE_FRACTION = 0.35;
/** Readout test: conductance when the weaker tail is below this fraction of the stronger one. */
const ONE_SIGNED_RATIO = 0.45;
/** Bias-parity readout test (biasParity): outermost PARITY_ROWS fraction of the rows on each side, PARITY_SIGMA noise std. */
const PARITY_ROWS = 0.12;
const PARITY_SIGMA = 5;
/** Conductance maps whose row scale (90 % quantile of a row) spans more than this ratio grow with bias: zero bias = the quietest row. */
const GROWTH_RATIO = 8;
/** …and when fewer than SPARSE_FRACTION of the pixels exceed LARGE_FRACTION_OF_TAIL of the larger tail. */
const SPARSE_FRACTION = 0.3;
const LARGE_FRACTION_OF_TAIL = 0.25;
/** Current read-out: a map is structured when STRUCTURED_AREA of the pixels carry current above STRONG_EDGE_SIGMA noise std. */
const STRUCTURED_AREA = 0.2;
/** Conductance read-out: the zero-bias row is searched within ±CONDUCTANCE_BAND/2 of the window height around its centre. */
const CONDUCTANCE_BAND = 0.4;
const LINE_SIGMA = 5;
/** Conductance read-out: at most this many zero-bias candidates (fewest-lines runs) are walked; the largest enclosed blockade wins. */
const ZERO_BIAS_CANDIDATES = 3;
const CANDIDATE_MARGIN = 0.1;
/** Current read-out: the zero-bias row is searched within ±CURRENT_BAND/2 of the window height around its centre (1 = all rows). */
const CURRENT_BAND = 1;

/** Zero-bias refinement of current maps (refineZeroCrossing). */
const ZERO_CROSS_ROWS = 4;
const ZERO_CROSS_SIGMA = 2;
const ZERO_CROSS_MIN_COLUMNS = 3;

/**
 * Zero-bias row candidates of a conductance map: the lines of both slopes merge pairwise at the degeneracy points there
 * and no excited-state line reaches it, so a row crosses the fewest lines (local maxima above LINE_SIGMA noise std).
 * Searched in the middle CONDUCTANCE_BAND of the rows: the centre of each run of rows at a local minimum of the
 * smoothed count, fewest lines first (ties: nearer the middle), at most ZERO_BIAS_CANDIDATES. The rows of the diamond
 * tips also cross few lines (the two edges of a tip meet there), and so do rows where one bias polarity is faint.
 */
function fewestLinesRows(evidence: Float64Array, rows: number, cols: number): number[] {
  const abs = Float64Array.from(evidence, Math.abs);
  const sigma = Math.max(median(abs) * MAD_TO_SIGMA, Number.MIN_VALUE);
  const counts = new Float64Array(rows);
  for (let y = 0; y < rows; y++) {
    let c = 0;
    const o = y * cols;
    for (let x = 1; x + 1 < cols; x++) {
      const v = evidence[o + x]!;
      if (v > LINE_SIGMA * sigma && v >= evidence[o + x - 1]! && v > evidence[o + x + 1]!) c++;
    }
    counts[y] = c;
  }
  const smooth = smoothProfile(counts, 2);
  const lo = Math.max(0, Math.round((0.5 - CONDUCTANCE_BAND / 2) * (rows - 1)));
  const hi = Math.min(rows - 1, Math.round((0.5 + CONDUCTANCE_BAND / 2) * (rows - 1)));
  const runs: { centre: number; count: number }[] = [];
  for (let y = lo; y <= hi; y++) {
    const limit = smooth[y]! + 0.5;
    if ((y > lo && smooth[y - 1]! < smooth[y]!) || (y < hi && smooth[y + 1]! < smooth[y]!)) continue;
    let a = y;
    let b = y;
    while (a > lo && smooth[a - 1]! <= limit) a--;
    while (b < hi && smooth[b + 1]! <= limit) b++;
    // A local minimum: no lower row within its run's borders.
    let lowest = true;
    for (let k = a; k <= b; k++) if (smooth[k]! < smooth[y]!) lowest = false;
    if (!lowest) continue;
    const centre = (a + b) / 2;
    if (!runs.some((r) => Math.abs(r.centre - centre) < 1)) runs.push({ centre, count: smooth[y]! });
    y = Math.max(y, b);
  }
  runs.sort((p, q) => p.count - q.count || Math.abs(p.centre - rows / 2) - Math.abs(q.centre - rows / 2));
  return runs.slice(0, ZERO_BIAS_CANDIDATES).map((r) => r.centre);
}

/**
 * Walks from the zero-bias row along column x in direction `step` (−1 up, +1 down) to the first point where
 * `level` exceeds `threshold`, then returns the half-rise of the growth-normalised step (current maps: `growth` given)
 * or the sub-pixel maximum of `evidence` near it (conductance maps), or NaN if none.
 */
function walkToEdge(
  level: Float64Array,
  evidence: Float64Array,
  rows: number,
  cols: number,
  x: number,
  start: number,
  step: number,
  threshold: number,
  evidenceNoise: number,
  rowScale: Float64Array,
  growth: Float64Array | null,
): [number, number] {
  for (let y = start; y >= 0 && y < rows; y += step) {
    if (level[y * cols + x]! <= threshold) continue;
    // The edge is the first local maximum of the conductance at or beyond the first significant point (a
    // thermally or lifetime-broadened step: its tail inside the diamond can rise above the noise several rows before
    // the edge when the current is large, and on power-law maps dI/dV keeps growing far outside, so neither the
    // first crossing nor the largest dI/dV nearby is the edge). A maximum counts when the conductance falls after it
    // by PEAK_DROP of its value (plus noise) within PEAK_DROP_ROWS rows, or stops growing for good.
    // Current maps: a threshold in noise units has no floor relative to the signal, so on maps whose current grows
    // 10³–10⁵ × with bias the thermal or lifetime tail of the step crosses it rows inside the diamond (and across a
    // steep edge the tail spans kT/(1 − α) rows): the half-rise of the row-normalised step is the edge instead.
    if (growth) {
      const edge = halfRiseEdge(level, growth, rows, cols, x, start, step, threshold);
      return Number.isNaN(edge) ? [NaN, 0] : [edge, evidence[Math.round(edge) * cols + x]!];
    }
    let best = -1;
    let bestValue = -Infinity;
    let peaked = false;
    const from = y - step * EDGE_BACK_ROWS;
    for (let yy = from; yy >= 0 && yy < rows && step * (yy - y) <= EDGE_SEARCH_ROWS; yy += step) {
      if (step * (yy - start) < 0) continue;
      const v = evidence[yy * cols + x]! / rowScale[yy]!;
      if (v > bestValue) {
        bestValue = v;
        best = yy;
      }
      if (step * (yy - y) < 0 || best < 0) continue;
      if (v < bestValue * (1 - PEAK_DROP) - evidenceNoise / rowScale[yy]! && step * (yy - best) <= PEAK_DROP_ROWS + 1) {
        peaked = true;
        break;
      }
      if (step * (yy - best) > PEAK_DROP_ROWS) {
        peaked = true;
        break;
      }
    }
    if (!peaked) {
      // dI/dV grows all the way (a power-law onset with no step of its own, near the degeneracy points): the edge
      // is where the current leaves the noise, interpolated between the rows around the crossing.
      const before = y - step;
      const a = before >= 0 && before < rows ? level[before * cols + x]! : 0;
      const b = level[y * cols + x]!;
      const t = b > a ? Math.max(0, Math.min(1, (threshold - a) / (b - a))) : 1;
      return [before >= 0 && before < rows ? before + step * t : y, evidence[y * cols + x]!];
    }
    const raw = evidence[best * cols + x]!;
    if (best > 0 && best < rows - 1) {
      const a = evidence[(best - 1) * cols + x]! / rowScale[best - 1]!;
      const c = evidence[(best + 1) * cols + x]! / rowScale[best + 1]!;
      const den = a - 2 * bestValue + c;
      const shift = den < 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (a - c)) / den)) : 0;
      return [best + shift, raw];
    }
    return [best, raw];
  }
  return [NaN, 0];
}

/**
 * Half-rise of the sequential step in column x, walking from row `from` in direction `step`, on a current map whose
 * current grows with bias (energy-dependent tunnel rates multiply the current by a function of the bias alone, so
 * dividing each row by its own scale — `growth`, the row's ROW_SCALE_QUANTILE of |I| — leaves the bare step; inside the
 * diamond its thermal (exp(ε/kT)) or lifetime (γ/|ε|) tail, beyond the edge a plateau). The T = 0 edge is the step's
 * half-rise (orthodox theory: f(ε) = ½ at ε = 0, Kouwenhoven et al. 1997, Sec. 2.3): the first row where the normalised
 * current reaches HALF_RISE_START, the plateau = its largest value over the next PLATEAU_ROWS rows, the edge = where it
 * crosses half of that plateau (linear interpolation). NaN when it never rises in the window.
 */
function halfRiseEdge(level: Float64Array, growth: Float64Array, rows: number, cols: number, x: number, from: number, step: number, threshold: number): number {
  const norm = (y: number): number => (level[y * cols + x]! > threshold ? level[y * cols + x]! / growth[y]! : 0);
  let first = -1;
  for (let y = from; y >= 0 && y < rows; y += step) {
    if (norm(y) >= HALF_RISE_START) {
      first = y;
      break;
    }
  }
  if (first < 0) return NaN;
  let plateau = 0;
  for (let y = first; y >= 0 && y < rows && step * (y - first) <= PLATEAU_ROWS; y += step) plateau = Math.max(plateau, norm(y));
  const half = plateau / 2;
  for (let y = from; y >= 0 && y < rows; y += step) {
    const v = norm(y);
    if (v < half) continue;
    const before = y - step;
    if (before < 0 || before >= rows || step * (before - from) < 0) return y;
    const a = norm(before);
    return before + (step * (half - a)) / Math.max(v - a, Number.MIN_VALUE);
  }
  return NaN;
}

/**
 * Current read-out: the zero-bias row refined to where I − offset changes sign. I(V_b) is odd about zero bias in
 * every column that carries current there (degeneracy points, and inside the diamonds cotunnelling or broadened
 * levels), while the row-sum minimum drifts with the tunnel-rate asymmetry. Per column the steepest sign change
 * within ±ZERO_CROSS_ROWS of the first estimate, sub-pixel; the median weighted by the steepness; kept when at
 * least ZERO_CROSS_MIN_COLUMNS columns change sign by more than ZERO_CROSS_SIGMA noise std.
 */
function refineZeroCrossing(smooth: Float64Array, rows: number, cols: number, estimate: number, offset: number, noise: number): number {
  const y0 = Math.round(estimate);
  const found: { y: number; w: number }[] = [];
  for (let x = 0; x < cols; x++) {
    let best: { y: number; w: number } | null = null;
    for (let y = Math.max(0, y0 - ZERO_CROSS_ROWS); y + 1 <= Math.min(rows - 1, y0 + ZERO_CROSS_ROWS); y++) {
      const a = smooth[y * cols + x]! - offset;
      const b = smooth[(y + 1) * cols + x]! - offset;
      if (a === 0 || Math.sign(a) === Math.sign(b)) continue;
      const w = Math.abs(b - a);
      if (!best || w > best.w) best = { y: y + a / (a - b), w };
    }
    if (best && best.w > ZERO_CROSS_SIGMA * noise) found.push(best);
  }
  if (found.length < ZERO_CROSS_MIN_COLUMNS) return estimate;
  found.sort((p, q) => p.y - q.y);
  const total = found.reduce((s, p) => s + p.w, 0);
  let acc = 0;
  for (const p of found) {
    acc += p.w;
    if (acc >= total / 2) return p.y;
  }
  return estimate;
}

/**
 * Read-out from the bias parity: the current is odd in the bias (I(−V_b) has the opposite sign of I(V_b) outside the
 * blockade) and the differential conductance even (dI/dV_b ≥ 0 on both sides; Kouwenhoven et al. 1997, Sec. 2.3). So
 * the medians (about the map median) of the PARITY_ROWS outermost rows on either side have opposite signs on a
 * current map and the same sign on a conductance map. Decided only when both exceed PARITY_SIGMA noise std (a
 * saturated power-law map clips its far rows, which defeats the tail-shape test below); else null.
 */
function biasParity(smooth: Float64Array, rows: number, cols: number, middle: number, noise: number): DiamondReadoutGuess | null {
  const band = Math.max(2, Math.round(PARITY_ROWS * rows));
  const values = new Float64Array(band * cols);
  const sideMedian = (first: number): number => {
    let k = 0;
    for (let y = first; y < first + band; y++) for (let x = 0; x < cols; x++) values[k++] = smooth[y * cols + x]! - middle;
    return median(values.subarray(0, k));
  };
  const top = sideMedian(0);
  const bottom = sideMedian(rows - band);
  if (Math.min(Math.abs(top), Math.abs(bottom)) < PARITY_SIGMA * noise) return null;
  return Math.sign(top) === Math.sign(bottom) ? 'conductance' : 'current';
}

export function findBlockadeEdges(data: Float64Array, rows: number, cols: number): BlockadeEdges {
  const n = rows * cols;
  const smooth = binomialSmooth(data, rows, cols);
  const sorted = Float64Array.from(smooth).sort();
  const rawNoise = differenceNoise(data, rows, cols);
  let offset = histogramMode(sorted, Math.max(rawNoise * 0.3, (quantile(sorted, 0.99) - quantile(sorted, 0.01)) / 400));
  // Read-out from the tails about the median: current has large plateaus of both signs, conductance sparse lines of one.
  const middle = quantile(sorted, 0.5);
  const hi = quantile(sorted, 0.995) - middle;
  const lo = middle - quantile(sorted, 0.005);
  let large = 0;
  for (let i = 0; i < n; i++) if (Math.abs(smooth[i]! - middle) > LARGE_FRACTION_OF_TAIL * Math.max(hi, lo)) large++;
  const parity = biasParity(smooth, rows, cols, middle, rawNoise);
  const readout: DiamondReadoutGuess =
    parity ?? (Math.min(hi, lo) < ONE_SIGNED_RATIO * Math.max(hi, lo) && large < SPARSE_FRACTION * n ? 'conductance' : 'current');

  const evidence = new Float64Array(n);
  const level = new Float64Array(n);
  let zeroBiasRow: number;
  let candidates: number[] = [];
  if (readout === 'conductance') {
    const sign = hi >= lo ? 1 : -1;
    for (let i = 0; i < n; i++) evidence[i] = sign * (smooth[i]! - offset);
    // The lines of both slopes cross on the zero-bias row: the map is point-symmetric about its degeneracy points.
    candidates = fewestLinesRows(evidence, rows, cols);
    zeroBiasRow = candidates[0] ?? (rows - 1) / 2;
    // Power-law maps: the conductance grows by orders of magnitude away from zero bias, so a row crosses "few lines"
    // only relative to a noise that the signal inflates; there the quietest row (smallest 90 % quantile, smoothed) is zero bias.
    const scale = new Float64Array(rows);
    const values = new Float64Array(cols);
    for (let y = 0; y < rows; y++) {
      for (let x = 0; x < cols; x++) values[x] = Math.abs(evidence[y * cols + x]!);
      values.sort();
      scale[y] = quantile(values, 0.9);
    }
    const profile = smoothProfile(scale, 2);
    const sortedScale = Float64Array.from(profile).sort();
    if (quantile(sortedScale, 0.95) > GROWTH_RATIO * Math.max(quantile(sortedScale, 0.05), Number.MIN_VALUE)) {
      const lo = Math.max(0, Math.round((0.5 - CONDUCTANCE_BAND / 2) * (rows - 1)));
      const hi = Math.min(rows - 1, Math.round((0.5 + CONDUCTANCE_BAND / 2) * (rows - 1)));
      zeroBiasRow = lo + subPixelArgMin(profile.subarray(lo, hi + 1));
      candidates = [zeroBiasRow];
    }
    level.set(evidence);
  } else {
    // |I − median| summed over a row grows with |bias| away from the zero-bias row, where the whole row is blockaded
    // (the median of a current map lies between the plateaus of either sign, near the blockade level).
    const rowAbs = new Float64Array(rows);
    for (let y = 0; y < rows; y++) {
      let s = 0;
      for (let x = 0; x < cols; x++) s += Math.abs(smooth[y * cols + x]! - middle);
      rowAbs[y] = s;
    }
    const profile = smoothProfile(rowAbs, 2);
    const lo = Math.max(0, Math.round((0.5 - CURRENT_BAND / 2) * (rows - 1)));
    const hi = Math.min(rows - 1, Math.round((0.5 + CURRENT_BAND / 2) * (rows - 1)));
    zeroBiasRow = lo + subPixelArgMin(profile.subarray(lo, hi + 1));
    const y0 = Math.round(zeroBiasRow);
    const near = new Float64Array(cols * 3);
    let k = 0;
    for (let y = Math.max(0, y0 - 1); y <= Math.min(rows - 1, y0 + 1); y++) for (let x = 0; x < cols; x++) near[k++] = smooth[y * cols + x]!;
    offset = median(near.subarray(0, k));
    zeroBiasRow = refineZeroCrossing(smooth, rows, cols, zeroBiasRow, offset, rawNoise);
    // dI/dy has one sign on every edge (dI/dV_b ≥ 0): the sign of the bias axis.
    let sum = 0;
    for (let y = 1; y + 1 < rows; y++) for (let x = 0; x < cols; x++) sum += smooth[(y + 1) * cols + x]! - smooth[(y - 1) * cols + x]!;
    const sign = sum >= 0 ? 1 : -1;
    for (let y = 0; y < rows; y++) {
      const u = Math.max(0, y - CURRENT_DERIVATIVE_ROWS);
      const d = Math.min(rows - 1, y + CURRENT_DERIVATIVE_ROWS);
      for (let x = 0; x < cols; x++) {
        evidence[y * cols + x] = (sign * (smooth[d * cols + x]! - smooth[u * cols + x]!)) / (d - u);
        level[y * cols + x] = Math.abs(smooth[y * cols + x]! - offset);
      }
    }
  }

  if (candidates.length <= 1) return edgesFromZeroBias({ rows, cols, readout, smooth, offset, evidence, level, zeroBiasRow, signalScale: hi + lo });
  // Several zero-bias candidates (conductance maps): the walk from the true zero-bias row meets an edge on both sides
  // in (nearly) every column, from a row where one bias polarity is faint it runs out of the window. The row with the
  // fewest lines stands unless another closes CANDIDATE_MARGIN more of the columns.
  let best: BlockadeEdges | null = null;
  let bestScore = -Infinity;
  for (const y of candidates) {
    const found = edgesFromZeroBias({ rows, cols, readout, smooth, offset, evidence, level, zeroBiasRow: y, signalScale: hi + lo });
    const score = closedColumns(found);
    if (score > bestScore + (best ? CANDIDATE_MARGIN * cols : 0)) [best, bestScore] = [found, score];
  }
  return best!;
}

/** Columns with both edges found. */
function closedColumns(edges: BlockadeEdges): number {
  let both = 0;
  for (let x = 0; x < edges.cols; x++) if (edges.lower[x]! - edges.upper[x]! > 0) both++;
  return both;
}

interface ZeroBiasStart {
  rows: number;
  cols: number;
  readout: DiamondReadoutGuess;
  smooth: Float64Array;
  offset: number;
  evidence: Float64Array;
  level: Float64Array;
  zeroBiasRow: number;
  /** Scale of the signal (noise floor of the level estimate). */
  signalScale: number;
}

/** The per-column edges walking out from a given zero-bias row. */
function edgesFromZeroBias(start: ZeroBiasStart): BlockadeEdges {
  const { rows, cols, readout, smooth, offset, evidence, level, zeroBiasRow, signalScale } = start;
  const n = rows * cols;
  // Noise of the level map on the zero-bias rows (blockade almost everywhere there), MAD.
  const y0 = Math.max(0, Math.min(rows - 1, Math.round(zeroBiasRow)));
  const band = new Float64Array(cols * 5);
  let k = 0;
  for (let y = Math.max(0, y0 - 2); y <= Math.min(rows - 1, y0 + 2); y++)
    for (let x = 0; x < cols; x++) band[k++] = readout === 'current' ? smooth[y * cols + x]! - offset : level[y * cols + x]!;
  const bandValues = band.subarray(0, k);
  const centre = median(bandValues);
  for (let i = 0; i < k; i++) bandValues[i] = Math.abs(bandValues[i]! - centre);
  const levelNoise = Math.max(median(bandValues) * MAD_TO_SIGMA, 1e-12 * signalScale, Number.MIN_VALUE);
  // Noise of the evidence map: MAD on the same zero-bias rows (blockade almost everywhere there; over the whole map
  // the MAD would measure the signal of maps whose current keeps rising with bias).
  k = 0;
  for (let y = Math.max(0, y0 - 2); y <= Math.min(rows - 1, y0 + 2); y++) for (let x = 0; x < cols; x++) band[k++] = evidence[y * cols + x]!;
  const evidenceBand = band.subarray(0, k);
  const evidenceCentre = median(evidenceBand);
  for (let i = 0; i < k; i++) evidenceBand[i] = Math.abs(evidenceBand[i]! - evidenceCentre);
  const evidenceNoise = Math.max(median(evidenceBand) * MAD_TO_SIGMA, Number.MIN_VALUE);

  const upper = new Float64Array(cols);
  const lower = new Float64Array(cols);
  const upperStrength = new Float64Array(cols);
  const lowerStrength = new Float64Array(cols);
  const threshold = RISE_SIGMA * levelNoise;
  // Growth of the signal with bias (power-law maps: energy-dependent tunnel rates make the current 10³–10⁵ × the
  // first step at the far rows): the edge search compares dI/dV within a row's own scale, the ROW_SCALE_QUANTILE
  // of |level| over the row (floored at ROW_SCALE_FLOOR noise std, max-filtered over ±2 rows). On orthodox maps the
  // scale is nearly constant and nothing changes.
  const rowScale = new Float64Array(rows);
  let growth: Float64Array | null = null;
  {
    const values = new Float64Array(cols);
    for (let y = 0; y < rows; y++) {
      for (let x = 0; x < cols; x++) values[x] = level[y * cols + x]!;
      values.sort();
      rowScale[y] = Math.max(quantile(values, ROW_SCALE_QUANTILE), ROW_SCALE_FLOOR * levelNoise);
    }
    if (readout === 'current') growth = Float64Array.from(rowScale);
    const copy = Float64Array.from(rowScale);
    for (let y = 0; y < rows; y++) for (let d = -2; d <= 2; d++) rowScale[y] = Math.max(rowScale[y]!, copy[Math.max(0, Math.min(rows - 1, y + d))]!);
  }
  let strongColumns = 0;
  for (let x = 0; x < cols; x++) {
    const [u, us] = walkToEdge(level, evidence, rows, cols, x, y0, -1, threshold, evidenceNoise, rowScale, growth);
    const [d, ds] = walkToEdge(level, evidence, rows, cols, x, y0, 1, threshold, evidenceNoise, rowScale, growth);
    upper[x] = u;
    lower[x] = d;
    upperStrength[x] = us / evidenceNoise;
    lowerStrength[x] = ds / evidenceNoise;
    if (upperStrength[x]! >= STRONG_EDGE_SIGMA || lowerStrength[x]! >= STRONG_EDGE_SIGMA) strongColumns++;
  }
  let conducting = 0;
  for (let i = 0; i < n; i++) if (level[i]! > STRONG_EDGE_SIGMA * levelNoise) conducting++;
  const structured = readout === 'current' ? conducting >= STRUCTURED_AREA * n : strongColumns >= STRUCTURE_FRACTION * cols;
  return {
    rows,
    cols,
    readout,
    zeroBiasRow,
    upper,
    lower,
    upperStrength,
    lowerStrength,
    structured,
    evidence,
    evidenceNoise,
    level,
    rowLevelScale: growth ?? rowScale,
  };
}
