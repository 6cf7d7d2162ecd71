// Charge-transition segments by line family (all versions v0–v3 of the transition-line detector; they share every
// step below and differ only in `alongHalfLength`, `reestimatePasses` and `transportScales`, see transition-detector.versions.ts).
// In the constant-interaction model every addition line of one dot is parallel to the others (its direction is
// ⟂ ∇[U(N + e_j) − U(N)] = −Aᵀ E_C e_j, independent of N; van der Wiel et al., Rev. Mod. Phys. 75, 1 (2003),
// Eq. 2), so a map holds at most three line directions (dot 1, dot 2, interdot). The detector:
// 0. `transportScales` (v3): on transport maps the whole detection runs at σ = 1 and 2 px and the result whose weaker
//    family is traced longest is kept (thermally broadened ridges; Lindeberg 1998 on ridge scale, see atBestTransportScale).
// 1. Background: plane removed; read-out recognised from the grey levels (transport: median near the floor).
//    `levelRows`: each row shifted by the median difference to the row before (scan-line levelling as in
//    scanning-probe software) against sensor charge jumps and telegraph offsets along the acquisition order;
//    `robust`: the part of a jump left inside one row is removed by a running median along the fast axis,
//    and when rows are offset (jumps, telegraph; either read-out) orientations within 8° of the fast axis are left
//    out of step 2, of its histogram and of the refinement of each peak (a family refined into the band is dropped).
// 2. Family directions: histogram of the Hessian's dominant eigenvector orientation (Gaussian derivatives; ignores
//    the sensor's smooth ramp), weighted by strength^`histogramPower` (2: the strongest family dominates; 1, all
//    versions: a dot with smaller steps keeps its share), up to three peaks (two for transport: interdot lines carry
//    no current) of ≥ `familyShare` of the first and ≥ `familySeparation` apart (transport: 20°, the simulator's
//    "different slopes"; broad transport ridges otherwise put a spurious peak between the families), each refined
//    by a squared-strength-weighted circular mean of nearby orientations (structure-tensor style, Bigün & Granlund
//    1987; sensor: a refined family within `familySeparation` of a stronger one is dropped as a duplicate); then
//    `reestimatePasses` times re-estimated from the total-least-squares directions of long chains (with row offsets,
//    not from chains within 8° of the fast axis; sensor: a family re-estimated to within `familySeparation` of an
//    earlier one is again a duplicate and reports nothing).
// 3. Per family: first (sensor step, Canny, IEEE TPAMI 8, 679 (1986)) or second (transport ridge, Lindeberg,
//    IJCV 30, 117 (1998)) derivative across the lines, averaged along the lines over ±alongHalfLength px (an
//    oriented matched filter). Line score = value minus the mean ±ACROSS_OFFSET px across (cancels the ramp);
//    non-maximum suppression across the line with sub-pixel position, hysteresis in units of the evidence noise
//    (white-noise σ from the Laplacian MAD times the filter's L2 gain).
// 4. Chains: line pixels linked along the family direction (gaps ≤ `gap`), split where their offset jumps (the
//    honeycomb shift at a triple point); each chain is one segment at its own TLS angle when within 5° of the
//    family (`robust`). `relative` (0 in all versions): chains weaker than that fraction of the family's strong
//    lines dropped. Sensor: chains on a broad crest of the oriented derivative are dropped (`crestWidth`): the
//    sensor's ramp along its cosh⁻² flank has its steepest slope mid-cell in a band several pixels wide, which the
//    |derivative| otherwise reports as a line between two true ones.
// 5. `splitAtTriplePoints`: segments cut where a segment of another family crosses or ends on them, since
//    addition lines end at triple points (van der Wiel Fig. 4). Pieces need `minLength` px, or `borderMinLength`
//    when an end is at the map's border: a line clipped by the window also loses the last ~3 px of evidence to the
//    filters' support, so a truth segment of 10 px there is seen as 7–8 px.
// Output: segments [x1, y1, x2, y2], x = column, y = row.
import { gaussianBlur } from './gaussian-blur.js';
import { selectInPlace } from '../signal/order-statistics.js';
import type { Segment } from './transition-line-score.js';

export interface TransitionFamilyOptions {
  /** Gaussian smoothing σ before differentiation, pixels. */
  smoothing: number;
  /** Half-length of the averaging along the line, pixels. */
  alongHalfLength: number;
  /** Hysteresis thresholds, robust-noise units of the per-family evidence. */
  high: number;
  low: number;
  /** Shortest segment reported, pixels. */
  minLength: number;
  /** Largest gap bridged along a line, pixels. */
  gap: number;
  /** A chain must reach this fraction of the map's typical strong-line score (its step or ridge height). */
  relative: number;
  /** Offset jump (across the line) that splits a chain, pixels. */
  offsetJump: number;
  levelRows: boolean;
  splitAtTriplePoints: boolean;
  robust: boolean;
  /** Power of the Hessian strength that weights the orientation histogram (2: strongest family dominates; 1: weaker families keep their share). */
  histogramPower: number;
  /** A secondary family needs at least this share of the strongest family's histogram mass. */
  familyShare: number;
  /** Smallest angle between two families, degrees (transport, sensor). */
  familySeparation: [number, number];
  /** Sensor read-out: a chain whose evidence 2 px either side is above this fraction of its centre is a broad crest of the sensor's ramp, not a step (0: no test). */
  crestWidth: number;
  /** Passes that re-estimate each family direction from the total-least-squares directions of its long chains (0: none). */
  reestimatePasses: number;
  /** Shortest segment reported when one end is at the map's border, pixels (0: `minLength`). */
  borderMinLength: number;
  /**
   * Transport: Gaussian σ of the ridge evidence, pixels (empty: `smoothing`); with several, the whole detection runs
   * at each and the result whose weaker family has the longest total segment length is kept.
   */
  transportScales: number[];
}

