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
// Pure noise and constant maps give one region. Parameters tuned on TUNING seeds 101–580 (v0 before the lattice
// step), the lattice step and the thresholds after it on seeds 101–190, checked on 191–340 (see the spec).
import { gaussianBlur } from './gaussian-blur.js';
import { selectInPlace } from '../signal/order-statistics.js';

export interface ChargeRegionOptions {
  /** Gaussian smoothing σ before the evidence, px: transport maps (and the read-out test) / charge-sensor maps. */
  smoothing: number;
  sensorSmoothing: number;
  /** Markers lie at least this far (px) inside the plateau interior. */
  markerDepth: number;
  /** Markers split where two interior distance peaks rise this far (px) above their saddle; 0 = plain components. */
  markerDynamics: number;
  /** Smallest region kept, px. */
  minRegionArea: number;
  /** Interior below, and merge across lines below, these fractions of the local line level. */
  interiorFraction: number;
  mergeFraction: number;
  /** Quantile of the evidence within ±LEVEL_REACH px taken as the local line level (transport / sensor). */
  levelQuantile: number;
  sensorLevelQuantile: number;
  /** Floor of the local line level, white-noise units (so that noise alone never reads as a line; transport / sensor). */
  levelFloor: number;
  sensorLevelFloor: number;
  /** Two regions are not merged across a weak line shorter than this multiple of the smaller one's √area (a neck). */
  neckRatio: number;
  /** Sensor: a shared line that runs this many px along one row boundary is an acquisition artefact; 0 = off. */
  rowArtefactPx: number;
  /** Weight of the lattice-averaged evidence (translates by the charge-lattice periods), 0 = off; per read-out. */
  latticeWeight: number;
  sensorLatticeWeight: number;
  /** Lattice translates m·u1 + n·u2 with |m|, |n| ≤ latticeReach are averaged. */
  latticeReach: number;
}

export const CHARGE_REGION_DEFAULTS: ChargeRegionOptions = {
  smoothing: 1.5,
  sensorSmoothing: 1,
  markerDepth: 2,
  markerDynamics: 1.5,
  minRegionArea: 40,
  interiorFraction: 0.4,
  mergeFraction: 0.15,
  levelQuantile: 0.9,
  sensorLevelQuantile: 0.95,
  levelFloor: 6,
  sensorLevelFloor: 8,
  neckRatio: 1,
  rowArtefactPx: 16,
  latticeWeight: 0.8,
  sensorLatticeWeight: 0.9,
  latticeReach: 2,
};

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

function quantileOf(values: ArrayLike<number>, q: number): number {
  const scratch = Float64Array.from(values);
  return selectInPlace(scratch, scratch.length, Math.min(scratch.length - 1, Math.max(0, Math.floor(q * (scratch.length - 1)))));
}

/** Plane- and row-offset-free copy of the map (step 1). */
function flattenMap(data: Float64Array, rows: number, cols: number): Float64Array {
  const out = new Float64Array(rows * cols);
  const cx = (cols - 1) / 2;
  const cy = (rows - 1) / 2;
  let sum = 0;
  let sx = 0;
  let sy = 0;
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const v = data[y * cols + x]!;
      sum += v;
      sx += v * (x - cx);
      sy += v * (y - cy);
    }
  }
  let sxx = 0;
  let syy = 0;
  for (let x = 0; x < cols; x++) sxx += (x - cx) ** 2;
  for (let y = 0; y < rows; y++) syy += (y - cy) ** 2;
  const mean = sum / (rows * cols);
  const ax = sx / (sxx * rows || 1);
  const ay = sy / (syy * cols || 1);
  for (let y = 0; y < rows; y++) for (let x = 0; x < cols; x++) out[y * cols + x] = data[y * cols + x]! - mean - ax * (x - cx) - ay * (y - cy);
  // Row offsets: a transition crosses a pair of rows in few columns, an offset shifts all of them.
  const diff = new Float64Array(cols);
  let offset = 0;
  const offsets = new Float64Array(rows);
  for (let y = 1; y < rows; y++) {
    for (let x = 0; x < cols; x++) diff[x] = out[y * cols + x]! - out[(y - 1) * cols + x]!;
    offset += quantileOf(diff, 0.5);
    offsets[y] = offset;
  }
  let offsetMean = 0;
  for (let y = 0; y < rows; y++) offsetMean += offsets[y]! / rows;
  for (let y = 0; y < rows; y++) for (let x = 0; x < cols; x++) out[y * cols + x] = out[y * cols + x]! - offsets[y]! + offsetMean;
  return out;
}

