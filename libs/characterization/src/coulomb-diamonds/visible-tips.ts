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
// Second issue-29 pass: the row scale (90 % quantile of the row, which removes power-law growth) also grows with the
// number of channels open at high bias, so against a reference taken near the diamond's middle rows the tip rows
// looked blockaded too long (tips 4–9 px outward on warm and five-diamond maps). In each tested row the limit is now
// half of that row's own first step, the mean current just outside the diamond's two edge lines (STEP_ROWS beyond
// them in bias: one channel open, same bias so the same growth), when both sides conduct by the diamond-wide test.
// The row's step is at least the sequential current at low bias (FIRST_STEP_QUANTILE of the level within FIRST_STEP_BAND
// of the height around zero bias: only ground-state transitions open, no growth): on warm maps the points STEP_ROWS past
// the edges near a tip are still on the thermal rise (a Fermi step reaches 95 % only 3 kT past its edge).
import type { BlockadeEdges } from './blockade-edges.js';
import type { DiamondVertices, Vertex } from './diamond-score.js';

/** A row is blockaded while its current stays below this fraction of the first step (same as the simulator's label). */
export const VISIBLE_FRACTION = 0.5;
/** The step reference: normalised current this many rows beyond the measured edge, median over the diamond's columns. */
const STEP_ROWS = 3;
/** Low-bias first step: this quantile of the level (all columns) … */
const FIRST_STEP_QUANTILE = 0.95;
/** … over the rows within this fraction of the diamond's height of the zero-bias row (below the excited-state lines, ≥ 0.2 E_C). */
const FIRST_STEP_BAND = 0.25;
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
  /** Median level of row y at 2–4 rows (in bias, along the edge's slope) outside the edge line through xEdge. */
  const sideLevel = (y: number, xEdge: number, dir: -1 | 1, slope: number): number => {
    const v: number[] = [];
    for (let r = STEP_ROWS - 1; r <= STEP_ROWS + 1; r++) {
      const x = Math.round(xEdge + dir * Math.max(1, r / Math.max(slope, 1e-3)));
      if (x >= 0 && x < cols) v.push(level[y * cols + x]!);
    }
    if (v.length === 0) return NaN;
    v.sort((a, b) => a - b);
    return v[Math.floor(v.length / 2)]!;
  };
  /** The sequential current at low bias: FIRST_STEP_QUANTILE of the level within FIRST_STEP_BAND · height of zero bias. */
  const lowBiasFirstStep = (y0: number, height: number): number => {
    const band = Math.max(1, Math.round(FIRST_STEP_BAND * height));
    const v: number[] = [];
    for (let y = Math.max(0, Math.round(y0) - band); y <= Math.min(rows - 1, Math.round(y0) + band); y++)
      for (let x = 0; x < cols; x++) v.push(level[y * cols + x]!);
    v.sort((a, b) => a - b);
    return v[Math.floor(FIRST_STEP_QUANTILE * (v.length - 1))] ?? 0;
  };
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
    const lowBiasStep = lowBiasFirstStep(y0, height);
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
      // The same row's first step: the mean of the levels just outside the two edge lines, STEP_ROWS (in bias)
      // beyond them; used where both sides conduct by the diamond-wide criterion (else the diamond-wide limit).
      const local =
        (sideLevel(y, xl, -1, Math.abs((vertex[1] - left[1]) / (vertex[0] - left[0] || 1e-9))) +
          sideLevel(y, xr, 1, Math.abs((vertex[1] - right[1]) / (vertex[0] - right[0] || 1e-9)))) /
        2;
      const rowStep = Math.max(local, lowBiasStep);
      const rowLimit = Number.isFinite(rowStep) && rowStep / rowLevelScale[y]! > limit ? (VISIBLE_FRACTION * rowStep) / rowLevelScale[y]! : limit;
      if (smallest >= rowLimit) {
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
