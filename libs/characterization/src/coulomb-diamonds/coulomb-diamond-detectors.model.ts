// coulomb-diamond-detector-v0 … v2: vertices of Coulomb diamonds (axis 0 = bias, axis 1 = gate).
// - v0: from a binary blockade mask: components split at degeneracy necks, one parallelogram fit per diamond
//   (diamond-mask-vertices.ts).
// - v1: from the raw map: the v0-segmenter's mask (conductance-peak edges per column, blockade-edges.ts), then the
//   v0 fit per diamond.
// - v2: from the raw map: one global lattice fit of all edges (shared zero-bias row and slopes, diamonds touching at
//   the degeneracy points; diamond-lattice-fit.ts), which averages the noise over the whole map; also reports the
//   charging energy (bias half-height, rows) and lever arm (charging energy / gate width, rows per column) of each
//   diamond. Constant-interaction geometry as in Kouwenhoven et al., NATO ASI E 345 (1997), Sec. 2.3.
// Only diamonds whose four vertices lie inside the window are reported.
import { diamondsFromMask } from './diamond-mask-vertices.js';
import type { DiamondVertices } from './diamond-score.js';
import { segmentCoulombDiamonds } from './coulomb-diamond-segmenter.model.js';
import { fitDiamondLattice, latticeDiamond, latticeLeverArm, type DiamondLattice } from './diamond-lattice-fit.js';

export interface DiamondDetection {
  diamonds: DiamondVertices[];
}

export interface DiamondDetectionV2 extends DiamondDetection {
  chargingEnergies: number[];
  leverArms: number[];
  lattice: DiamondLattice | null;
}

/** Interval heights below this fraction of the largest (or 2.5 px) mark a degeneracy point. */
const DEGENERACY_HEIGHT_FRACTION = 0.15;
/** A lattice diamond is reported only if this fraction of its columns carries fitted edge points. */
const MIN_SUPPORT = 0.5;

export function detectDiamondsInMask(mask: ArrayLike<number>, rows: number, cols: number): DiamondDetection {
  return { diamonds: diamondsFromMask(mask, rows, cols).map((d) => d.vertices) };
}

export function detectDiamondsV1(data: Float64Array, rows: number, cols: number): DiamondDetection {
  const { mask } = segmentCoulombDiamonds(data, rows, cols);
  return detectDiamondsInMask(mask, rows, cols);
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[s.length >> 1]! : NaN;
}

const roundVertex = (d: DiamondVertices): DiamondVertices => d.map((v) => [Math.round(v[0] * 100) / 100, Math.round(v[1] * 100) / 100]) as DiamondVertices;

export function detectDiamondsV2(data: Float64Array, rows: number, cols: number): DiamondDetectionV2 {
  const nothing: DiamondDetectionV2 = { diamonds: [], chargingEnergies: [], leverArms: [], lattice: null };
  const { mask, edges } = segmentCoulombDiamonds(data, rows, cols);
  if (!edges.structured) return nothing;
  const { upper, lower } = edges;

  // Degeneracy points: runs of columns where the blockade interval closes.
  const heights = Array.from({ length: cols }, (_, x) => (Number.isNaN(upper[x]!) || Number.isNaN(lower[x]!) ? rows : lower[x]! - upper[x]!));
  const threshold = Math.max(2.5, DEGENERACY_HEIGHT_FRACTION * Math.max(...heights.filter((h) => h < rows), 0));
  const degeneracy: number[] = [];
  for (let x = 0; x < cols; ) {
    if (heights[x]! > threshold) {
      x++;
      continue;
    }
    let end = x;
    while (end + 1 < cols && heights[end + 1]! <= threshold) end++;
    degeneracy.push((x + end) / 2);
    x = end + 1;
  }

  // Slopes from the per-diamond mask fits (v1); fall back to 45°.
  const local = diamondsFromMask(mask, rows, cols);
  let slopeA = local.length ? median(local.map((d) => d.slopeA)) : 1;
  let slopeC = local.length ? median(local.map((d) => d.slopeC)) : 1;
  const maxHeight = Math.max(...heights.filter((h) => h < rows), 1);
  let spacing = degeneracy.length >= 2 ? median(degeneracy.slice(1).map((x, k) => x - degeneracy[k]!)) : (maxHeight / 2) * (1 / slopeA + 1 / slopeC);
  if (!(spacing > 2)) spacing = cols / 3;
  if (degeneracy.length === 0) degeneracy.push(cols / 2);
  while (degeneracy[0]! > -0.5) degeneracy.unshift(degeneracy[0]! - spacing);
  while (degeneracy[degeneracy.length - 1]! < cols - 0.5) degeneracy.push(degeneracy[degeneracy.length - 1]! + spacing);

  const lattice = fitDiamondLattice(upper, lower, { zeroBiasRow: edges.zeroBiasRow, slopeA, slopeC, degeneracy });
  slopeA = lattice.slopeA;
  slopeC = lattice.slopeC;
  const lever = latticeLeverArm(lattice);
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
    result.diamonds.push(roundVertex(vertices));
    result.chargingEnergies.push(Math.round(lever * width * 1000) / 1000);
    result.leverArms.push(Math.round(lever * 1e4) / 1e4);
  }
  return result;
}