/** Transport lines are bright ridges: the Laplacian is strongly negative on them and only mildly positive beside them; steps give a symmetric Laplacian. */
export const TRANSPORT_LAPLACIAN_SKEW = -0.2;

function laplacianSkew(smooth: Float64Array, rows: number, cols: number): number {
  const values: number[] = [];
  for (let y = 1; y < rows - 1; y++) {
    for (let x = 1; x < cols - 1; x++) {
      const i = y * cols + x;
      values.push(smooth[i - 1]! + smooth[i + 1]! + smooth[i - cols]! + smooth[i + cols]! - 4 * smooth[i]!);
    }
  }
  const lo = quantileOf(values, 0.005);
  const mid = quantileOf(values, 0.5);
  const hi = quantileOf(values, 0.995);
  return hi > lo ? (hi + lo - 2 * mid) / (hi - lo) : 0;
}

/** White-noise σ from the median absolute difference of fast-axis neighbours (transitions touch few pairs). */
function whiteNoiseSigma(flat: Float64Array, rows: number, cols: number): number {
  const diffs: number[] = [];
  for (let y = 0; y < rows; y++) for (let x = 1; x < cols; x++) diffs.push(Math.abs(flat[y * cols + x]! - flat[y * cols + x - 1]!));
  return (1.4826 * quantileOf(diffs, 0.5)) / Math.SQRT2;
}

/** Step 2: evidence in noise units and the read-out. */
export function boundaryEvidence(data: Float64Array, rows: number, cols: number, options: ChargeRegionOptions = CHARGE_REGION_DEFAULTS): { evidence: Float64Array; readout: 'sensor' | 'transport' } {
  const n = rows * cols;
  const flat = flattenMap(data, rows, cols);
  const sigma = Math.max(whiteNoiseSigma(flat, rows, cols), 1e-300);
  let smooth = gaussianBlur(flat, rows, cols, options.smoothing);
  const transport = laplacianSkew(smooth, rows, cols) < TRANSPORT_LAPLACIAN_SKEW;
  // Steps are sharper than thermally broadened transport lines: less smoothing keeps adjacent steps apart.
  const sigmaS = transport ? options.smoothing : options.sensorSmoothing;
  if (sigmaS !== options.smoothing) smooth = gaussianBlur(flat, rows, cols, sigmaS);
  const evidence = new Float64Array(n);
  const s2 = sigmaS * sigmaS;
  if (transport) {
    // Ridge strength −λ_min of the Hessian (Lindeberg, IJCV 30, 117 (1998)): bright lines stand out whatever the
    // current floor; second derivatives of smoothed white noise have σ·√(3/(16π)) / σ_s³.
    const scale = (sigma * Math.sqrt(3 / (16 * Math.PI))) / (s2 * sigmaS);
    for (let y = 0; y < rows; y++) {
      for (let x = 0; x < cols; x++) {
        const i = y * cols + x;
        const xm1 = Math.max(0, x - 1);
        const xp1 = Math.min(cols - 1, x + 1);
        const ym1 = Math.max(0, y - 1);
        const yp1 = Math.min(rows - 1, y + 1);
        const hxx = smooth[y * cols + xp1]! - 2 * smooth[i]! + smooth[y * cols + xm1]!;
        const hyy = smooth[yp1 * cols + x]! - 2 * smooth[i]! + smooth[ym1 * cols + x]!;
        const hxy = 0.25 * (smooth[yp1 * cols + xp1]! - smooth[yp1 * cols + xm1]! - smooth[ym1 * cols + xp1]! + smooth[ym1 * cols + xm1]!);
        const lambda = 0.5 * (hxx + hyy) - Math.sqrt(0.25 * (hxx - hyy) ** 2 + hxy * hxy);
        evidence[i] = lambda < 0 ? -lambda / scale : 0;
      }
    }
  } else {
    // One gradient component of Gaussian-smoothed white noise has σ / (σ_s² √(8π)).
    // The plateaus are ramps (the sensor's residual gate cross-talk): the typical (median) gradient is removed so
    // that only steps remain.
    const scale = sigma / (s2 * Math.sqrt(8 * Math.PI));
    const gx = new Float64Array(n);
    const gy = new Float64Array(n);
    for (let y = 0; y < rows; y++) {
      for (let x = 0; x < cols; x++) {
        gx[y * cols + x] = 0.5 * (smooth[y * cols + Math.min(cols - 1, x + 1)]! - smooth[y * cols + Math.max(0, x - 1)]!);
        gy[y * cols + x] = 0.5 * (smooth[Math.min(rows - 1, y + 1) * cols + x]! - smooth[Math.max(0, y - 1) * cols + x]!);
      }
    }
    const rampX = quantileOf(gx, 0.5);
    const rampY = quantileOf(gy, 0.5);
    for (let i = 0; i < n; i++) evidence[i] = Math.hypot(gx[i]! - rampX, gy[i]! - rampY) / scale;
  }
  return { evidence, readout: transport ? 'transport' : 'sensor' };
}

