// coulomb-diamond-segmenter-v0: blockade mask of a Coulomb-diamond map (axis 0 = bias, axis 1 = gate), 1 inside
// the diamonds. Per gate column the blockade is the bias interval around zero bias bounded by the first
// conductance peak on each side (orthodox theory: the peak of dI/dV_b is the T = 0 edge; Kouwenhoven et al.,
// NATO ASI E 345 (1997), Sec. 2.3; blockade-edges.ts). Those edges are regularised by the constant-interaction
// lattice fit (shared zero-bias row and slopes, diamonds touching at degeneracy points; diamond-lattice-fit.ts) and
// the fitted diamonds are rasterised, cut ones included. If the lattice does not describe the edges (median
// residual > LATTICE_MAX_RESIDUAL_PX), the per-column edges (3-column median) are used directly.
// Pure noise (no transport structure) gives an empty mask.
import { findBlockadeEdges, type BlockadeEdges } from './blockade-edges.js';
import { medianAlongColumns } from './map-filters.js';
import { fitLatticeToEdges, type LatticeFit } from './diamond-lattice-fit.js';

export interface DiamondSegmentation {
  mask: Uint8Array;
  edges: BlockadeEdges;
  lattice: LatticeFit | null;
}

const LATTICE_MAX_RESIDUAL_PX = 1.5;

/** Mask of pixels strictly between the upper and lower edge of their column (NaN edge = the window border). */
export function maskFromEdges(upper: Float64Array, lower: Float64Array, rows: number, cols: number): Uint8Array {
  const mask = new Uint8Array(rows * cols);
  for (let x = 0; x < cols; x++) {
    const u = Number.isNaN(upper[x]!) ? -1 : upper[x]!;
    const d = Number.isNaN(lower[x]!) ? rows : lower[x]!;
    for (let y = Math.max(0, Math.floor(u) + 1); y < Math.min(rows, Math.ceil(d)); y++) if (y > u && y < d) mask[y * cols + x] = 1;
  }
  return mask;
}

/** Per-column edges of the raw map, cleaned by a 3-column median; null edges when the map is unstructured. */
export function cleanedBlockadeEdges(data: Float64Array, rows: number, cols: number): BlockadeEdges {
  const edges = findBlockadeEdges(data, rows, cols);
  return { ...edges, upper: medianAlongColumns(edges.upper), lower: medianAlongColumns(edges.lower) };
}

export function segmentCoulombDiamonds(data: Float64Array, rows: number, cols: number): DiamondSegmentation {
  const edges = cleanedBlockadeEdges(data, rows, cols);
  if (!edges.structured) return { mask: new Uint8Array(rows * cols), edges, lattice: null };
  const lattice = fitLatticeToEdges(edges);
  if (!lattice || lattice.medianResidual > LATTICE_MAX_RESIDUAL_PX) return { mask: maskFromEdges(edges.upper, edges.lower, rows, cols), edges, lattice };
  const { upper, lower } = lattice;
  return { mask: maskFromEdges(upper, lower, rows, cols), edges, lattice };
}
