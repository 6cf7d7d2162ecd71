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
// Output: segments [x1, y1, x2, y2], x = column, y = row. Files: step 1 transition-family-background.ts, 2
// transition-family-directions.ts, 3 and the driver here, 4–5 transition-family-chains.ts, settings transition-family-options.ts.
import { gaussianBlur } from './gaussian-blur.js';
import type { TransitionFamilyOptions } from './transition-family-options.js';
import { background, hasRowJumps, looksLikeTransport, removeRowJumps, whiteNoiseSigma } from './transition-family-background.js';
import { angleGap, crossResponse, derivatives, familyDirections, JUMP_EXCLUDED_DEGREES } from './transition-family-directions.js';
import {
  chainDirection,
  chainSegment,
  chains,
  segLength,
  splitAtTriplePoints,
  touchesBorder,
  type FamilySegment,
  type LinePixel,
} from './transition-family-chains.js';

export {
  TRANSITION_FAMILY_CLASSICAL,
  TRANSITION_FAMILY_V0,
  TRANSITION_FAMILY_V1,
  TRANSITION_FAMILY_V2,
  TRANSITION_FAMILY_V3,
  type TransitionFamilyOptions,
} from './transition-family-options.js';
export type { FamilySegment } from './transition-family-chains.js';

/** Distance of the background samples either side of a line, pixels (wider than a thermally broadened step). */
const ACROSS_OFFSET = 4;
/** Distance either side of a sensor chain at which a step's evidence has fallen off (the crest-width test), pixels. */
const CREST_OFFSET = 2;
/** Gaussian σ of the direction estimate, pixels: transport ridges are thermally broader than sensor steps. */
const DIRECTION_SCALE = { sensor: 1, transport: 2 };
/** Re-estimation passes: chains used to re-estimate a family direction (pixels) and how far from the first estimate they may lie (degrees). */
const REESTIMATE_MIN_PIXELS = 15;
const REESTIMATE_TOLERANCE = 15;

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
  for (let y = 0; y < rows; y++)
    for (let x = 0; x < cols; x++) {
      out[y * cols + x] = value[y * cols + x]! - 0.5 * (bilinear(value, rows, cols, x + nx, y + ny) + bilinear(value, rows, cols, x - nx, y - ny));
    }
  return out;
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
    sides +=
      bilinear(avg, rows, cols, p.x + CREST_OFFSET * nx, p.y + CREST_OFFSET * ny) + bilinear(avg, rows, cols, p.x - CREST_OFFSET * nx, p.y - CREST_OFFSET * ny);
  }
  return (0.5 * sides) / centre > limit;
}

/** Step 4 for one family: thin, thresholded line pixels with sub-pixel offsets, and the signed oriented evidence. */
function familyPixels(
  response: Float64Array,
  rows: number,
  cols: number,
  theta: number,
  transport: boolean,
  noise: number,
  options: TransitionFamilyOptions,
): { pixels: LinePixel[]; avg: Float64Array } {
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
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
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
  const directions = familyDirections(
    scale === smoothing ? d : derivatives(gaussianBlur(flat, rows, cols, scale), rows, cols),
    rows,
    cols,
    transport,
    jumpy,
    options.histogramPower,
    options.familyShare,
    options.familySeparation[transport ? 0 : 1],
    options.robust,
  );
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
      // the histogram direction of broad transport ridges is biased where lines of two families meet (sensor maps
      // too; docs/models/charge-stability.md).
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
  if (options.splitAtTriplePoints)
    found = splitAtTriplePoints(found, (piece) =>
      options.borderMinLength > 0 && touchesBorder(piece, rows, cols) ? options.borderMinLength : options.minLength,
    );
  return { segments: found, directions, readout: transport ? 'transport' : 'sensor' };
}