/** Chamfer (3-4) distance, in px, from every pixel to the nearest pixel outside `inside`; the window border is not an edge. */
function chamferDistance(inside: Uint8Array, rows: number, cols: number): Float64Array {
  const big = 1e9;
  const d = new Float64Array(rows * cols);
  for (let i = 0; i < d.length; i++) d[i] = inside[i] ? big : 0;
  const relax = (i: number, y: number, x: number, w: number): void => {
    if (y < 0 || y >= rows || x < 0 || x >= cols) return;
    const v = d[y * cols + x]! + w;
    if (v < d[i]!) d[i] = v;
  };
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const i = y * cols + x;
      if (!d[i]) continue;
      relax(i, y, x - 1, 3);
      relax(i, y - 1, x, 3);
      relax(i, y - 1, x - 1, 4);
      relax(i, y - 1, x + 1, 4);
    }
  }
  for (let y = rows - 1; y >= 0; y--) {
    for (let x = cols - 1; x >= 0; x--) {
      const i = y * cols + x;
      if (!d[i]) continue;
      relax(i, y, x + 1, 3);
      relax(i, y + 1, x, 3);
      relax(i, y + 1, x + 1, 4);
      relax(i, y + 1, x - 1, 4);
    }
  }
  for (let i = 0; i < d.length; i++) d[i] = d[i]! >= big ? Infinity : d[i]! / 3;
  return d;
}

function thresholdMarkers(distance: Float64Array, rows: number, cols: number, depth: number): { labels: Int32Array; count: number } {
  const core = new Uint8Array(rows * cols);
  for (let i = 0; i < core.length; i++) core[i] = distance[i]! >= depth ? 1 : 0;
  return components(core, rows, cols);
}

/**
 * Markers split at necks: the plateau interior (distance ≥ depth) is flooded from its distance maxima downwards and
 * two basins stay apart where both peaks rise ≥ `dynamics` px above the saddle (h-maxima, Soille, Morphological Image
 * Analysis (2003), Sec. 6.3.4): two charge states joined only through an invisible short transition (e.g. an
 * interdot line seen by an equally coupled sensor) are two convex cells touching at a neck.
 */
