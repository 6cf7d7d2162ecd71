// Global Coulomb-diamond lattice fit (used by coulomb-diamond-detector-v2). Every diamond of one dot shares the
// zero-bias row, and neighbouring diamonds touch at the degeneracy points x_k, where the two edge lines of charge
// transition k cross zero bias: line A_k (slope −a_k: the upper-right edge of diamond k and lower-left of diamond
// k − 1) and line C_k (slope +c_k). In the constant-interaction model a_k = a and c_k = c for all k (they depend only
// on the capacitances, −C_g/C_s and C_g/(C_g + C_d); Kouwenhoven et al., NATO ASI E 345 (1997), Sec. 2.3); on real
// dots the capacitances drift as the dot empties (heights change 30–50 % along the gate), so each transition has its
// own pair, tied to its neighbours' by a smoothness penalty (SLOPE_TIE px per unit of slope difference, a ridge in
// the normal equations). In diamond k the upper edge is y0 − min(a_k(x − x_k), c_{k+1}(x_{k+1} − x)) and the lower
// edge y0 + min(c_k(x − x_k), a_{k+1}(x_{k+1} − x)). Fitted to the per-column sub-pixel edges by damped Gauss–Newton
// (Levenberg–Marquardt) with iteratively trimmed outliers. Charging energy of diamond k = the mean bias half-height
// of its top and bottom vertices (rows); lever arm = charging energy / gate width (rows per column).
import { MAD_TO_SIGMA, median, medianInPlace } from '../signal/order-statistics.js';
import type { BlockadeEdges } from './blockade-edges.js';
import { diamondsFromMask } from './diamond-mask-vertices.js';
import type { DiamondVertices, Vertex } from './diamond-score.js';

export interface DiamondLattice {
  zeroBiasRow: number;
  /** Per degeneracy point: slopes (rows per column, > 0) of its A line (falling to the right) and C line (rising). */
  slopesA: number[];
  slopesC: number[];
  degeneracy: number[];
}

/** Smoothness penalty between neighbouring transitions' slopes, px of residual per unit of slope difference. */
const SLOPE_TIE = 15;

const ITERATIONS = 12;
/** Interval heights below this fraction of the largest (or 2.5 px) mark a degeneracy point in the initial guess. */
const DEGENERACY_HEIGHT_FRACTION = 0.15;
/** Zero-bias transport peaks: at least this many noise std and this fraction of the highest, MIN_SPACING_FRACTION of the width apart. */
const PEAK_SIGMA = 4;
const DEGENERACY_PEAK_FRACTION = 0.15;
const MIN_SPACING_FRACTION = 0.06;
/** A fitted diamond wider than this multiple of the median width is split. */
const SPLIT_WIDTH_RATIO = 1.6;
/** Split candidates: zero-bias peaks of at least WEAK_PEAK_SIGMA; a split must cut the capped cost by SPLIT_GAIN. */
const WEAK_PEAK_SIGMA = 2;
const SPLIT_GAIN = 0.1;
const MAX_SPLITS = 3;
const MERGE_TOLERANCE = 0.05;
/** Residuals are capped at this many pixels in the cost that compares lattices. */
const COST_CAP_PX = 2;
const DAMPING = 1e-3;
const TRIM_SIGMA = 3;
/** Slope ratios a/c of the extra starts of the first fit (leaning diamonds). */
const SLOPE_RATIO_STARTS = [1 / 6, 6];
/** Edge points within this many columns of a degeneracy point are left out (the edges merge there). */
const DEGENERACY_GUARD = 1;

interface EdgePoint {
  x: number;
  y: number;
  upper: boolean;
}

/**
 * Model edge and its derivatives for a point; k = the diamond index (between degeneracy k and k + 1). Parameter
 * layout: [y0, a_0 … a_K, c_0 … c_K, x_0 … x_K] (K + 1 = degeneracy points).
 */