/**
 * The classical pipeline with every later addition off: no averaging along the lines, no strength filter, no
 * levelling, splitting, re-estimation or crest test. Not served; the versions below are built on it.
 */
export const TRANSITION_FAMILY_CLASSICAL: TransitionFamilyOptions = {
  smoothing: 1,
  alongHalfLength: 0,
  high: 7,
  low: 3,
  minLength: 10,
  gap: 2,
  relative: 0,
  offsetJump: 0.5,
  levelRows: false,
  splitAtTriplePoints: false,
  robust: false,
  histogramPower: 2,
  familyShare: 0.12,
  familySeparation: [12, 12],
  crestWidth: 0,
  reestimatePasses: 0,
  borderMinLength: 0,
  transportScales: [],
};
/**
 * v0: the full pipeline (scan-line levelling, in-row jump removal, linear-weight histogram, crest test, triple-point
 * splitting, one re-estimation pass, ±3 px matched filter, 7 px pieces at the border). v1 and v2 differ in the
 * re-estimation passes and the matched-filter length, v3 adds the transport scale choice; v0–v2's tuning F1
 * differ by less than the sampling error (docs/models/charge-stability.md).
 */
export const TRANSITION_FAMILY_V0: TransitionFamilyOptions = {
  ...TRANSITION_FAMILY_CLASSICAL,
  alongHalfLength: 3,
  levelRows: true,
  splitAtTriplePoints: true,
  robust: true,
  histogramPower: 1,
  familyShare: 0.06,
  familySeparation: [20, 12],
  crestWidth: 0.6,
  reestimatePasses: 1,
  borderMinLength: 7,
};
/** v1: v0 with a second pass re-estimating the family directions from the long chains. */
export const TRANSITION_FAMILY_V1: TransitionFamilyOptions = { ...TRANSITION_FAMILY_V0, reestimatePasses: 2 };
/** v2: v1 with a shorter matched filter (±2 px along the lines): less blur where a line ends at a triple point. */
export const TRANSITION_FAMILY_V2: TransitionFamilyOptions = { ...TRANSITION_FAMILY_V1, alongHalfLength: 2 };
/** v3: v2 with the transport ridge scale chosen per map from σ = 1 and 2 px (thermally broadened lines). */
export const TRANSITION_FAMILY_V3: TransitionFamilyOptions = { ...TRANSITION_FAMILY_V2, transportScales: [1, 2] };

/** Distance of the background samples either side of a line, pixels (wider than a thermally broadened step). */
const ACROSS_OFFSET = 4;
/** Distance either side of a sensor chain at which a step's evidence has fallen off (the crest-width test), pixels. */
const CREST_OFFSET = 2;
/** Gaussian σ of the direction estimate, pixels: transport ridges are thermally broader than sensor steps. */
const DIRECTION_SCALE = { sensor: 1, transport: 2 };
/** Position of the median between the 2nd and 98th percentiles below which a (σ = 1 smoothed) map is transport. */
const TRANSPORT_MEDIAN_POSITION = 0.33;
/** Running-median window along the fast axis for residual sensor jumps, pixels. */
const JUMP_WINDOW = 15;
/** `robust`: a chain of at least this many pixels takes its own total-least-squares direction when within this many degrees of its family. */
const OWN_DIRECTION_MIN_PIXELS = 12;
const OWN_DIRECTION_TOLERANCE = 5;
/** Re-estimation passes: chains used to re-estimate a family direction (pixels) and how far from the first estimate they may lie (degrees). */
const REESTIMATE_MIN_PIXELS = 15;
const REESTIMATE_TOLERANCE = 15;
/** `robust`: row offsets that mark a map with charge jumps, and the band around horizontal then left out of the
 * direction histogram (jump edges run along the fast axis and would otherwise form a false family), degrees. */
const JUMP_ROW_SIGMAS = 1.5;
const JUMP_ROWS = 2;
const JUMP_EXCLUDED_DEGREES = 8;
/** Distance from the map's edge within which a segment end counts as clipped by the window (borderMinLength), pixels. */
const BORDER_MARGIN = 4;
/** Orientation histogram resolution, bins over [0, π). */
const ORIENTATION_BINS = 90;

export interface FamilySegment {
  segment: Segment;
  family: number;
  /** Mean evidence along the segment, robust-noise units. */
  strength: number;
}

const angleGap = (a: number, b: number): number => {
  const d = Math.abs(a - b) % Math.PI;
  return Math.min(d, Math.PI - d);
};

function median(values: Float64Array | number[]): number {
  const a = Float64Array.from(values);
  if (!a.length) return 0;
  return selectInPlace(a, a.length, a.length >> 1);
}

function quantile(values: Float64Array, q: number): number {
  const a = Float64Array.from(values);
  return selectInPlace(a, a.length, Math.min(a.length - 1, Math.max(0, Math.floor(q * (a.length - 1)))));
}