function distanceMarkers(distance: Float64Array, rows: number, cols: number, depth: number, dynamics: number): { labels: Int32Array; count: number } {
  const n = rows * cols;
  const order: number[] = [];
  for (let i = 0; i < n; i++) if (distance[i]! >= depth) order.push(i);
  order.sort((a, b) => distance[b]! - distance[a]! || a - b);
  const basin = new Int32Array(n);
  const parent: number[] = [0];
  const peak: number[] = [0];
  const root = (c: number): number => {
    while (parent[c] !== c) c = parent[c] = parent[parent[c]!]!;
    return c;
  };
  const seen: number[] = [];
  for (const p of order) {
    const y = Math.floor(p / cols);
    const x = p - y * cols;
    seen.length = 0;
    for (const [dy, dx] of [[0, -1], [0, 1], [-1, 0], [1, 0]] as const) {
      const yy = y + dy;
      const xx = x + dx;
      if (yy < 0 || yy >= rows || xx < 0 || xx >= cols) continue;
      const c = basin[yy * cols + xx]!;
      if (c > 0) {
        const r = root(c);
        if (!seen.includes(r)) seen.push(r);
      }
    }
    if (!seen.length) {
      parent.push(parent.length);
      peak.push(distance[p]!);
      basin[p] = parent.length - 1;
      continue;
    }
    seen.sort((a, b) => peak[b]! - peak[a]! || a - b);
    const level = distance[p]!;
    const keep = seen.filter((r, k) => k === 0 || peak[r]! - level >= dynamics);
    for (const r of seen) if (!keep.includes(r)) parent[r] = keep[0]!;
    if (keep.length === 1) basin[p] = keep[0]!;
  }
  const labels = new Int32Array(n);
  const ids = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    if (!basin[i]) continue;
    const r = root(basin[i]!);
    let id = ids.get(r);
    if (id === undefined) ids.set(r, (id = ids.size + 1));
    labels[i] = id;
  }
  return { labels, count: ids.size };
}

/** 4-connected components of `mask`; labels 1…count, 0 outside. */
function components(mask: Uint8Array, rows: number, cols: number): { labels: Int32Array; count: number } {
  const labels = new Int32Array(rows * cols);
  let count = 0;
  const stack: number[] = [];
  for (let s = 0; s < mask.length; s++) {
    if (!mask[s] || labels[s]) continue;
    labels[s] = ++count;
    stack.push(s);
    while (stack.length) {
      const j = stack.pop()!;
      const y = Math.floor(j / cols);
      const x = j - y * cols;
      if (x > 0 && mask[j - 1] && !labels[j - 1]) stack.push(j - 1), (labels[j - 1] = count);
      if (x < cols - 1 && mask[j + 1] && !labels[j + 1]) stack.push(j + 1), (labels[j + 1] = count);
      if (y > 0 && mask[j - cols] && !labels[j - cols]) stack.push(j - cols), (labels[j - cols] = count);
      if (y < rows - 1 && mask[j + cols] && !labels[j + cols]) stack.push(j + cols), (labels[j + cols] = count);
    }
  }
  return { labels, count };
}