function evaluate(l: DiamondLattice, p: EdgePoint, k: number, grad: Float64Array): number {
  const m = l.degeneracy.length;
  const xl = l.degeneracy[k]!;
  const xr = l.degeneracy[k + 1]!;
  const iA = (j: number): number => 1 + j;
  const iC = (j: number): number => 1 + m + j;
  const iX = (j: number): number => 1 + 2 * m + j;
  grad.fill(0, 0, 1 + 3 * m);
  grad[0] = 1;
  if (p.upper) {
    const ul = l.slopesA[k]! * (p.x - xl);
    const ur = l.slopesC[k + 1]! * (xr - p.x);
    if (ul <= ur) {
      grad[iA(k)] = -(p.x - xl);
      grad[iX(k)] = l.slopesA[k]!;
      return l.zeroBiasRow - ul;
    }
    grad[iC(k + 1)] = -(xr - p.x);
    grad[iX(k + 1)] = -l.slopesC[k + 1]!;
    return l.zeroBiasRow - ur;
  }
  const ll = l.slopesC[k]! * (p.x - xl);
  const lr = l.slopesA[k + 1]! * (xr - p.x);
  if (ll <= lr) {
    grad[iC(k)] = p.x - xl;
    grad[iX(k)] = -l.slopesC[k]!;
    return l.zeroBiasRow + ll;
  }
  grad[iA(k + 1)] = xr - p.x;
  grad[iX(k + 1)] = l.slopesA[k + 1]!;
  return l.zeroBiasRow + lr;
}

function diamondIndex(degeneracy: readonly number[], x: number): number {
  for (let k = 0; k + 1 < degeneracy.length; k++) if (x < degeneracy[k + 1]!) return k;
  return degeneracy.length - 2;
}

function solveDense(a: Float64Array, b: Float64Array, n: number): Float64Array | null {
  const m = Float64Array.from(a);
  const v = Float64Array.from(b);
  for (let i = 0; i < n; i++) {
    let p = i;
    for (let r = i + 1; r < n; r++) if (Math.abs(m[r * n + i]!) > Math.abs(m[p * n + i]!)) p = r;
    if (Math.abs(m[p * n + i]!) < 1e-14) return null;
    if (p !== i) {
      for (let k = 0; k < n; k++) [m[i * n + k], m[p * n + k]] = [m[p * n + k]!, m[i * n + k]!];
      [v[i], v[p]] = [v[p]!, v[i]!];
    }
    for (let r = i + 1; r < n; r++) {
      const f = m[r * n + i]! / m[i * n + i]!;
      if (f === 0) continue;
      for (let k = i; k < n; k++) m[r * n + k]! -= f * m[i * n + k]!;
      v[r]! -= f * v[i]!;
    }
  }
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let s = v[i]!;
    for (let k = i + 1; k < n; k++) s -= m[i * n + k]! * x[k]!;
    x[i] = s / m[i * n + i]!;
  }
  return x;
}

