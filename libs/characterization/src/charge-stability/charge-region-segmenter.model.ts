// charge-stability-diagram-segmenter-v0: one region label per stable charge configuration of a charge stability
// diagram, 0 on a 1-px boundary between regions.
// 1. Background: least-squares plane removed, then per-row offsets (median row-to-row difference, summed) so that
//    sensor charge jumps, telegraph and 1/f offsets between fast-axis sweeps do not read as horizontal transitions.
// 2. Boundary evidence in white-noise units (σ from the MAD of fast-axis differences): charge sensing shows
//    transitions as steps between plateaus, so the evidence is the gradient magnitude of the Gaussian-smoothed map
//    minus the map's median (plateau ramp) gradient (Canny, IEEE TPAMI 8, 679 (1986)); direct transport shows them
//    as bright lines, so the evidence is the Hessian ridge strength −λ_min (Lindeberg, IJCV 30, 117 (1998)). The
//    read-out is recognised from the skew of the Laplacian (bright ridges: strongly negative at their crests).
// 3. Local normalisation: the evidence over its local line level (a high quantile within ±16 px, floored in noise
//    units), because line contrast varies over a map (a sensor's sensitivity along its Coulomb-peak flank).
// 3b. Charge lattice (physics prior): in the constant-interaction model the region of charge state (N1 + 1, N2) is
//    that of (N1, N2) translated by u1 = A⁻¹e1 in gate space (u2 = A⁻¹e2 for dot 2; A the lever-arm matrix), so
//    the transition pattern is periodic. u1, u2 are the two strongest non-collinear peaks of the autocorrelation of
//    the normalised evidence (FFT, overlap-normalised, sub-pixel parabolas, Lagrange–Gauss reduced, then least-squares
//    fitted to the peaks at m·u1 + n·u2, |m|, |n| ≤ 3); the evidence is
//    then mostly (latticeWeight) replaced by its mean over the translates m·u1 + n·u2, |m|, |n| ≤ latticeReach. A
//    transition that is faint or invisible in one cell (sensor off its flank, the other family hidden by the
//    sensor's compensation) is filled in from the others, and non-periodic sensor charge-jump streaks are diluted.
//    No peak ≥ LATTICE_MIN_CORRELATION: step skipped. Single dots give a 1-D lattice (averaging along the lines).
// 4. Markers: plateau interiors (normalised evidence < interiorFraction) at least markerDepth px (chamfer distance)
//    from any line pixel, so boundary gaps narrower than about twice that depth do not join two regions; the
//    interior is split at necks by h-maxima of that distance (two convex cells touching through a short, invisible
//    transition such as an interdot line seen by an equally coupled sensor).
// 5. Marker-controlled watershed of the normalised evidence (Meyer, Signal Process. 38, 113 (1994); Beucher & Meyer,
//    Mathematical Morphology in Image Processing (1993), ch. 12): priority flooding, every pixel labelled.
// 6. Region merging: neighbours whose shared watershed line is weak (median normalised evidence < mergeFraction)
//    and long (not a neck) are merged; on sensor maps so are regions whose shared line runs along one row boundary
//    for ≥ rowArtefactPx (a charge jump or telegraph switch, not a transition); then fragments smaller than
//    minRegionArea join the neighbour they share the weakest line with.
// 7. Boundary: of each pair of 4-neighbours with different labels, the pixel of higher evidence (nearer the line)
//    is set to 0, which is how the simulator draws its 1-px transition mask.
// Pure noise and constant maps give one region. Files: steps 1–3 charge-region-evidence.ts, 3b charge-lattice.ts,
// 4–5 charge-region-watershed.ts, parameters charge-region-options.ts (their tuning: docs/models/charge-stability.md).
import { quantile } from '../signal/order-statistics.js';
import { CHARGE_REGION_DEFAULTS, type ChargeRegionOptions } from './charge-region-options.js';
import { boundaryEvidence, localLineLevel } from './charge-region-evidence.js';
import { chargeLattice, latticeAverage, LATTICE_CLIP } from './charge-lattice.js';
import { chamferDistance, distanceMarkers, thresholdMarkers, watershed } from './charge-region-watershed.js';

