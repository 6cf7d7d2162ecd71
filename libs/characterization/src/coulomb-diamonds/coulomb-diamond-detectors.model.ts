// coulomb-diamond-detector-v0 … v2: vertices of Coulomb diamonds (axis 0 = bias, axis 1 = gate).
// - v0: from a binary blockade mask: components split at degeneracy necks, one parallelogram fit per diamond
//   (diamond-mask-vertices.ts).
// - v1: from the raw map: the mask between the per-column conductance-peak edges (blockade-edges.ts), then the v0
//   fit per diamond.
// - v2: from the raw map: one global lattice fit of all edges (shared zero-bias row, per-transition slopes tied to
//   their neighbours, diamonds touching at the degeneracy points; diamond-lattice-fit.ts), which averages the noise
//   over the whole map; also reports the charging energy (bias half-height, rows) and lever arm (charging energy /
//   gate width, rows per column) of each diamond. Constant-interaction geometry as in Kouwenhoven et al., NATO ASI E 345 (1997), Sec. 2.3.
// Only diamonds whose four vertices lie inside the window are reported.
import { diamondsFromMask } from './diamond-mask-vertices.js';
import type { DiamondVertices } from './diamond-score.js';
import { cleanedBlockadeEdges, maskFromEdges } from './coulomb-diamond-segmenter.model.js';
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

export function detectDiamondsInMask(mask: ArrayLike<number>, rows: number, cols: number): DiamondDetection {
  return { diamonds: diamondsFromMask(mask, rows, cols).map((d) => d.vertices) };
}

export function detectDiamondsV1(data: Float64Array, rows: number, cols: number): DiamondDetection {
  const edges = cleanedBlockadeEdges(data, rows, cols);
  if (!edges.structured) return { diamonds: [] };
  return detectDiamondsInMask(maskFromEdges(edges.upper, edges.lower, rows, cols), rows, cols);
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
  for (let k = 0; k + 1 < lattice.degeneracy.length; k++) {
    const vertices = latticeDiamond(lattice, k);
    if (!vertices.every((v) => v[0] >= -0.5 && v[0] <= cols - 0.5 && v[1] >= -0.5 && v[1] <= rows - 0.5)) continue;
    const [left, , right] = vertices;
    const width = right[0] - left[0];
    if (width < 3) continue;
    let supported = 0;
    let columns = 0;
    for (let x = Math.ceil(left[0]); x <= Math.floor(right[0]); x++) {
      columns++;
      if (!Number.isNaN(upper[x]!) && !Number.isNaN(lower[x]!)) supported++;
    }
    if (supported < MIN_SUPPORT * columns) continue;
    const energy = diamondChargingEnergy(vertices);
    result.diamonds.push(roundVertex(vertices));
    result.chargingEnergies.push(Math.round(energy * 1000) / 1000);
    result.leverArms.push(Math.round((energy / width) * 1e4) / 1e4);
  }
  return result;
}