/** Fits the lattice to per-column upper/lower edges (NaN = none) starting from `init`; also returns the median |residual|. */
export function fitDiamondLattice(upper: Float64Array, lower: Float64Array, init: DiamondLattice): DiamondLattice & { medianResidual: number; cost: number } {
  const points: EdgePoint[] = [];
  for (let x = 0; x < upper.length; x++) {
    if (!Number.isNaN(upper[x]!)) points.push({ x, y: upper[x]!, upper: true });
    if (!Number.isNaN(lower[x]!)) points.push({ x, y: lower[x]!, upper: false });
  }
  let lattice: DiamondLattice = { ...init, degeneracy: [...init.degeneracy], slopesA: [...init.slopesA], slopesC: [...init.slopesC] };
  const m = lattice.degeneracy.length;
  const n = 1 + 3 * m;
  const grad = new Float64Array(n);
  const use = new Uint8Array(points.length).fill(1);
  let medianResidual = Infinity;
  let cost = Infinity;
  for (let iter = 0; iter < ITERATIONS; iter++) {
    const jtj = new Float64Array(n * n);
    const jtr = new Float64Array(n);
    const residuals = new Float64Array(points.length);
    points.forEach((p, i) => {
      const k = diamondIndex(lattice.degeneracy, p.x);
      const nearest = Math.min(Math.abs(p.x - lattice.degeneracy[k]!), Math.abs(p.x - lattice.degeneracy[k + 1]!));
      const r = p.y - evaluate(lattice, p, k, grad);
      residuals[i] = Math.abs(r);
      if (!use[i] || nearest < DEGENERACY_GUARD) return;
      for (let u = 0; u < n; u++) {
        if (grad[u] === 0) continue;
        jtr[u]! += grad[u]! * r;
        for (let v = 0; v < n; v++) jtj[u * n + v]! += grad[u]! * grad[v]!;
      }
    });
    // Smoothness ties between neighbouring transitions' slopes (pseudo-residuals SLOPE_TIE·(s_j − s_{j+1})).
    for (const base of [1, 1 + m]) {
      const values = base === 1 ? lattice.slopesA : lattice.slopesC;
      for (let j = 0; j + 1 < m; j++) {
        const u = base + j;
        const v = u + 1;
        const w = SLOPE_TIE * SLOPE_TIE;
        const r = -(values[j]! - values[j + 1]!);
        jtj[u * n + u]! += w;
        jtj[v * n + v]! += w;
        jtj[u * n + v]! -= w;
        jtj[v * n + u]! -= w;
        jtr[u]! += w * r;
        jtr[v]! -= w * r;
      }
    }
    for (let u = 0; u < n; u++) jtj[u * n + u]! += DAMPING * (1 + jtj[u * n + u]!);
    const step = solveDense(jtj, jtr, n);
    if (!step) break;
    const next: DiamondLattice = {
      zeroBiasRow: lattice.zeroBiasRow + step[0]!,
      slopesA: lattice.slopesA.map((a, j) => Math.max(0.05, a + step[1 + j]!)),
      slopesC: lattice.slopesC.map((c, j) => Math.max(0.05, c + step[1 + m + j]!)),
      degeneracy: lattice.degeneracy.map((x, k) => x + step[1 + 2 * m + k]!),
    };
    // Degeneracy points stay ordered.
    for (let k = 1; k < next.degeneracy.length; k++) next.degeneracy[k] = Math.max(next.degeneracy[k]!, next.degeneracy[k - 1]! + 1);
    lattice = next;
    medianResidual = residuals.length ? medianInPlace(Float64Array.from(residuals), residuals.length) : Infinity;
    cost = 0;
    for (const r of residuals) cost += Math.min(r * r, COST_CAP_PX * COST_CAP_PX);
    const scale = Math.max(0.4, MAD_TO_SIGMA * medianResidual);
    residuals.forEach((r, i) => {
      use[i] = r <= TRIM_SIGMA * scale ? 1 : 0;
    });
  }
  return { ...lattice, medianResidual, cost };
}

/** The model's upper and lower blockade edges per column (NaN where a diamond closes). */
export function latticeEdges(l: DiamondLattice, cols: number): { upper: Float64Array; lower: Float64Array } {
  const upper = new Float64Array(cols);
  const lower = new Float64Array(cols);
  for (let x = 0; x < cols; x++) {
    const k = diamondIndex(l.degeneracy, x);
    const xl = l.degeneracy[k]!;
    const xr = l.degeneracy[k + 1]!;
    if (x <= xl || x >= xr) {
      upper[x] = lower[x] = l.zeroBiasRow;
      continue;
    }
    upper[x] = l.zeroBiasRow - Math.min(l.slopesA[k]! * (x - xl), l.slopesC[k + 1]! * (xr - x));
    lower[x] = l.zeroBiasRow + Math.min(l.slopesC[k]! * (x - xl), l.slopesA[k + 1]! * (xr - x));
  }
  return { upper, lower };
}

export interface LatticeFit extends DiamondLattice {
  medianResidual: number;
  /** Model edges per column. */
  upper: Float64Array;
  lower: Float64Array;
}

/**
 * Initial guess and fit from per-column edges: degeneracy points where the blockade interval closes, extended by
 * the median spacing past both window sides; slopes from per-diamond parallelogram fits of the edge mask.
 */