export { CHARGE_REGION_DEFAULTS, type ChargeRegionOptions } from './charge-region-options.js';

export interface ChargeRegionSegmentation {
  rows: number;
  cols: number;
  /** Region label per pixel (1 … regionCount), 0 on boundaries. */
  labels: Int32Array;
  regionCount: number;
  readout: 'sensor' | 'transport';
  /** Boundary evidence over its local line level (step 3; for plots and diagnostics). */
  evidence: Float64Array;
}

function find(parent: Int32Array, a: number): number {
  while (parent[a] !== a) a = parent[a] = parent[parent[a]!]!;
  return a;
}

/** Shared-line evidence per pair of neighbouring regions: key a·K + b (a < b) → evidence samples. */
function boundaryPairs(labels: Int32Array, evidence: Float64Array, rows: number, cols: number, parent: Int32Array, k: number): Map<number, number[]> {
  const pairs = new Map<number, number[]>();
  const add = (i: number, j: number): void => {
    const a = find(parent, labels[i]!);
    const b = find(parent, labels[j]!);
    if (a === b) return;
    const key = a < b ? a * k + b : b * k + a;
    let list = pairs.get(key);
    if (!list) {
      list = [];
      pairs.set(key, list);
    }
    list.push(Math.max(evidence[i]!, evidence[j]!));
  };
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const i = y * cols + x;
      if (x + 1 < cols) add(i, i + 1);
      if (y + 1 < rows) add(i, i + cols);
    }
  }
  return pairs;
}

/** Per pair of regions a < b (key a·k + b): the most vertical-neighbour crossings on any two adjacent row boundaries. */
function rowBoundaryRuns(labels: Int32Array, rows: number, cols: number, k: number): Map<number, number> {
  const perRow = new Map<number, Int32Array>();
  for (let y = 0; y + 1 < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const a = labels[y * cols + x]!;
      const b = labels[(y + 1) * cols + x]!;
      if (a === b) continue;
      const key = a < b ? a * k + b : b * k + a;
      let counts = perRow.get(key);
      if (!counts) {
        counts = new Int32Array(rows);
        perRow.set(key, counts);
      }
      counts[y]!++;
    }
  }
  const runs = new Map<number, number>();
  for (const [key, counts] of perRow) {
    let best = 0;
    for (let y = 0; y + 1 < rows; y++) best = Math.max(best, counts[y]! + counts[y + 1]!);
    runs.set(key, best);
  }
  return runs;
}