/** Binary min-heap of pixel indices keyed by evidence (ties: insertion order, for determinism). */
class PixelQueue {
  private keys: number[] = [];
  private items: number[] = [];
  private orders: number[] = [];
  private counter = 0;
  get size(): number {
    return this.items.length;
  }
  private less(a: number, b: number): boolean {
    return this.keys[a]! < this.keys[b]! || (this.keys[a] === this.keys[b] && this.orders[a]! < this.orders[b]!);
  }
  private swap(a: number, b: number): void {
    [this.keys[a], this.keys[b]] = [this.keys[b]!, this.keys[a]!];
    [this.items[a], this.items[b]] = [this.items[b]!, this.items[a]!];
    [this.orders[a], this.orders[b]] = [this.orders[b]!, this.orders[a]!];
  }
  push(item: number, key: number): void {
    this.keys.push(key);
    this.items.push(item);
    this.orders.push(this.counter++);
    let i = this.items.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }
  pop(): number {
    const top = this.items[0]!;
    const last = this.items.length - 1;
    this.swap(0, last);
    this.keys.pop();
    this.items.pop();
    this.orders.pop();
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.items.length && this.less(l, m)) m = l;
      if (r < this.items.length && this.less(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
    return top;
  }
}

/** Step 4: every pixel takes the label of the marker whose flood reaches it first (lowest evidence first). */
function watershed(evidence: Float64Array, markers: Int32Array, rows: number, cols: number): Int32Array {
  const labels = Int32Array.from(markers);
  const queue = new PixelQueue();
  const queued = new Uint8Array(rows * cols);
  const visit = (j: number, from: number): void => {
    if (labels[j] || queued[j]) return;
    queued[j] = 1;
    labels[j] = -labels[from]!;
    queue.push(j, evidence[j]!);
  };
  const spread = (i: number): void => {
    const y = Math.floor(i / cols);
    const x = i - y * cols;
    if (x > 0) visit(i - 1, i);
    if (x < cols - 1) visit(i + 1, i);
    if (y > 0) visit(i - cols, i);
    if (y < rows - 1) visit(i + cols, i);
  };
  for (let i = 0; i < labels.length; i++) if (labels[i]! > 0) spread(i);
  while (queue.size) {
    const i = queue.pop();
    labels[i] = -labels[i]!;
    spread(i);
  }
  return labels;
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
    if (!list) pairs.set(key, (list = []));
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

const median = (values: number[]): number => quantileOf(values, 0.5);

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
      if (!counts) perRow.set(key, (counts = new Int32Array(rows)));
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

/** Blocks of this size (px) carry one local line level, a quantile of the evidence within ±LEVEL_REACH px. */
const LEVEL_BLOCK = 8;
const LEVEL_REACH = 16;

/** Local line level, bilinear between block centres. */
function localLineLevel(evidence: Float64Array, rows: number, cols: number, levelQuantile: number): Float64Array {
  const by = Math.ceil(rows / LEVEL_BLOCK);
  const bx = Math.ceil(cols / LEVEL_BLOCK);
  const grid = new Float64Array(by * bx);
  const centre = (b: number, size: number): number => Math.min(size - 1, (b + 0.5) * LEVEL_BLOCK);
  const values = new Float64Array(4 * (LEVEL_REACH + 1) * (LEVEL_REACH + 1));
  for (let j = 0; j < by; j++) {
    for (let i = 0; i < bx; i++) {
      const cy = centre(j, rows);
      const cx = centre(i, cols);
      let count = 0;
      for (let y = Math.max(0, Math.floor(cy - LEVEL_REACH)); y < Math.min(rows, Math.ceil(cy + LEVEL_REACH)); y++) {
        for (let x = Math.max(0, Math.floor(cx - LEVEL_REACH)); x < Math.min(cols, Math.ceil(cx + LEVEL_REACH)); x++) values[count++] = evidence[y * cols + x]!;
      }
      grid[j * bx + i] = selectInPlace(values, count, Math.min(count - 1, Math.max(0, Math.floor(levelQuantile * (count - 1)))));
    }
  }
  const out = new Float64Array(rows * cols);
  for (let y = 0; y < rows; y++) {
    const fy = Math.min(by - 1, Math.max(0, (y + 0.5) / LEVEL_BLOCK - 0.5));
    const j0 = Math.floor(fy);
    const j1 = Math.min(by - 1, j0 + 1);
    const ty = fy - j0;
    for (let x = 0; x < cols; x++) {
      const fx = Math.min(bx - 1, Math.max(0, (x + 0.5) / LEVEL_BLOCK - 0.5));
      const i0 = Math.floor(fx);
      const i1 = Math.min(bx - 1, i0 + 1);
      const tx = fx - i0;
      out[y * cols + x] = (1 - ty) * ((1 - tx) * grid[j0 * bx + i0]! + tx * grid[j0 * bx + i1]!) + ty * ((1 - tx) * grid[j1 * bx + i0]! + tx * grid[j1 * bx + i1]!);
    }
  }
  return out;
}


/** In-place iterative radix-2 complex FFT of length re.length (a power of 2; cos/sin tables of that length); inverse without the 1/n factor. */
function fft1(re: Float64Array, im: Float64Array, cos: Float64Array, sin: Float64Array, inverse: boolean): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      const tr = re[i]!;
      re[i] = re[j]!;
      re[j] = tr;
      const ti = im[i]!;
      im[i] = im[j]!;
      im[j] = ti;
    }
  }
  const sign = inverse ? 1 : -1;
  for (let len = 2; len <= n; len <<= 1) {
    const half = len >> 1;
    const step = n / len;
    for (let i = 0; i < n; i += len) {
      for (let k = 0; k < half; k++) {
        const cr = cos[k * step]!;
        const ci = sign * sin[k * step]!;
        const a = i + k;
        const b = a + half;
        const tr = re[b]! * cr - im[b]! * ci;
        const ti = re[b]! * ci + im[b]! * cr;
        re[b] = re[a]! - tr;
        im[b] = im[a]! - ti;
        re[a] = re[a]! + tr;
        im[a] = im[a]! + ti;
      }
    }
  }
}

