// coulomb-diamond-segmenter-v0: blockade mask of a Coulomb-diamond map (axis 0 = bias, axis 1 = gate), 1 inside
// the diamonds. Per gate column the blockade is the bias interval around zero bias bounded by the first
// conductance peak on each side (orthodox theory: the peak of dI/dV_b is the T = 0 edge; Kouwenhoven et al.,
// NATO ASI E 345 (1997), Sec. 2.3), found by blockade-edges.ts; the edges are cleaned by a 3-column median.
// Pure noise (no strong conductance edges in STRUCTURE_FRACTION of the columns) gives an empty mask.
import { findBlockadeEdges, medianAlongColumns, type BlockadeEdges } from './blockade-edges.js';

export interface DiamondSegmentation {
  mask: Uint8Array;
  edges: BlockadeEdges;
}

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

export function segmentCoulombDiamonds(data: Float64Array, rows: number, cols: number): DiamondSegmentation {
  const edges = findBlockadeEdges(data, rows, cols);
  if (!edges.structured) return { mask: new Uint8Array(rows * cols), edges };
  const upper = medianAlongColumns(edges.upper);
  const lower = medianAlongColumns(edges.lower);
  return { mask: maskFromEdges(upper, lower, rows, cols), edges: { ...edges, upper, lower } };
}