/** Least-squares plane removed; optionally every row levelled to the row before by the median difference. */
function background(data: Float64Array, rows: number, cols: number, levelRows: boolean): Float64Array {
  const out = new Float64Array(data);
  if (levelRows) {
    const diff = new Float64Array(cols);
    let shift = 0;
    for (let y = 1; y < rows; y++) {
      for (let x = 0; x < cols; x++) diff[x] = data[y * cols + x]! - data[(y - 1) * cols + x]!;
      shift += median(diff);
      for (let x = 0; x < cols; x++) out[y * cols + x] = data[y * cols + x]! - shift;
    }
  }
  const cx = (cols - 1) / 2;
  const cy = (rows - 1) / 2;
  let sum = 0;
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let syy = 0;
  for (let y = 0; y < rows; y++) for (let x = 0; x < cols; x++) {
    const v = out[y * cols + x]!;
    sum += v;
    sx += v * (x - cx);
    sy += v * (y - cy);
  }
  for (let x = 0; x < cols; x++) sxx += (x - cx) ** 2;
  for (let y = 0; y < rows; y++) syy += (y - cy) ** 2;
  const mean = sum / (rows * cols);
  const ax = sx / (sxx * rows || 1);
  const ay = sy / (syy * cols || 1);
  for (let y = 0; y < rows; y++) for (let x = 0; x < cols; x++) out[y * cols + x] = out[y * cols + x]! - mean - ax * (x - cx) - ay * (y - cy);
  return out;
}

/**
 * Removes what is left of a sensor charge jump that happened mid-row: that row is offset from some column on, so
 * its deviation from the mean of the rows above and below is a long plateau along the fast axis. The running
 * median (JUMP_WINDOW px) of that deviation is subtracted; a transition line crosses a row in a few pixels and
 * barely moves it.
 */
function removeRowJumps(flat: Float64Array, rows: number, cols: number): Float64Array {
  const out = new Float64Array(flat);
  const deviation = new Float64Array(cols);
  const window = new Float64Array(JUMP_WINDOW);
  const half = JUMP_WINDOW >> 1;
  for (let y = 1; y < rows - 1; y++) {
    for (let x = 0; x < cols; x++) deviation[x] = flat[y * cols + x]! - 0.5 * (flat[(y - 1) * cols + x]! + flat[(y + 1) * cols + x]!);
    for (let x = 0; x < cols; x++) {
      const from = Math.max(0, Math.min(cols - JUMP_WINDOW, x - half));
      const count = Math.min(JUMP_WINDOW, cols - from);
      for (let k = 0; k < count; k++) window[k] = deviation[from + k]!;
      out[y * cols + x] = flat[y * cols + x]! - selectInPlace(window, count, count >> 1);
    }
  }
  return out;
}

/**
 * True when whole rows are offset from one another (sensor charge jumps, telegraph noise): the median difference
 * between neighbouring rows departs from its typical value by more than JUMP_ROW_SIGMAS white-noise σ in at least
 * JUMP_ROWS rows. A transition line crosses a row in a few pixels and leaves that median alone.
 */
function hasRowJumps(data: Float64Array, rows: number, cols: number, sigma: number): boolean {
  const diff = new Float64Array(cols);
  const medians = new Float64Array(rows - 1);
  for (let y = 1; y < rows; y++) {
    for (let x = 0; x < cols; x++) diff[x] = data[y * cols + x]! - data[(y - 1) * cols + x]!;
    medians[y - 1] = median(diff);
  }
  const typical = median(medians);
  let count = 0;
  for (const m of medians) if (Math.abs(m - typical) > JUMP_ROW_SIGMAS * sigma) count++;
  return count >= JUMP_ROWS;
}

/** Transport maps are mostly at the current floor with sparse bright lines: the median (of the smoothed map) sits near the bottom. */
function looksLikeTransport(flat: Float64Array): boolean {
  const p2 = quantile(flat, 0.02);
  const p50 = quantile(flat, 0.5);
  const p98 = quantile(flat, 0.98);
  return p98 > p2 && (p50 - p2) / (p98 - p2) < TRANSPORT_MEDIAN_POSITION;
}

interface Derivatives {
  gx: Float64Array;
  gy: Float64Array;
  hxx: Float64Array;
  hyy: Float64Array;
  hxy: Float64Array;
}

function derivatives(smooth: Float64Array, rows: number, cols: number): Derivatives {
  const n = rows * cols;
  const d: Derivatives = { gx: new Float64Array(n), gy: new Float64Array(n), hxx: new Float64Array(n), hyy: new Float64Array(n), hxy: new Float64Array(n) };
  for (let y = 0; y < rows; y++) {
    const ym = Math.max(0, y - 1);
    const yp = Math.min(rows - 1, y + 1);
    for (let x = 0; x < cols; x++) {
      const xm = Math.max(0, x - 1);
      const xp = Math.min(cols - 1, x + 1);
      const i = y * cols + x;
      const c = smooth[i]!;
      d.gx[i] = (smooth[y * cols + xp]! - smooth[y * cols + xm]!) / Math.max(1, xp - xm);
      d.gy[i] = (smooth[yp * cols + x]! - smooth[ym * cols + x]!) / Math.max(1, yp - ym);
      d.hxx[i] = xp - xm === 2 ? smooth[y * cols + xp]! - 2 * c + smooth[y * cols + xm]! : 0;
      d.hyy[i] = yp - ym === 2 ? smooth[yp * cols + x]! - 2 * c + smooth[ym * cols + x]! : 0;
      d.hxy[i] = 0.25 * (smooth[yp * cols + xp]! - smooth[yp * cols + xm]! - smooth[ym * cols + xp]! + smooth[ym * cols + xm]!);
    }
  }
  return d;
}