export function segmentChargeRegions(
  data: Float64Array,
  rows: number,
  cols: number,
  options: ChargeRegionOptions = CHARGE_REGION_DEFAULTS,
): ChargeRegionSegmentation {
  const n = rows * cols;
  const { evidence, readout } = boundaryEvidence(data, rows, cols, options);
  // Line strength varies over a map (a sensor's sensitivity along its Coulomb-peak flank): thresholds are set
  // relative to the local line level, which is floored in absolute noise units so that noise is never a line.
  const level = localLineLevel(evidence, rows, cols, readout === 'sensor' ? options.sensorLevelQuantile : options.levelQuantile);
  const relative = new Float64Array(n);
  const floor = readout === 'sensor' ? options.sensorLevelFloor : options.levelFloor;
  for (let i = 0; i < n; i++) relative[i] = evidence[i]! / Math.max(level[i]!, floor);
  const latticeWeight = readout === 'sensor' ? options.sensorLatticeWeight : options.latticeWeight;
  if (latticeWeight > 0) {
    const clipped = relative.map((v) => Math.min(v, LATTICE_CLIP));
    const lattice = chargeLattice(clipped, rows, cols);
    if (lattice) {
      const averaged = latticeAverage(clipped, rows, cols, lattice.u1, lattice.u2, options.latticeReach);
      for (let i = 0; i < n; i++) relative[i] = (1 - latticeWeight) * relative[i]! + latticeWeight * averaged[i]!;
    }
  }
  const interior = new Uint8Array(n);
  for (let i = 0; i < n; i++) interior[i] = relative[i]! < options.interiorFraction ? 1 : 0;
  const distance = chamferDistance(interior, rows, cols);
  let { labels: markers, count } =
    options.markerDynamics > 0
      ? distanceMarkers(distance, rows, cols, options.markerDepth, options.markerDynamics)
      : thresholdMarkers(distance, rows, cols, options.markerDepth);
  if (count === 0) {
    // No plateau interior at all: one marker at the weakest evidence.
    let best = 0;
    for (let i = 1; i < n; i++) if (relative[i]! < relative[best]!) best = i;
    markers = new Int32Array(n);
    markers[best] = 1;
    count = 1;
  }
  const flooded = watershed(relative, markers, rows, cols);

  // Step 5: merge neighbours across weak lines, weakest first (so a merge cannot hide a strong line).
  const k = count + 1;
  const parent = Int32Array.from({ length: k }, (_, i) => i);
  // A short weak line between two large cells is a neck (an invisible short transition), not an over-split.
  const floodedArea = new Int32Array(k);
  for (let i = 0; i < n; i++) floodedArea[flooded[i]!]!++;
  const pairs = [...boundaryPairs(flooded, relative, rows, cols, parent, k)].map(([key, list]) => ({
    a: Math.floor(key / k),
    b: key % k,
    strength: quantile(list, 0.5),
    length: list.length,
  }));
  pairs.sort((p, q) => p.strength - q.strength || p.a - q.a || p.b - q.b);
  // Sensor charge jumps and telegraph switches shift whole stretches of the fast sweep: their edges run along one
  // row boundary for tens of pixels, which no charge transition does (the shallowest lines climb a row every ~12 px).
  const along = readout === 'sensor' && options.rowArtefactPx > 0 ? rowBoundaryRuns(flooded, rows, cols, k) : null;
  for (const p of pairs) {
    const run = along?.get(p.a * k + p.b) ?? 0;
    const artefact = run >= options.rowArtefactPx && run >= 0.5 * p.length;
    if (artefact) {
      const a = find(parent, p.a);
      const b = find(parent, p.b);
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
      continue;
    }
    if (p.strength >= options.mergeFraction) continue;
    if (p.length < options.neckRatio * Math.sqrt(Math.min(floodedArea[p.a]!, floodedArea[p.b]!))) continue;
    const a = find(parent, p.a);
    const b = find(parent, p.b);
    if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
  }
  // Fragments below the minimum area join their weakest-bounded neighbour (repeat until none is left).
  for (let pass = 0; pass < 10; pass++) {
    const area = new Int32Array(k);
    for (let i = 0; i < n; i++) area[find(parent, flooded[i]!)]!++;
    const small = new Set<number>();
    for (let r = 1; r < k; r++) if (find(parent, r) === r && area[r]! > 0 && area[r]! < options.minRegionArea) small.add(r);
    if (!small.size) break;
    const weakest = new Map<number, { other: number; strength: number }>();
    for (const [key, list] of boundaryPairs(flooded, relative, rows, cols, parent, k)) {
      const a = Math.floor(key / k);
      const b = key % k;
      const s = quantile(list, 0.5);
      for (const [r, o] of [
        [a, b],
        [b, a],
      ] as const) {
        if (!small.has(r)) continue;
        const w = weakest.get(r);
        if (!w || s < w.strength || (s === w.strength && o < w.other)) weakest.set(r, { other: o, strength: s });
      }
    }
    if (!weakest.size) break;
    for (const [r, w] of weakest) {
      const a = find(parent, r);
      const b = find(parent, w.other);
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
    }
  }

  // Relabel 1…count in raster order, then draw the 1-px boundary (step 6).
  const labels = new Int32Array(n);
  const renumber = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const root = find(parent, flooded[i]!);
    let id = renumber.get(root);
    if (id === undefined) {
      id = renumber.size + 1;
      renumber.set(root, id);
    }
    labels[i] = id;
  }
  const full = Int32Array.from(labels);
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const i = y * cols + x;
      for (const j of [x + 1 < cols ? i + 1 : -1, y + 1 < rows ? i + cols : -1]) {
        if (j < 0 || full[i] === full[j]) continue;
        labels[relative[i]! >= relative[j]! ? i : j] = 0;
      }
    }
  }
  return { rows, cols, labels, regionCount: renumber.size, readout, evidence: relative };
}
