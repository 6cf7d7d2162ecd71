// Steps 4–5 of the transition-line detector: line pixels chained along their family direction (split where the
// offset jumps: the honeycomb shift at a triple point), one total-least-squares segment per chain, and segments cut
// where a segment of another family crosses or ends on them (addition lines end at triple points; van der Wiel et
// al., Rev. Mod. Phys. 75, 1 (2003), Fig. 4).
import { angleGap } from './transition-family-directions.js';
import type { TransitionFamilyOptions } from './transition-family-options.js';
import type { Segment } from './transition-line-score.js';
import { median } from '../signal/order-statistics.js';

/** `robust`: a chain of at least this many pixels takes its own total-least-squares direction when within this many degrees of its family. */
const OWN_DIRECTION_MIN_PIXELS = 12;
const OWN_DIRECTION_TOLERANCE = 5;
/** Distance from the map's edge within which a segment end counts as clipped by the window (borderMinLength), pixels. */
const BORDER_MARGIN = 4;

export interface FamilySegment {
  segment: Segment;
  family: number;
  /** Mean evidence along the segment, robust-noise units. */
  strength: number;
}

export interface LinePixel {
  x: number;
  y: number;
  /** Sub-pixel offset along the normal (ρ) and position along the line (s). */
  rho: number;
  s: number;
  value: number;
}

/** Chains of line pixels along the family direction: same offset (± jump), gaps ≤ options.gap. */
export function chains(pixels: LinePixel[], options: TransitionFamilyOptions): LinePixel[][] {
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
export function chainDirection(members: LinePixel[]): number {
  return ((tlsAngle(members) % Math.PI) + Math.PI) % Math.PI;
}

export function chainSegment(members: LinePixel[], theta: number, robust: boolean): Segment {
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
export function touchesBorder(s: Segment, rows: number, cols: number): boolean {
  const near = (x: number, y: number): boolean => x < BORDER_MARGIN || y < BORDER_MARGIN || x > cols - 1 - BORDER_MARGIN || y > rows - 1 - BORDER_MARGIN;
  return near(s[0], s[1]) || near(s[2], s[3]);
}

export const segLength = (s: Segment): number => Math.hypot(s[2] - s[0], s[3] - s[1]);

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
export function splitAtTriplePoints(found: FamilySegment[], minLength: (piece: Segment) => number): FamilySegment[] {
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