/** Cross-line response at every pixel for lines of direction θ: |∂n| (sensor steps) or −∂²n (transport ridges). */
function crossResponse(d: Derivatives, theta: number, transport: boolean, out: Float64Array): void {
  const nx = -Math.sin(theta);
  const ny = Math.cos(theta);
  for (let i = 0; i < out.length; i++) {
    if (transport) out[i] = -(nx * nx * d.hxx[i]! + 2 * nx * ny * d.hxy[i]! + ny * ny * d.hyy[i]!);
    else out[i] = nx * d.gx[i]! + ny * d.gy[i]!;
  }
}

function bilinear(src: Float64Array, rows: number, cols: number, x: number, y: number): number {
  const xc = Math.min(cols - 1, Math.max(0, x));
  const yc = Math.min(rows - 1, Math.max(0, y));
  const x0 = Math.min(cols - 2, Math.floor(xc));
  const y0 = Math.min(rows - 2, Math.floor(yc));
  const fx = xc - x0;
  const fy = yc - y0;
  const i = y0 * cols + x0;
  return (1 - fy) * ((1 - fx) * src[i]! + fx * src[i + 1]!) + fy * ((1 - fx) * src[i + cols]! + fx * src[i + cols + 1]!);
}

/** Average of `src` along direction θ over ±half pixels (the oriented matched filter of step 4). */
function averageAlong(src: Float64Array, rows: number, cols: number, theta: number, half: number): Float64Array {
  const tx = Math.cos(theta);
  const ty = Math.sin(theta);
  const out = new Float64Array(rows * cols);
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      let s = 0;
      let w = 0;
      for (let k = -half; k <= half; k++) {
        const xx = x + k * tx;
        const yy = y + k * ty;
        if (xx < -0.5 || yy < -0.5 || xx > cols - 0.5 || yy > rows - 0.5) continue;
        s += bilinear(src, rows, cols, xx, yy);
        w++;
      }
      out[y * cols + x] = w ? s / w : 0;
    }
  }
  return out;
}

/**
 * Line score: a peak of `value` minus the mean of `value` ±ACROSS_OFFSET px across the line. A step (or ridge)
 * keeps its height, the sensor's smooth sawtooth ramp cancels, and the flanks of a true peak score negative.
 */
function acrossContrast(value: Float64Array, rows: number, cols: number, theta: number): Float64Array {
  const nx = -Math.sin(theta) * ACROSS_OFFSET;
  const ny = Math.cos(theta) * ACROSS_OFFSET;
  const out = new Float64Array(rows * cols);
  for (let y = 0; y < rows; y++) for (let x = 0; x < cols; x++) {
    out[y * cols + x] = value[y * cols + x]! - 0.5 * (bilinear(value, rows, cols, x + nx, y + ny) + bilinear(value, rows, cols, x - nx, y - ny));
  }
  return out;
}

/**
 * Coarse family directions (step 3): peaks of the orientation histogram of the Hessian's dominant eigenvector
 * (across a ridge or across the flanks of a step; unlike the gradient it ignores the sensor's smooth ramp).
 */