export function fitLatticeToEdges(edges: BlockadeEdges): LatticeFit | null {
  const { upper, lower, rows, cols } = edges;
  const heights = Array.from({ length: cols }, (_, x) => (Number.isNaN(upper[x]!) || Number.isNaN(lower[x]!) ? rows : lower[x]! - upper[x]!));
  const finite = heights.filter((h) => h < rows);
  if (finite.length < 4) return null;
  // Degeneracy points: transport peaks along the zero-bias row (the only places it conducts)…
  const degeneracy: number[] = [];
  const y0 = Math.max(1, Math.min(rows - 2, Math.round(edges.zeroBiasRow)));
  const profile = new Float64Array(cols);
  for (let x = 0; x < cols; x++) {
    let s = 0;
    for (let y = y0 - 1; y <= y0 + 1; y++)
      for (let dx = -1; dx <= 1; dx++) s += edges.evidence[y * cols + Math.max(0, Math.min(cols - 1, x + dx))]! * (dx === 0 ? 2 : 1);
    profile[x] = s / 12;
  }
  const peak = Math.max(...profile);
  const minSeparation = Math.max(4, MIN_SPACING_FRACTION * cols);
  if (peak > PEAK_SIGMA * edges.evidenceNoise) {
    for (let x = 0; x < cols; x++) {
      const v = profile[x]!;
      if (v < DEGENERACY_PEAK_FRACTION * peak || v < PEAK_SIGMA * edges.evidenceNoise) continue;
      if ((x > 0 && profile[x - 1]! > v) || (x + 1 < cols && profile[x + 1]! >= v)) continue;
      const last = degeneracy[degeneracy.length - 1];
      if (last !== undefined && x - last < minSeparation) {
        if (v > profile[Math.round(last)]!) degeneracy[degeneracy.length - 1] = x;
        continue;
      }
      degeneracy.push(x);
    }
  }
  // …and where the blockade interval closes (merged with the peaks closer than minSeparation).
  {
    const threshold = Math.max(2.5, DEGENERACY_HEIGHT_FRACTION * Math.max(...finite));
    for (let x = 0; x < cols; ) {
      if (heights[x]! > threshold) {
        x++;
        continue;
      }
      let end = x;
      while (end + 1 < cols && heights[end + 1]! <= threshold) end++;
      const centre = (x + end) / 2;
      if (degeneracy.every((d) => Math.abs(d - centre) >= minSeparation)) degeneracy.push(centre);
      x = end + 1;
    }
    degeneracy.sort((a, b) => a - b);
  }
  const mask = new Uint8Array(rows * cols);
  for (let x = 0; x < cols; x++) {
    const u = Number.isNaN(upper[x]!) ? -1 : upper[x]!;
    const d = Number.isNaN(lower[x]!) ? rows : lower[x]!;
    for (let y = Math.max(0, Math.floor(u) + 1); y < Math.min(rows, Math.ceil(d)); y++) if (y > u && y < d) mask[y * cols + x] = 1;
  }
  const local = diamondsFromMask(mask, rows, cols);
  const slopeA = local.length ? median(local.map((d) => d.slopeA)) : 1;
  const slopeC = local.length ? median(local.map((d) => d.slopeC)) : 1;
  const maxHeight = Math.max(...finite, 1);
  let spacing = degeneracy.length >= 2 ? median(degeneracy.slice(1).map((x, k) => x - degeneracy[k]!)) : (maxHeight / 2) * (1 / slopeA + 1 / slopeC);
  if (!(spacing > 2)) spacing = cols / 3;
  if (degeneracy.length === 0) degeneracy.push(cols / 2);
  while (degeneracy[0]! > -0.5) degeneracy.unshift(degeneracy[0]! - spacing);
  while (degeneracy[degeneracy.length - 1]! < cols - 0.5) degeneracy.push(degeneracy[degeneracy.length - 1]! + spacing);
  const shared = (d: number[], a: number, c: number): DiamondLattice => ({
    zeroBiasRow: edges.zeroBiasRow,
    slopesA: d.map(() => a),
    slopesC: d.map(() => c),
    degeneracy: d,
  });
  // Leaning diamonds (issue 29): the per-diamond fits may miss them (one edge nearly vertical) and leave the
  // symmetric default, from which Gauss–Newton does not reach a slope ratio of 5–10. The two slopes are estimated
  // rather than assumed near-symmetric: starts with the same diamond height (a·c/(a + c) kept) and slope ratios
  // a/c = SLOPE_RATIO_STARTS, the lowest capped residual cost wins.
  let fit = fitDiamondLattice(upper, lower, shared(degeneracy, slopeA, slopeC));
  const harmonic = (slopeA * slopeC) / (slopeA + slopeC);
  for (const ratio of SLOPE_RATIO_STARTS) {
    const trial = fitDiamondLattice(upper, lower, shared(degeneracy, harmonic * (1 + ratio), harmonic * (1 + 1 / ratio)));
    if (trial.cost < fit.cost) fit = trial;
  }
  // Spurious degeneracy points (noise closing the interval in a column or two): drop one when the fit without it
  // costs at most MERGE_TOLERANCE more.
  for (let round = 0; round < MAX_SPLITS; round++) {
    let best: typeof fit | null = null;
    for (let k = 1; k + 1 < fit.degeneracy.length; k++) {
      const x = fit.degeneracy[k]!;
      if (x < 0 || x > cols - 1) continue;
      const keep = (_: number, j: number): boolean => j !== k;
      const trial = fitDiamondLattice(upper, lower, {
        zeroBiasRow: fit.zeroBiasRow,
        slopesA: fit.slopesA.filter(keep),
        slopesC: fit.slopesC.filter(keep),
        degeneracy: fit.degeneracy.filter(keep),
      });
      if (trial.cost <= (1 + MERGE_TOLERANCE) * fit.cost && (!best || trial.cost < best.cost)) best = trial;
    }
    if (!best) break;
    fit = best;
  }
  // Missed degeneracy points (weak zero-bias peaks, noisy edges near the vertex): try weaker peaks and the middles
  // of wide diamonds, keep a split when it lowers the capped residual cost by SPLIT_GAIN.
  const candidates: number[] = [];
  for (let x = 1; x + 1 < cols; x++) {
    const v = profile[x]!;
    if (v >= WEAK_PEAK_SIGMA * edges.evidenceNoise && v >= profile[x - 1]! && v > profile[x + 1]!) candidates.push(x);
  }
  for (let round = 0; round < MAX_SPLITS; round++) {
    const widths = fit.degeneracy.slice(1).map((x, k) => x - fit.degeneracy[k]!);
    const typical = median(widths);
    const trials = new Set<number>();
    for (const c of candidates) if (fit.degeneracy.every((d) => Math.abs(d - c) >= minSeparation)) trials.add(c);
    fit.degeneracy.forEach((x, k) => {
      const next = fit.degeneracy[k + 1];
      if (next !== undefined && next - x > SPLIT_WIDTH_RATIO * typical && (x + next) / 2 > 0 && (x + next) / 2 < cols - 1) trials.add((x + next) / 2);
    });
    let best = fit;
    for (const t of trials) {
      // The new transition starts with the slopes of its left neighbour.
      const at = fit.degeneracy.findIndex((x) => x > t);
      const j = at < 0 ? fit.degeneracy.length : at;
      const insert = (values: number[]): number[] => [...values.slice(0, j), values[Math.max(0, j - 1)]!, ...values.slice(j)];
      const trial = fitDiamondLattice(upper, lower, {
        zeroBiasRow: fit.zeroBiasRow,
        slopesA: insert(fit.slopesA),
        slopesC: insert(fit.slopesC),
        degeneracy: insert(fit.degeneracy).map((x, i) => (i === j ? t : x)),
      });
      if (trial.cost < best.cost) best = trial;
    }
    if (best === fit || best.cost > (1 - SPLIT_GAIN) * fit.cost) break;
    fit = best;
  }
  return { ...fit, ...latticeEdges(fit, cols) };
}

/** Vertices [left, top, right, bottom] of diamond k of the lattice. */
export function latticeDiamond(l: DiamondLattice, k: number): DiamondVertices {
  const xl = l.degeneracy[k]!;
  const xr = l.degeneracy[k + 1]!;
  const y0 = l.zeroBiasRow;
  const aL = l.slopesA[k]!;
  const cR = l.slopesC[k + 1]!;
  const cL = l.slopesC[k]!;
  const aR = l.slopesA[k + 1]!;
  const xTop = (aL * xl + cR * xr) / (aL + cR);
  const xBottom = (cL * xl + aR * xr) / (cL + aR);
  const top: Vertex = [xTop, y0 - aL * (xTop - xl)];
  const bottom: Vertex = [xBottom, y0 + cL * (xBottom - xl)];
  return [[xl, y0], top, [xr, y0], bottom];
}

/** Charging energy (mean bias half-height of the top and bottom vertices, rows) of a diamond's vertices. */
export function diamondChargingEnergy(d: DiamondVertices): number {
  return (Math.abs(d[1][1] - d[0][1]) + Math.abs(d[3][1] - d[0][1])) / 2;
}
