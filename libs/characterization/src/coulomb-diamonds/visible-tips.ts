// Top/bottom vertices at the visible end of the blockade (issue 29). The fitted edge lines of a diamond meet at the
// T = 0 vertex, but near that tip the diamond is narrower than the thermal (≈ kT/λ columns) or lifetime smearing of
// its two edges, so the tip fills with current: where the margin of both leads is ε at the diamond's centre line,
// the current is ≈ f(−ε) of the step (Fermi or Lorentzian tail; Beenakker, Phys. Rev. B 44, 1646 (1991)), and the
// blockade visibly ends ≈ 2–4 kT (in bias) before the line intersection. On warm maps (kT/E_C 0.02–0.08) that is
// 5–16 px of a 128-row map, the bias a person sees on a linear-current plot.
// Method: along the diamond, from the zero-bias row outward, each row's blockade interval between the two fitted
// edge lines; the row is still blockaded while the smallest growth-normalised current (|I − offset| / the row's
// scale) over the interval's columns is below VISIBLE_FRACTION of the diamond's first step (the median normalised
// current STEP_ROWS rows beyond its measured edges). The tip moves to where that first fails (linear interpolation
// between the last blockaded and first conducting row, x on the interval's centre), never beyond the fitted vertex.
// Current read-out only (a conductance map shows the edges as lines that meet at the vertex).
import type { BlockadeEdges } from './blockade-edges.js';
import type { DiamondVertices, Vertex } from './diamond-score.js';

/** A row is blockaded while its current stays below this fraction of the first step (same as the simulator's label). */
export const VISIBLE_FRACTION = 0.5;
/** The step reference: normalised current this many rows beyond the measured edge, median over the diamond's columns. */
const STEP_ROWS = 3;
/** Rows within this many of the zero-bias row are not tested (the degeneracy region). */
const START_FRACTION = 0.3;

function lineX(p: Vertex, q: Vertex, y: number): number {
  return q[1] === p[1] ? (p[0] + q[0]) / 2 : p[0] + ((y - p[1]) * (q[0] - p[0])) / (q[1] - p[1]);
}

export function visibleTips(d: DiamondVertices, edges: BlockadeEdges): DiamondVertices {
  if (edges.readout !== 'current') return d;
  const { rows, cols, level, rowLevelScale, upper, lower } = edges;
  const [left, top, right, bottom] = d;
  const norm = (x: number, y: number): number => level[y * cols + x]! / rowLevelScale[y]!;
  const tip = (vertex: Vertex, measured: Float64Array, side: -1 | 1): Vertex => {
    const y0 = (left[1] + right[1]) / 2;
    const height = side * (vertex[1] - y0);
    if (!(height > 4)) return vertex;
    // First-step reference.
    const refs: number[] = [];
    for (let x = Math.ceil(left[0]); x <= Math.floor(right[0]); x++) {
      const e = measured[x];
      if (e === undefined || Number.isNaN(e)) continue;
      const y = Math.round(e) + side * STEP_ROWS;
      if (y >= 0 && y < rows) refs.push(norm(x, y));
    }
    if (refs.length < 3) return vertex;
    refs.sort((a, b) => a - b);
    const step = refs[Math.floor(refs.length / 2)]!;
    if (!(step > 0)) return vertex;
    const limit = VISIBLE_FRACTION * step;
    let previous = -Infinity;
    const start = Math.round(y0 + side * START_FRACTION * height);
    for (let y = start; side * (y - vertex[1]) <= 0; y += side) {
      if (y < 0 || y >= rows) return vertex;
      const xl = lineX(left, vertex, y);
      const xr = lineX(right, vertex, y);
      const centre = Math.round((xl + xr) / 2);
      // The interval's centre column (the widest margin of both leads), or the smallest value within the interval when it is wider than 3 columns.
      let smallest = centre >= 0 && centre < cols ? norm(centre, y) : Infinity;
      if (xr - xl > 3) for (let x = Math.max(0, Math.round(xl)); x <= Math.min(cols - 1, Math.round(xr)); x++) smallest = Math.min(smallest, norm(x, y));
      if (smallest >= limit) {
        // Between the last blockaded row (y − side, value `previous`) and this one.
        const t = Number.isFinite(previous) ? Math.max(0, Math.min(1, (limit - previous) / Math.max(smallest - previous, Number.MIN_VALUE))) : 0;
        const yTip = y - side + side * t;
        if (side * (yTip - vertex[1]) >= 0) return vertex;
        return [(lineX(left, vertex, yTip) + lineX(right, vertex, yTip)) / 2, yTip];
      }
      previous = smallest;
    }
    return vertex;
  };
  return [left, tip(top, upper, -1), right, tip(bottom, lower, 1)];
}