function familyDirections(d: Derivatives, rows: number, cols: number, transport: boolean, excludeHorizontal: boolean, histogramPower: number, familyShare: number, separationDegrees: number, robust: boolean): number[] {
  const separation = (separationDegrees * Math.PI) / 180;
  const n = rows * cols;
  const strength = new Float64Array(n);
  const orientation = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const tr = 0.5 * (d.hxx[i]! + d.hyy[i]!);
    const det = Math.sqrt(0.25 * (d.hxx[i]! - d.hyy[i]!) ** 2 + d.hxy[i]! ** 2);
    const lambda = transport ? tr - det : Math.abs(tr - det) > Math.abs(tr + det) ? tr - det : tr + det;
    strength[i] = transport ? (lambda < 0 ? -lambda : 0) : Math.abs(lambda);
    let nx = d.hxy[i]!;
    let ny = lambda - d.hxx[i]!;
    if (Math.abs(nx) + Math.abs(ny) < 1e-12 * (Math.abs(d.hxx[i]!) + Math.abs(d.hyy[i]!) + 1e-300)) {
      nx = Math.abs(d.hxx[i]!) >= Math.abs(d.hyy[i]!) ? 1 : 0;
      ny = Math.abs(d.hxx[i]!) >= Math.abs(d.hyy[i]!) ? 0 : 1;
    }
    let t = Math.atan2(nx, -ny);
    if (t < 0) t += Math.PI;
    if (t >= Math.PI) t -= Math.PI;
    orientation[i] = t;
  }
  // Orientations of pixels above 3 × the median strength; when curvature is everywhere (a sensor map whose cells are
  // all flank; `robust`) no pixel passes that, so the strongest 10 % are used instead.
  const level = robust ? Math.min(median(strength), quantile(strength, 0.9) / 3 * (1 - 1e-9)) : median(strength);
  const hist = new Float64Array(ORIENTATION_BINS);
  for (let i = 0; i < n; i++) {
    const s = strength[i]!;
    if (s <= 3 * level) continue;
    if (excludeHorizontal && angleGap(orientation[i]!, 0) < (JUMP_EXCLUDED_DEGREES * Math.PI) / 180) continue;
    const b = (orientation[i]! / Math.PI) * ORIENTATION_BINS;
    const b0 = Math.floor(b - 0.5);
    const f = b - 0.5 - b0;
    const w = s ** histogramPower;
    hist[(b0 + ORIENTATION_BINS) % ORIENTATION_BINS]! += (1 - f) * w;
    hist[(b0 + 1) % ORIENTATION_BINS]! += f * w;
  }
  // Circular smoothing over ±2 bins (±4°).
  const smooth = new Float64Array(ORIENTATION_BINS);
  const w = [1, 4, 6, 4, 1];
  for (let b = 0; b < ORIENTATION_BINS; b++) for (let k = -2; k <= 2; k++) smooth[b]! += w[k + 2]! * hist[(b + k + ORIENTATION_BINS) % ORIENTATION_BINS]!;
  const peaks: { theta: number; mass: number }[] = [];
  for (let b = 0; b < ORIENTATION_BINS; b++) {
    const v = smooth[b]!;
    const l = smooth[(b - 1 + ORIENTATION_BINS) % ORIENTATION_BINS]!;
    const r = smooth[(b + 1) % ORIENTATION_BINS]!;
    if (v > 0 && v >= l && v > r) {
      const denom = l - 2 * v + r;
      const off = denom < 0 ? (0.5 * (l - r)) / denom : 0;
      peaks.push({ theta: (((b + 0.5 + off) / ORIENTATION_BINS) * Math.PI + Math.PI) % Math.PI, mass: v });
    }
  }
  peaks.sort((a, b) => b.mass - a.mass);
  const chosen: number[] = [];
  for (const p of peaks) {
    if (!chosen.length) chosen.push(p.theta);
    else if (p.mass >= familyShare * peaks[0]!.mass && chosen.every((t) => angleGap(t, p.theta) >= separation)) chosen.push(p.theta);
    // Transport shows no interdot line (it carries no current): two families at most.
    if (chosen.length === (transport ? 2 : 3)) break;
  }
  // The refinement keeps out of the excluded band too, and a family that still ends up in it is dropped: a peak
  // just outside the band would otherwise be pulled onto the jump edges along the fast axis by their strength.
  const band = excludeHorizontal ? (JUMP_EXCLUDED_DEGREES * Math.PI) / 180 : 0;
  return chosen.map((theta) => refineDirection(strength, orientation, theta, level, band)).filter((theta) => angleGap(theta, 0) >= band)
    // Sensor: two peaks ≥ 12° apart that the refinement (15° window) pulls within 12° of each other are one family
    // seen twice (its segments would be reported twice, once at a wrong angle); the weaker is dropped. Not for
    // transport, whose two families can be only 20–25° apart and whose broad ridges pull both refinements together
    // (tuning 5001–5100: transport recall 0.850 → 0.826 when done there too).
    .filter((theta, k, all) => transport || all.slice(0, k).every((u) => angleGap(u, theta) >= separation));
}

/**
 * Family direction near `theta`: squared-strength-weighted circular mean of the local orientations within a
 * shrinking tolerance (15°, 8°, 5°). A mean of local directions, unlike a Hough projection of whole lines, is not
 * pulled towards the staircase that a family's segments form across the honeycomb. Orientations within `excluded`
 * of the fast axis (maps with row offsets) are left out, as in the histogram.
 */
function refineDirection(strength: Float64Array, orientation: Float64Array, theta: number, level: number, excluded: number): number {
  let t = theta;
  for (const tolerance of [15, 8, 5]) {
    let c = 0;
    let s = 0;
    for (let i = 0; i < strength.length; i++) {
      const w = strength[i]!;
      if (w <= 3 * level || angleGap(orientation[i]!, t) > (tolerance * Math.PI) / 180 || angleGap(orientation[i]!, 0) < excluded) continue;
      c += w * w * Math.cos(2 * orientation[i]!);
      s += w * w * Math.sin(2 * orientation[i]!);
    }
    if (c === 0 && s === 0) break;
    t = (((0.5 * Math.atan2(s, c)) % Math.PI) + Math.PI) % Math.PI;
  }
  return t;
}

interface LinePixel {
  x: number;
  y: number;
  /** Sub-pixel offset along the normal (ρ) and position along the line (s). */
  rho: number;
  s: number;
  value: number;
}

/** White-noise σ of the map from the median absolute 4-neighbour Laplacian (lines are sparse, so it sees noise). */
function whiteNoiseSigma(flat: Float64Array, rows: number, cols: number): number {
  const lap = new Float64Array((rows - 2) * (cols - 2));
  let c = 0;
  for (let y = 1; y < rows - 1; y++) for (let x = 1; x < cols - 1; x++) {
    const i = y * cols + x;
    lap[c++] = Math.abs(4 * flat[i]! - flat[i - 1]! - flat[i + 1]! - flat[i - cols]! - flat[i + cols]!);
  }
  // Var(Laplacian) = 20 σ² for white noise; 1.4826 · median|·| is σ for a Gaussian.
  return (1.4826 * median(lap)) / Math.sqrt(20);
}

/** Standard deviation of the per-family evidence for unit white noise (the filter's L2 norm, from its impulse response). */
function evidenceNoiseGain(theta: number, transport: boolean, options: TransitionFamilyOptions): number {
  const size = 2 * (Math.ceil(3 * options.smoothing) + options.alongHalfLength + ACROSS_OFFSET + 3) + 1;
  const impulse = new Float64Array(size * size);
  impulse[(size >> 1) * size + (size >> 1)] = 1;
  const d = derivatives(gaussianBlur(impulse, size, size, options.smoothing), size, size);
  const response = new Float64Array(size * size);
  crossResponse(d, theta, transport, response);
  const avg = averageAlong(response, size, size, theta, options.alongHalfLength);
  let sum = 0;
  for (let i = 0; i < avg.length; i++) sum += avg[i]! * avg[i]!;
  return Math.sqrt(sum);
}

