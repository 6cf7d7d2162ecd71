// coulomb-diamond-detector-v0 … v2: vertices of Coulomb diamonds (axis 0 = bias, axis 1 = gate).
// - v0: from a binary blockade mask: components split at degeneracy necks, one parallelogram fit per diamond
//   (diamond-mask-vertices.ts).
// - v1: from the raw map: the mask between the per-column conductance-peak edges (blockade-edges.ts), then the v0
//   fit per diamond, left/right vertices pinned to the zero-bias row, then moved to the zero-bias conductance peak
//   nearby (current maps; issue 29).
// - v2: from the raw map: one global lattice fit of all edges (shared zero-bias row, per-transition slopes tied to
//   their neighbours, diamonds touching at the degeneracy points; diamond-lattice-fit.ts), which averages the noise
//   over the whole map; also reports the charging energy (bias half-height, rows) and lever arm (charging energy /
//   gate width, rows per column) of each diamond. Constant-interaction geometry as in Kouwenhoven et al., NATO ASI E 345 (1997), Sec. 2.3.
//   v2 reports v1's diamonds, each replaced by its lattice diamond where the lattice describes the measured edges
//   (MIN_AGREEMENT of the columns within AGREE_PX): same detections as v1, more accurate vertices.
// Top/bottom vertices of current maps are moved to where the blockade visibly ends (visible-tips.ts, issue 29).
// Only diamonds whose four vertices lie inside the window are reported.
import { diamondsFromMask } from './diamond-mask-vertices.js';
import type { DiamondVertices, Vertex } from './diamond-score.js';
import { cleanedBlockadeEdges, maskFromEdges } from './coulomb-diamond-segmenter.model.js';
import { visibleTips } from './visible-tips.js';
import type { BlockadeEdges } from './blockade-edges.js';
import { diamondChargingEnergy, fitLatticeToEdges, latticeDiamond, type DiamondLattice } from './diamond-lattice-fit.js';

export interface DiamondDetection {
  diamonds: DiamondVertices[];
}

export interface DiamondDetectionV2 extends DiamondDetection {
  chargingEnergies: number[];
  leverArms: number[];
  lattice: DiamondLattice | null;
}

/** A lattice diamond is reported only if this fraction of its columns carries fitted edge points. */
const MIN_SUPPORT = 0.5;
/** …and this fraction of its columns has both measured edges within AGREE_PX of the fitted ones (the fit describes it). */
const MIN_AGREEMENT = 0.6;
const AGREE_PX = 3;
const CONFIRM_PX = 4;
/**
 * Issue 29: a lattice diamond that v1 does not confirm is still reported when both measured edges agree with it in
 * this fraction of its columns (v1's separate fit fails where the diamond's shape departs from a clean parallelogram
 * near the degeneracy points — thermally rounded on warm maps — or where one edge is nearly vertical).
 */
const STRONG_AGREEMENT = 0.8;
/**
 * …and v1 confirms a lattice diamond when each of its vertices lies within max(CONFIRM_PX, this fraction of the
 * width) of the lattice's: v1 says the diamond is there, the lattice where (v1's separate fit is biased inward at
 * thermally rounded degeneracy points, issue 29).
 */
const CONFIRM_WIDTH_FRACTION = 0.15;

/**
 * Distance (px) of a measured edge point from the fitted edge, perpendicular to the fitted edge (a steep edge of a
 * leaning diamond moves many rows per column, so a vertical difference would count a sub-pixel shift as disagreement).
 */
function edgeDistance(measured: Float64Array, fitted: Float64Array, x: number): number {
  const n = fitted.length;
  const l = fitted[Math.max(0, x - 1)]!;
  const r = fitted[Math.min(n - 1, x + 1)]!;
  const slope = Number.isNaN(l) || Number.isNaN(r) ? 0 : (r - l) / (Math.min(n - 1, x + 1) - Math.max(0, x - 1));
  return Math.abs(measured[x]! - fitted[x]!) / Math.sqrt(1 + slope * slope);
}

export function detectDiamondsInMask(mask: ArrayLike<number>, rows: number, cols: number): DiamondDetection {
  return { diamonds: diamondsFromMask(mask, rows, cols).map((d) => d.vertices) };
}

