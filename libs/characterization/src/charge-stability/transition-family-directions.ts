// Step 2 of the transition-line detector: line-family directions. In the constant-interaction model every addition
// line of one dot is parallel (van der Wiel et al., Rev. Mod. Phys. 75, 1 (2003), Eq. 2), so the directions are
// the peaks of a histogram of the Hessian's dominant eigenvector orientation, each refined by a squared-strength-
// weighted circular mean of nearby orientations (structure-tensor style, Bigün & Granlund 1987).
import { median, quantile } from '../signal/order-statistics.js';

/** Orientation histogram resolution, bins over [0, π). */
const ORIENTATION_BINS = 90;
/** `robust`: in maps with row offsets, orientations within this many degrees of the fast axis are left out of the
 * direction estimates (jump edges run along the fast axis and would otherwise form a false family). */
export const JUMP_EXCLUDED_DEGREES = 8;

export const angleGap = (a: number, b: number): number => {
  const d = Math.abs(a - b) % Math.PI;
  return Math.min(d, Math.PI - d);
};

export interface Derivatives {
  gx: Float64Array;
  gy: Float64Array;
  hxx: Float64Array;
  hyy: Float64Array;
  hxy: Float64Array;
}

export function derivatives(smooth: Float64Array, rows: number, cols: number): Derivatives {
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
export function crossResponse(d: Derivatives, theta: number, transport: boolean, out: Float64Array): void {
  const nx = -Math.sin(theta);
  const ny = Math.cos(theta);
  for (let i = 0; i < out.length; i++) {
    if (transport) out[i] = -(nx * nx * d.hxx[i]! + 2 * nx * ny * d.hxy[i]! + ny * ny * d.hyy[i]!);
    else out[i] = nx * d.gx[i]! + ny * d.gy[i]!;
  }
}

/**
 * Coarse family directions (step 3): peaks of the orientation histogram of the Hessian's dominant eigenvector
 * (across a ridge or across the flanks of a step; unlike the gradient it ignores the sensor's smooth ramp).
 */
export function familyDirections(
  d: Derivatives,
  rows: number,
  cols: number,
  transport: boolean,
  excludeHorizontal: boolean,
  histogramPower: number,
  familyShare: number,
  separationDegrees: number,
  robust: boolean,
): number[] {
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
  const level = robust ? Math.min(median(strength), (quantile(strength, 0.9) / 3) * (1 - 1e-9)) : median(strength);
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
  return (
    chosen
      .map((theta) => refineDirection(strength, orientation, theta, level, band))
      .filter((theta) => angleGap(theta, 0) >= band)
      // Sensor: two peaks ≥ 12° apart that the refinement (15° window) pulls within 12° of each other are one family
      // seen twice (its segments would be reported twice, once at a wrong angle); the weaker is dropped. Not for
      // transport, whose two families can be only 20–25° apart and whose broad ridges pull both refinements together
      // (docs/models/charge-stability.md, tuning history).
      .filter((theta, k, all) => transport || all.slice(0, k).every((u) => angleGap(u, theta) >= separation))
  );
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