/**
 * Sensor read-out: true when a chain is a broad crest of the oriented derivative rather than a step. Between
 * transitions the sensor ramps along its cosh⁻² Coulomb-peak flank, and the slope of that ramp peaks mid-cell in a
 * band several pixels wide; a charge step is only as wide as the smoothing (and the thermal broadening). Measured
 * as the mean evidence 2 px either side of the chain over the evidence on it.
 */
function isBroadCrest(members: LinePixel[], avg: Float64Array, rows: number, cols: number, theta: number, limit: number): boolean {
  const nx = -Math.sin(theta);
  const ny = Math.cos(theta);
  let centre = 0;
  let sides = 0;
  for (const p of members) {
    centre += bilinear(avg, rows, cols, p.x, p.y);
    sides += bilinear(avg, rows, cols, p.x + CREST_OFFSET * nx, p.y + CREST_OFFSET * ny) + bilinear(avg, rows, cols, p.x - CREST_OFFSET * nx, p.y - CREST_OFFSET * ny);
  }
  return (0.5 * sides) / centre > limit;
}

/** Step 4 for one family: thin, thresholded line pixels with sub-pixel offsets, and the signed oriented evidence. */
function familyPixels(response: Float64Array, rows: number, cols: number, theta: number, transport: boolean, noise: number, options: TransitionFamilyOptions): { pixels: LinePixel[]; avg: Float64Array } {
  const avg = averageAlong(response, rows, cols, theta, options.alongHalfLength);
  const n = rows * cols;
  // Steps (sensor) of either sign; only bright ridges (transport), whose negative flanks are not lines.
  const value = new Float64Array(n);
  for (let i = 0; i < n; i++) value[i] = transport ? Math.max(0, avg[i]!) : Math.abs(avg[i]!);
  const mag = acrossContrast(value, rows, cols, theta);
  const nx = -Math.sin(theta);
  const ny = Math.cos(theta);
  const tx = Math.cos(theta);
  const ty = Math.sin(theta);
  const candidate = new Float64Array(n);
  const offsets = new Float64Array(n);
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const i = y * cols + x;
      const v = mag[i]!;
      if (v < options.low * noise) continue;
      const a = bilinear(mag, rows, cols, x - nx, y - ny);
      const b = bilinear(mag, rows, cols, x + nx, y + ny);
      if (!(v >= a && v > b)) continue;
      const denom = a - 2 * v + b;
      offsets[i] = denom < 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (a - b)) / denom)) : 0;
      candidate[i] = v;
    }
  }
  // Hysteresis: weak pixels survive when 8-connected to a strong one.
  const keep = new Uint8Array(n);
  const stack: number[] = [];
  for (let i = 0; i < n; i++) {
    if (candidate[i]! < options.high * noise || keep[i]) continue;
    keep[i] = 1;
    stack.push(i);
    while (stack.length) {
      const j = stack.pop()!;
      const jy = Math.floor(j / cols);
      const jx = j - jy * cols;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
        const yy = jy + dy;
        const xx = jx + dx;
        if (yy < 0 || yy >= rows || xx < 0 || xx >= cols) continue;
        const k = yy * cols + xx;
        if (!keep[k] && candidate[k]! > 0) {
          keep[k] = 1;
          stack.push(k);
        }
      }
    }
  }
  const pixels: LinePixel[] = [];
  for (let i = 0; i < n; i++) {
    if (!keep[i]) continue;
    const y = Math.floor(i / cols);
    const x = i - y * cols;
    const px = x + offsets[i]! * nx;
    const py = y + offsets[i]! * ny;
    pixels.push({ x: px, y: py, rho: px * nx + py * ny, s: px * tx + py * ty, value: candidate[i]! / noise });
  }
  return { pixels, avg };
}

/** Chains of line pixels along the family direction: same offset (± jump), gaps ≤ options.gap. */
function chains(pixels: LinePixel[], options: TransitionFamilyOptions): LinePixel[][] {
  const sorted = pixels.slice().sort((a, b) => a.s - b.s);
  const open: { last: LinePixel; members: LinePixel[]; rho: number }[] = [];
  const done: LinePixel[][] = [];
  for (const p of sorted) {
    // Retire chains that can no longer grow.
    for (let k = open.length - 1; k >= 0; k--) {
      if (p.s - open[k]!.last.s > options.gap + 1.5) done.push(open.splice(k, 1)[0]!.members);
    }
    let best = -1;
    let bestD = Infinity;
    for (let k = 0; k < open.length; k++) {
      const c = open[k]!;
      const d = Math.abs(p.rho - c.rho);
      if (d <= options.offsetJump && Math.abs(p.rho - c.last.rho) <= options.offsetJump && d < bestD) {
        bestD = d;
        best = k;
      }
    }
    if (best < 0) open.push({ last: p, members: [p], rho: p.rho });
    else {
      const c = open[best]!;
      c.members.push(p);
      c.last = p;
      // Running offset over the last few pixels follows a slowly bending line but not a honeycomb jump.
      const tail = c.members.slice(-6);
      c.rho = tail.reduce((a, q) => a + q.rho, 0) / tail.length;
    }
  }
  for (const c of open) done.push(c.members);
  return done;
}