/**
 * Left/right vertices pinned to the zero-bias row y0 (they are degeneracy points, at zero bias by definition): each
 * moves to the mean x at which its two edge lines (through it and the top, through it and the bottom) cross y0.
 */
export function pinToZeroBias(d: DiamondVertices, y0: number): DiamondVertices {
  const [left, top, right, bottom] = d;
  const cross = (p: Vertex, q: Vertex): number => (q[1] === p[1] ? p[0] : p[0] + ((y0 - p[1]) * (q[0] - p[0])) / (q[1] - p[1]));
  const pin = (v: Vertex): Vertex => [(cross(v, top) + cross(v, bottom)) / 2, y0];
  return [pin(left), top, pin(right), bottom];
}

/**
 * Zero-bias peak search: within this fraction of the diamond's width of v1's left/right vertex (a quarter: far enough
 * for the thermal inward bias of v1's fit, 4–7 px on warm maps, and never reaching a neighbouring degeneracy point,
 * a whole width away); peaks ≥ PEAK_SIGMA noise.
 */
const PEAK_WINDOW_FRACTION = 0.25;
/**
 * Conductance maps: a tenth of the width. There v1's left/right come from the line maxima and are off by ≈ 5 % of the
 * width (outward on wide maps resampled in gate windows); a wider window reaches other lines' zero-bias tails.
 */
const CONDUCTANCE_PEAK_WINDOW_FRACTION = 0.1;
const PEAK_SIGMA = 4;

/**
 * Left/right vertices from v1's separate fit (v1's diamonds, and v2's diamonds without a lattice diamond; issue 29):
 * moved to the zero-bias conductance
 * peak nearby. The linear-response conductance at zero bias is a peak centred on the degeneracy point,
 * G ∝ cosh⁻²(λ(x − x_k)/2kT) (Beenakker, Phys. Rev. B 44, 1646 (1991), Eq. 6.7), whatever the temperature, while the
 * blockade edges near x_k are rounded by kT and v1's parallelogram fit of them lands inward on warm maps. The peak
 * position is the centroid of the dI/dV profile (rows y0 ± 1) above half its maximum, around the maximum. On
 * conductance maps the profile is the measured conductance itself.
 */
function refineDegeneracyPoints(d: DiamondVertices, edges: BlockadeEdges): DiamondVertices {
  const { rows, cols, evidence, evidenceNoise, zeroBiasRow } = edges;
  const y0 = Math.max(1, Math.min(rows - 2, Math.round(zeroBiasRow)));
  const g = (x: number): number => (evidence[(y0 - 1) * cols + x]! + 2 * evidence[y0 * cols + x]! + evidence[(y0 + 1) * cols + x]!) / 4;
  const half = Math.max(2, (edges.readout === 'current' ? PEAK_WINDOW_FRACTION : CONDUCTANCE_PEAK_WINDOW_FRACTION) * (d[2][0] - d[0][0]));
  const refine = (v: Vertex): Vertex => {
    const from = Math.max(0, Math.ceil(v[0] - half));
    const to = Math.min(cols - 1, Math.floor(v[0] + half));
    let best = -1;
    for (let x = from; x <= to; x++) if (best < 0 || g(x) > g(best)) best = x;
    // A maximum on the window's border is no peak.
    if (best <= from || best >= to || !(g(best) >= PEAK_SIGMA * evidenceNoise)) return v;
    const cut = g(best) / 2;
    let lo = best;
    let hi = best;
    while (lo - 1 >= 0 && g(lo - 1) > cut) lo--;
    while (hi + 1 < cols && g(hi + 1) > cut) hi++;
    let sw = 0;
    let sx = 0;
    for (let x = lo; x <= hi; x++) {
      sw += g(x) - cut;
      sx += (g(x) - cut) * x;
    }
    return sw > 0 ? [sx / sw, v[1]] : v;
  };
  return [refine(d[0]), d[1], refine(d[2]), d[3]];
}

