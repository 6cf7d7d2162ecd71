// coulomb-diamond-detector-v0 … v2: vertices of Coulomb diamonds (axis 0 = bias, axis 1 = gate).
// - v0: from a binary blockade mask: components split at degeneracy necks, one parallelogram fit per diamond
//   (diamond-mask-vertices.ts).
// - v1: from the raw map: the mask between the per-column conductance-peak edges (blockade-edges.ts), then the v0
//   fit per diamond, left/right vertices pinned to the zero-bias row.
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

export function detectDiamondsV1(data: Float64Array, rows: number, cols: number): DiamondDetection {
  const edges = cleanedBlockadeEdges(data, rows, cols);
  if (!edges.structured) return { diamonds: [] };
  const found = detectDiamondsInMask(maskFromEdges(edges.upper, edges.lower, rows, cols), rows, cols).diamonds;
  return { diamonds: found.map((d) => visibleTips(pinToZeroBias(d, edges.zeroBiasRow), edges)) };
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
      if (Math.abs(upper[x]! - lattice.upper[x]!) <= AGREE_PX && Math.abs(lower[x]! - lattice.lower[x]!) <= AGREE_PX) agreeing++;
    }
    if (supported < MIN_SUPPORT * columns || agreeing < MIN_AGREEMENT * columns) continue;
    if (!local.some((d) => d.every((v, i) => Math.hypot(v[0] - vertices[i]![0], v[1] - vertices[i]![1]) <= CONFIRM_PX))) continue;
    push(vertices);
  }
  // Where the lattice does not describe the edges (a gate jump, a diamond the lattice split or merged wrongly), the
  // per-diamond fit of v1 stands on its own: its diamonds that no lattice diamond covers are added, pinned to the
  // same zero-bias row as v1.
  for (const d of local) {
    const centre = (d[0][0] + d[2][0]) / 2;
    if (result.diamonds.some((r) => centre > r[0][0] && centre < r[2][0])) continue;
    push(pinToZeroBias(d, edges.zeroBiasRow));
  }
  return result;
}