/** Total-least-squares direction of a chain's pixels, radians in (−π/2, π/2]. */
function tlsAngle(members: LinePixel[]): number {
  let mx = 0;
  let my = 0;
  for (const p of members) {
    mx += p.x;
    my += p.y;
  }
  mx /= members.length;
  my /= members.length;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (const p of members) {
    sxx += (p.x - mx) ** 2;
    syy += (p.y - my) ** 2;
    sxy += (p.x - mx) * (p.y - my);
  }
  return 0.5 * Math.atan2(2 * sxy, sxx - syy);
}

/** Total-least-squares direction of a chain's pixels, radians in [0, π). */
function chainDirection(members: LinePixel[]): number {
  return ((tlsAngle(members) % Math.PI) + Math.PI) % Math.PI;
}

function chainSegment(members: LinePixel[], theta: number, robust: boolean): Segment {
  let t = theta;
  if (robust && members.length >= OWN_DIRECTION_MIN_PIXELS) {
    // Total least squares direction of the chain, kept only when it agrees with the family within 5°.
    const own = tlsAngle(members);
    if (angleGap(own, theta) < (OWN_DIRECTION_TOLERANCE * Math.PI) / 180) t = own;
  }
  const nx = -Math.sin(t);
  const ny = Math.cos(t);
  const tx = Math.cos(t);
  const ty = Math.sin(t);
  const rho = median(members.map((p) => p.x * nx + p.y * ny));
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of members) {
    const s = p.x * tx + p.y * ty;
    lo = Math.min(lo, s);
    hi = Math.max(hi, s);
  }
  return [lo * tx + rho * nx, lo * ty + rho * ny, hi * tx + rho * nx, hi * ty + rho * ny];
}

/** True when an end of the segment lies within BORDER_MARGIN px of the map's edge (a line clipped by the window). */
function touchesBorder(s: Segment, rows: number, cols: number): boolean {
  const near = (x: number, y: number): boolean => x < BORDER_MARGIN || y < BORDER_MARGIN || x > cols - 1 - BORDER_MARGIN || y > rows - 1 - BORDER_MARGIN;
  return near(s[0], s[1]) || near(s[2], s[3]);
}

const segLength = (s: Segment): number => Math.hypot(s[2] - s[0], s[3] - s[1]);

/** Parameter along `a` where the infinite line through `b` crosses it, or null when (nearly) parallel. */
function crossing(a: Segment, b: Segment): number | null {
  const ax = a[2] - a[0];
  const ay = a[3] - a[1];
  const bx = b[2] - b[0];
  const by = b[3] - b[1];
  const den = ax * by - ay * bx;
  if (Math.abs(den) < 1e-9) return null;
  const t = ((b[0] - a[0]) * by - (b[1] - a[1]) * bx) / den;
  const u = ((b[0] - a[0]) * ay - (b[1] - a[1]) * ax) / den;
  // b must reach the crossing (within a couple of pixels of its ends).
  const lb = Math.hypot(bx, by);
  if (u * lb < -2.5 || u * lb > lb + 2.5) return null;
  return t;
}

/** Step 5: cut each segment where a segment of another family crosses or ends on it. */
function splitAtTriplePoints(found: FamilySegment[], minLength: (piece: Segment) => number): FamilySegment[] {
  const out: FamilySegment[] = [];
  for (const f of found) {
    const len = segLength(f.segment);
    const cuts: number[] = [];
    for (const g of found) {
      if (g.family === f.family) continue;
      const t = crossing(f.segment, g.segment);
      if (t === null) continue;
      const s = t * len;
      if (s > 3 && s < len - 3) cuts.push(t);
    }
    cuts.sort((a, b) => a - b);
    const bounds = [0, ...cuts, 1];
    const [x1, y1, x2, y2] = f.segment;
    for (let k = 0; k + 1 < bounds.length; k++) {
      const a = bounds[k]!;
      const b = bounds[k + 1]!;
      const piece: Segment = [x1 + a * (x2 - x1), y1 + a * (y2 - y1), x1 + b * (x2 - x1), y1 + b * (y2 - y1)];
      if (segLength(piece) >= minLength(piece)) out.push({ ...f, segment: piece });
    }
  }
  return out;
}

export interface TransitionFamilyResult {
  segments: FamilySegment[];
  /** Family directions found, radians in [0, π) (x = column, y = row). */
  directions: number[];
  readout: 'sensor' | 'transport';
}

/**
 * Transport maps with several `transportScales`: the detection at each σ, keeping the one whose weaker family has
 * the longest total segment length. Thermally broadened transport lines (kT up to ~0.1 E_C) are traced only at a σ
 * near their width, sharp ones best at σ = 1; a double dot has two families, so the right scale is the one at which
 * both are traced (Lindeberg, IJCV 30, 117 (1998): ridges are detected at the scale that matches their width; here
 * the scale is chosen by the detection it gives rather than by a normalised-derivative maximum, which on these maps
 * was pulled to large σ by the bright triple points).
 */
function atBestTransportScale(data: Float64Array, rows: number, cols: number, options: TransitionFamilyOptions): TransitionFamilyResult {
  let best: TransitionFamilyResult | null = null;
  let bestLength = -1;
  for (const scale of options.transportScales) {
    const result = detectTransitionFamilies(data, rows, cols, { ...options, transportScales: [scale] });
    const lengths = result.directions.map(() => 0);
    for (const f of result.segments) lengths[f.family] = lengths[f.family]! + segLength(f.segment);
    // One family found: its weaker "family" is the missing one, length 0.
    const weaker = lengths.length >= 2 ? Math.min(...lengths) : 0;
    if (weaker > bestLength) {
      best = result;
      bestLength = weaker;
    }
  }
  return best!;
}