/** 2-D FFT of a size × size array; only rows in `rowsIn` are transformed first (the others are zero) and only rows in `rowsOut` are transformed last. */
function fft2(re: Float64Array, im: Float64Array, size: number, inverse: boolean, rowsIn: (y: number) => boolean, rowsOut: (y: number) => boolean): void {
  const cos = new Float64Array(size);
  const sin = new Float64Array(size);
  for (let k = 0; k < size; k++) {
    cos[k] = Math.cos((2 * Math.PI * k) / size);
    sin[k] = Math.sin((2 * Math.PI * k) / size);
  }
  const r = new Float64Array(size);
  const i = new Float64Array(size);
  const rowPass = (keep: (y: number) => boolean): void => {
    for (let y = 0; y < size; y++) {
      if (!keep(y)) continue;
      r.set(re.subarray(y * size, (y + 1) * size));
      i.set(im.subarray(y * size, (y + 1) * size));
      fft1(r, i, cos, sin, inverse);
      re.set(r, y * size);
      im.set(i, y * size);
    }
  };
  if (!inverse) rowPass(rowsIn);
  for (let x = 0; x < size; x++) {
    for (let y = 0; y < size; y++) {
      r[y] = re[y * size + x]!;
      i[y] = im[y * size + x]!;
    }
    fft1(r, i, cos, sin, inverse);
    for (let y = 0; y < size; y++) {
      re[y * size + x] = r[y]!;
      im[y * size + x] = i[y]!;
    }
  }
  if (inverse) rowPass(rowsOut);
}

/** Shortest periods searched, px, and the normalised autocorrelation a lattice peak must reach. */
const LATTICE_MIN_PERIOD = 5;
export const LATTICE_MIN_CORRELATION = 0.25;
/** Normalised evidence is clipped here before the autocorrelation and the mean, so one very strong line or streak does not dominate. */
const LATTICE_CLIP = 1.5;
/** Lattice points m·u1 + n·u2 with |m|, |n| ≤ this many periods enter the least-squares fit of the periods. */
const LATTICE_FIT_REACH = 3;

/**
 * Charge lattice of the map: in the constant-interaction model the charge state (N1 + 1, N2) occupies the region of
 * (N1, N2) translated by u1 = A⁻¹e1 in gate space (and u2 = A⁻¹e2 for dot 2), so the transition pattern is periodic.
 * The two periods are the two strongest non-collinear peaks of the (overlap-normalised) autocorrelation of the
 * clipped evidence, refined to sub-pixel by parabolas and reduced (Lagrange–Gauss) to a short basis, then fitted by
 * least squares to the peaks near m·u1 + n·u2. Null when no peak reaches LATTICE_MIN_CORRELATION.
 */
