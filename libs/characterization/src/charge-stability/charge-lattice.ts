// Step 3b of the charge-region segmenter: the charge lattice. In the constant-interaction model the region of
// charge state (N1 + 1, N2) is that of (N1, N2) translated by u1 = A⁻¹e1 in gate space (u2 = A⁻¹e2 for dot 2; A the
// lever-arm matrix; van der Wiel et al., Rev. Mod. Phys. 75, 1 (2003)), so the transition pattern is periodic: the
// periods are found in the autocorrelation of the evidence, and the evidence is averaged over the translates.
import { fft2 } from '../signal/fft.js';

/** Shortest periods searched, px, and the normalised autocorrelation a lattice peak must reach. */
const LATTICE_MIN_PERIOD = 5;
export const LATTICE_MIN_CORRELATION = 0.25;
/** Normalised evidence is clipped here before the autocorrelation and the mean, so one very strong line or streak does not dominate. */
export const LATTICE_CLIP = 1.5;
/** Lattice points m·u1 + n·u2 with |m|, |n| ≤ this many periods enter the least-squares fit of the periods. */
const LATTICE_FIT_REACH = 3;

/**
 * Charge lattice of the map: in the constant-interaction model the charge state (N1 + 1, N2) occupies the region of
 * (N1, N2) translated by u1 = A⁻¹e1 in gate space (and u2 = A⁻¹e2 for dot 2), so the transition pattern is periodic.
 * The two periods are the two strongest non-collinear peaks of the (overlap-normalised) autocorrelation of the
 * clipped evidence, refined to sub-pixel by parabolas and reduced (Lagrange–Gauss) to a short basis, then fitted by
 * least squares to the peaks near m·u1 + n·u2. Null when no peak reaches LATTICE_MIN_CORRELATION.
 */
export function chargeLattice(
  values: Float64Array,
  rows: number,
  cols: number,
): { u1: [number, number]; u2: [number, number] | null; correlation: number } | null {
  let size = 1;
  while (size < 2 * Math.max(rows, cols)) size <<= 1;
  const re = new Float64Array(size * size);
  const im = new Float64Array(size * size);
  let mean = 0;
  for (let i = 0; i < rows * cols; i++) mean += values[i]! / (rows * cols);
  for (let y = 0; y < rows; y++) for (let x = 0; x < cols; x++) re[y * size + x] = values[y * cols + x]! - mean;
  fft2(
    re,
    im,
    size,
    false,
    (y) => y < rows,
    () => true,
  );
  for (let i = 0; i < re.length; i++) {
    re[i] = re[i]! * re[i]! + im[i]! * im[i]!;
    im[i] = 0;
  }
  fft2(
    re,
    im,
    size,
    true,
    () => true,
    (y) => y <= rows >> 1 || y >= size - (rows >> 1),
  );
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
  const second = peaks.find(
    (p) =>
      p !== first &&
      p.v >= LATTICE_MIN_CORRELATION &&
      Math.abs(p.dx * first.dy - p.dy * first.dx) >= 0.34 * Math.hypot(p.dx, p.dy) * Math.hypot(first.dx, first.dy),
  );
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
export function latticeAverage(
  values: Float64Array,
  rows: number,
  cols: number,
  u1: [number, number],
  u2: [number, number] | null,
  reach: number,
): Float64Array {
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