/** Transition segments of a rows × cols map (steps 0–5 of the header). */
export function detectTransitionFamilies(data: Float64Array, rows: number, cols: number, options: TransitionFamilyOptions): TransitionFamilyResult {
  let flat = background(data, rows, cols, options.levelRows);
  const transport = looksLikeTransport(gaussianBlur(flat, rows, cols, 1));
  if (options.robust && !transport) flat = removeRowJumps(flat, rows, cols);
  if (transport && options.transportScales.length > 1) return atBestTransportScale(data, rows, cols, options);
  const smoothing = transport && options.transportScales.length === 1 ? options.transportScales[0]! : options.smoothing;
  const d = derivatives(gaussianBlur(flat, rows, cols, smoothing), rows, cols);
  const scale = transport ? Math.max(smoothing, DIRECTION_SCALE.transport) : DIRECTION_SCALE.sensor;
  const jumpy = options.robust && hasRowJumps(data, rows, cols, whiteNoiseSigma(data, rows, cols));
  const directions = familyDirections(scale === smoothing ? d : derivatives(gaussianBlur(flat, rows, cols, scale), rows, cols), rows, cols, transport, jumpy, options.histogramPower, options.familyShare, options.familySeparation[transport ? 0 : 1], options.robust);
  const sigma = whiteNoiseSigma(flat, rows, cols);
  const response = new Float64Array(rows * cols);
  let found: FamilySegment[] = [];
  directions.forEach((coarse, family) => {
    let theta = coarse;
    let familyAvg: Float64Array = new Float64Array(0);
    const familyChains = (t: number): LinePixel[][] => {
      crossResponse(d, t, transport, response);
      const noise = Math.max(sigma * evidenceNoiseGain(t, transport, { ...options, smoothing }), 1e-300);
      const { pixels, avg } = familyPixels(response, rows, cols, t, transport, noise, { ...options, smoothing });
      familyAvg = avg;
      return chains(pixels, options);
    };
    let found1 = familyChains(theta);
    for (let pass = 0; pass < options.reestimatePasses; pass++) {
      // Another pass at the pixel-count-weighted mean direction of the long chains (total least squares each):
      // the histogram direction of broad transport ridges is biased where lines of two families meet;
      // done for sensor maps too (tuning seeds: F1 0.907 → 0.909 on 5001–5100, 0.907 → 0.908 on 7001–7200).
      let c = 0;
      let s = 0;
      for (const members of found1) {
        if (members.length < REESTIMATE_MIN_PIXELS) continue;
        const own = chainDirection(members);
        if (angleGap(own, theta) > (REESTIMATE_TOLERANCE * Math.PI) / 180) continue;
        // Maps with row offsets: chains along the fast axis are jump edges, not lines (as in the histogram).
        if (jumpy && angleGap(own, 0) < (JUMP_EXCLUDED_DEGREES * Math.PI) / 180) continue;
        c += members.length * Math.cos(2 * own);
        s += members.length * Math.sin(2 * own);
      }
      if (c === 0 && s === 0) break;
      const refined = (((0.5 * Math.atan2(s, c)) % Math.PI) + Math.PI) % Math.PI;
      if (angleGap(refined, theta) <= (0.5 * Math.PI) / 180) break;
      theta = refined;
      directions[family] = theta;
      found1 = familyChains(theta);
    }
    // Sensor: a family whose re-estimated direction lands within the family separation of an earlier (stronger)
    // family's is that family seen twice; its chains would be reported again at a wrong angle.
    if (!transport && directions.slice(0, family).some((u) => angleGap(u, theta) < (options.familySeparation[1] * Math.PI) / 180)) return;
    for (const members of found1) {
      if (members.length < 3) continue;
      if (!transport && options.crestWidth > 0 && isBroadCrest(members, familyAvg, rows, cols, theta, options.crestWidth)) continue;
      const segment = chainSegment(members, theta, options.robust);
      if (segLength(segment) < (options.borderMinLength > 0 && touchesBorder(segment, rows, cols) ? options.borderMinLength : options.minLength)) continue;
      const strength = members.reduce((a, p) => a + p.value, 0) / members.length;
      found.push({ segment, family, strength });
    }
  });
  // Every addition line of one dot has about the same step (sensor) or height (transport): chains well below the
  // strong ones of their family are noise or background texture. Reference: length-weighted upper quartile.
  const references = directions.map((_, family) => {
    const members = found.filter((f) => f.family === family).sort((a, b) => b.strength - a.strength);
    const totalLength = members.reduce((a, f) => a + segLength(f.segment), 0);
    let acc = 0;
    for (const f of members) {
      acc += segLength(f.segment);
      if (acc >= 0.25 * totalLength) return f.strength;
    }
    return 0;
  });
  found = found.filter((f) => f.strength >= options.relative * references[f.family]!);
  if (options.splitAtTriplePoints) found = splitAtTriplePoints(found, (piece) => (options.borderMinLength > 0 && touchesBorder(piece, rows, cols) ? options.borderMinLength : options.minLength));
  return { segments: found, directions, readout: transport ? 'transport' : 'sensor' };
}