export function chargeLattice(values: Float64Array, rows: number, cols: number): { u1: [number, number]; u2: [number, number] | null; correlation: number } | null {
  let size = 1;
  while (size < 2 * Math.max(rows, cols)) size <<= 1;
  const re = new Float64Array(size * size);
  const im = new Float64Array(size * size);
  let mean = 0;
  for (let i = 0; i < rows * cols; i++) mean += values[i]! / (rows * cols);
  for (let y = 0; y < rows; y++) for (let x = 0; x < cols; x++) re[y * size + x] = values[y * cols + x]! - mean;
  fft2(re, im, size, false, (y) => y < rows, () => true);
  for (let i = 0; i < re.length; i++) {
    re[i] = re[i]! * re[i]! + im[i]! * im[i]!;
    im[i] = 0;
  }
  fft2(re, im, size, true, () => true, (y) => y <= rows >> 1 || y >= size - (rows >> 1));
  const zero = re[0]! / (size * size) / (rows * cols);
  if (!(zero > 0)) return null;
  const reachX = cols >> 1;
  const reachY = rows >> 1;
  const w = 2 * reachX + 1;
  const corr = new Float64Array(w * (2 * reachY + 1));
  for (let dy = -reachY; dy <= reachY; dy++) {
    for (let dx = -reachX; dx <= reachX; dx++) {
      const v = re[((dy + size) % size) * size + ((dx + size) % size)]! / (size * size);
      corr[(dy + reachY) * w + dx + reachX] = v / ((rows - Math.abs(dy)) * (cols - Math.abs(dx))) / zero;
    }
  }
  const at = (dx: number, dy: number): number => corr[(dy + reachY) * w + dx + reachX]!;
  const peaks: { dx: number; dy: number; v: number }[] = [];
  for (let dy = 0; dy < reachY; dy++) {
    for (let dx = -reachX + 1; dx < reachX; dx++) {
      if (dy === 0 && dx <= 0) continue;
      if (dx * dx + dy * dy < LATTICE_MIN_PERIOD * LATTICE_MIN_PERIOD) continue;
      const v = at(dx, dy);
      let max = true;
      for (let j = -1; j <= 1 && max; j++) for (let i = -1; i <= 1; i++) if ((i || j) && at(dx + i, dy + j) > v) max = false;
      if (max) peaks.push({ dx, dy, v });
    }
  }
  peaks.sort((a, b) => b.v - a.v);
  const first = peaks[0];
  if (!first || first.v < LATTICE_MIN_CORRELATION) return null;
  const refine = (p: { dx: number; dy: number }): [number, number] => {
    const para = (m: number, c: number, q: number): number => (m - 2 * c + q < 0 ? (0.5 * (m - q)) / (m - 2 * c + q) : 0);
    const c = at(p.dx, p.dy);
    const ox = Math.abs(p.dx) < reachX ? para(at(p.dx - 1, p.dy), c, at(p.dx + 1, p.dy)) : 0;
    const oy = p.dy > -reachY && p.dy < reachY ? para(at(p.dx, p.dy - 1), c, at(p.dx, p.dy + 1)) : 0;
    return [p.dx + Math.max(-0.5, Math.min(0.5, ox)), p.dy + Math.max(-0.5, Math.min(0.5, oy))];
  };
  let u1 = refine(first);
  const second = peaks.find((p) => p !== first && p.v >= LATTICE_MIN_CORRELATION && Math.abs(p.dx * first.dy - p.dy * first.dx) >= 0.34 * Math.hypot(p.dx, p.dy) * Math.hypot(first.dx, first.dy));
  let u2 = second ? refine(second) : null;
  if (u2) {
    // Lagrange–Gauss reduction: the shortest basis of the same lattice.
    for (let it = 0; it < 10; it++) {
      if (Math.hypot(...u2) < Math.hypot(...u1)) [u1, u2] = [u2, u1];
      const m = Math.round((u1[0] * u2[0] + u1[1] * u2[1]) / (u1[0] ** 2 + u1[1] ** 2));
      if (!m) break;
      u2 = [u2[0] - m * u1[0], u2[1] - m * u1[1]];
    }
  }
  if (u2) {
    // Least-squares refinement over every lattice point m·u1 + n·u2 (|m|, |n| ≤ 3) with an autocorrelation peak
    // within 1 px: long translates pin the periods down to a fraction of a pixel.
    let smm = 0;
    let smn = 0;
    let snn = 0;
    let smx = 0;
    let snx = 0;
    let smy = 0;
    let sny = 0;
    for (let m = -LATTICE_FIT_REACH; m <= LATTICE_FIT_REACH; m++) {
      for (let k = -LATTICE_FIT_REACH; k <= LATTICE_FIT_REACH; k++) {
        if (!m && !k) continue;
        let px = m * u1[0] + k * u2[0];
        let py = m * u1[1] + k * u2[1];
        const flip = py < 0 || (py === 0 && px < 0);
        if (flip) {
          px = -px;
          py = -py;
        }
        const cx = Math.round(px);
        const cy = Math.round(py);
        if (Math.abs(cx) > reachX - 2 || cy > reachY - 2 || cy < 1) continue;
        let best = { dx: cx, dy: cy, v: -Infinity };
        for (let j = -1; j <= 1; j++) for (let i = -1; i <= 1; i++) if (at(cx + i, cy + j) > best.v) best = { dx: cx + i, dy: cy + j, v: at(cx + i, cy + j) };
        if (best.v < LATTICE_MIN_CORRELATION || best.dy < 1 || Math.abs(best.dx) > reachX - 2) continue;
        let [ox, oy] = refine(best);
        if (flip) {
          ox = -ox;
          oy = -oy;
        }
        smm += m * m;
        smn += m * k;
        snn += k * k;
        smx += m * ox;
        snx += k * ox;
        smy += m * oy;
        sny += k * oy;
      }
    }
    const det = smm * snn - smn * smn;
    if (det > 1e-9 * (smm * snn + 1)) {
      const fit1: [number, number] = [(snn * smx - smn * snx) / det, (snn * smy - smn * sny) / det];
      const fit2: [number, number] = [(smm * snx - smn * smx) / det, (smm * sny - smn * smy) / det];
      if (Math.hypot(fit1[0] - u1[0], fit1[1] - u1[1]) < 2 && Math.hypot(fit2[0] - u2[0], fit2[1] - u2[1]) < 2) {
        u1 = fit1;
        u2 = fit2;
      }
    }
  }
  return { u1, u2, correlation: first.v };
}