export function detectDiamondsV1(data: Float64Array, rows: number, cols: number): DiamondDetection {
  const edges = cleanedBlockadeEdges(data, rows, cols);
  if (!edges.structured) return { diamonds: [] };
  const found = detectDiamondsInMask(maskFromEdges(edges.upper, edges.lower, rows, cols), rows, cols).diamonds;
  return { diamonds: found.map((d) => visibleTips(refineDegeneracyPoints(pinToZeroBias(d, edges.zeroBiasRow), edges), edges)) };
}

const roundVertex = (d: DiamondVertices): DiamondVertices => d.map((v) => [Math.round(v[0] * 100) / 100, Math.round(v[1] * 100) / 100]) as DiamondVertices;

export function detectDiamondsV2(data: Float64Array, rows: number, cols: number): DiamondDetectionV2 {
  const nothing: DiamondDetectionV2 = { diamonds: [], chargingEnergies: [], leverArms: [], lattice: null };
  const edges = cleanedBlockadeEdges(data, rows, cols);
  if (!edges.structured) return nothing;
  const lattice = fitLatticeToEdges(edges);
  if (!lattice) return nothing;
  const { upper, lower } = edges;
  const result: DiamondDetectionV2 = { diamonds: [], chargingEnergies: [], leverArms: [], lattice };
  const push = (vertices: DiamondVertices): void => {
    // The addition energy from the edge lines' intersection (the T = 0 vertex); the reported top/bottom vertices are
    // where the blockade visibly ends (visible-tips.ts).
    const energy = diamondChargingEnergy(vertices);
    result.diamonds.push(roundVertex(visibleTips(vertices, edges)));
    result.chargingEnergies.push(Math.round(energy * 1000) / 1000);
    result.leverArms.push(Math.round((energy / Math.max(1e-9, vertices[2][0] - vertices[0][0])) * 1e4) / 1e4);
  };
  // v1's per-diamond fits on the same edges: a lattice diamond is reported only where a v1 diamond confirms it (all
  // four vertices within CONFIRM_PX): the lattice refines the vertices, it neither adds diamonds (on the harder
  // simulator unconfirmed lattice diamonds were mostly false alarms) nor moves them far.
  const local = detectDiamondsInMask(maskFromEdges(upper, lower, rows, cols), rows, cols).diamonds;
  for (let k = 0; k + 1 < lattice.degeneracy.length; k++) {
    const vertices = latticeDiamond(lattice, k);
    if (!vertices.every((v) => v[0] >= -0.5 && v[0] <= cols - 0.5 && v[1] >= -0.5 && v[1] <= rows - 0.5)) continue;
    const [left, , right] = vertices;
    const width = right[0] - left[0];
    if (width < 3) continue;
    let supported = 0;
    let agreeing = 0;
    let columns = 0;
    for (let x = Math.ceil(left[0]); x <= Math.floor(right[0]); x++) {
      columns++;
      if (Number.isNaN(upper[x]!) || Number.isNaN(lower[x]!)) continue;
      supported++;
      if (edgeDistance(upper, lattice.upper, x) <= AGREE_PX && edgeDistance(lower, lattice.lower, x) <= AGREE_PX) agreeing++;
    }
    if (supported < MIN_SUPPORT * columns || agreeing < MIN_AGREEMENT * columns) continue;
    const tolerance = Math.max(CONFIRM_PX, CONFIRM_WIDTH_FRACTION * width);
    const confirmed = local.some((d) => d.every((v, i) => Math.hypot(v[0] - vertices[i]![0], v[1] - vertices[i]![1]) <= tolerance));
    if (!confirmed && agreeing < STRONG_AGREEMENT * columns) continue;
    push(vertices);
  }
  // Where the lattice does not describe the edges (a gate jump, a diamond the lattice split or merged wrongly), the
  // per-diamond fit of v1 stands on its own: its diamonds that no lattice diamond covers are added, pinned to the
  // same zero-bias row as v1.
  for (const d of local) {
    const centre = (d[0][0] + d[2][0]) / 2;
    if (result.diamonds.some((r) => centre > r[0][0] && centre < r[2][0])) continue;
    push(refineDegeneracyPoints(pinToZeroBias(d, edges.zeroBiasRow), edges));
  }
  return result;
}