/** Mean of `values` (bilinear) over the lattice translates p + m·u1 + n·u2, |m|, |n| ≤ reach, that fall inside the map. */
function latticeAverage(values: Float64Array, rows: number, cols: number, u1: [number, number], u2: [number, number] | null, reach: number): Float64Array {
  const sum = new Float64Array(rows * cols);
  const count = new Float64Array(rows * cols);
  for (let m = -reach; m <= reach; m++) {
    for (let k = u2 ? -reach : 0; k <= (u2 ? reach : 0); k++) {
      const sx = m * u1[0] + k * (u2?.[0] ?? 0);
      const sy = m * u1[1] + k * (u2?.[1] ?? 0);
      const ix = Math.floor(sx);
      const iy = Math.floor(sy);
      const tx = sx - ix;
      const ty = sy - iy;
      const w00 = (1 - tx) * (1 - ty);
      const w01 = tx * (1 - ty);
      const w10 = (1 - tx) * ty;
      const w11 = tx * ty;
      // Pixels whose translate (and its bilinear neighbours) lie inside the map.
      const x0 = Math.max(0, -ix);
      const x1 = Math.min(cols - 1, cols - 2 - ix);
      const y0 = Math.max(0, -iy);
      const y1 = Math.min(rows - 1, rows - 2 - iy);
      for (let y = y0; y <= y1; y++) {
        const row = (y + iy) * cols + ix;
        for (let x = x0; x <= x1; x++) {
          const j = row + x;
          sum[y * cols + x] += w00 * values[j]! + w01 * values[j + 1]! + w10 * values[j + cols]! + w11 * values[j + cols + 1]!;
          count[y * cols + x]!++;
        }
      }
    }
  }
  for (let i = 0; i < sum.length; i++) sum[i] = count[i]! > 0 ? sum[i]! / count[i]! : values[i]!;
  return sum;
}

export function segmentChargeRegions(data: Float64Array, rows: number, cols: number, options: ChargeRegionOptions = CHARGE_REGION_DEFAULTS): ChargeRegionSegmentation {
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
  let { labels: markers, count } = options.markerDynamics > 0 ? distanceMarkers(distance, rows, cols, options.markerDepth, options.markerDynamics) : thresholdMarkers(distance, rows, cols, options.markerDepth);
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
  const pairs = [...boundaryPairs(flooded, relative, rows, cols, parent, k)].map(([key, list]) => ({ a: Math.floor(key / k), b: key % k, strength: median(list), length: list.length }));
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
      const s = median(list);
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
    if (id === undefined) renumber.set(root, (id = renumber.size + 1));
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
