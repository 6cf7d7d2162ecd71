/**
 * Dense complex linear algebra for exact gate synthesis (small matrices, interleaved re/im):
 * one-sided Jacobi SVD (Hestenes 1958; Demmel & Veselić, SIAM J. Matrix Anal. Appl. 13, 1204, 1992:
 * columns orthogonal relative to their norms, so tiny singular values keep accurate vectors),
 * cyclic Jacobi eigendecomposition of Hermitian matrices (Golub & Van Loan §8.5, complex form),
 * and eigendecomposition of normal (unitary) matrices by diagonalising a random real combination
 * of their Hermitian and anti-Hermitian parts, checked and retried (as Qiskit's KAK code does).
 */
import { adjoint, dim, multiply, type Matrix } from './complex-matrix.js';
import { createRng } from '../simulator/rng.js';

/** A complex column vector (interleaved). */
export type Vec = Float64Array;

export function column(m: Matrix, c: number): Vec {
  const n = dim(m);
  const v = new Float64Array(2 * n);
  for (let r = 0; r < n; r++) {
    v[2 * r] = m[2 * (r * n + c)];
    v[2 * r + 1] = m[2 * (r * n + c) + 1];
  }
  return v;
}

export function fromColumns(cols: readonly Vec[]): Matrix {
  const n = cols.length;
  const rows = cols[0].length / 2;
  const m = new Float64Array(2 * rows * n);
  for (let c = 0; c < n; c++)
    for (let r = 0; r < rows; r++) {
      m[2 * (r * n + c)] = cols[c][2 * r];
      m[2 * (r * n + c) + 1] = cols[c][2 * r + 1];
    }
  return m;
}

/** The size×size block of `m` starting at (r0, c0). */
export function block(m: Matrix, r0: number, c0: number, size: number): Matrix {
  const n = dim(m);
  const out = new Float64Array(2 * size * size);
  for (let r = 0; r < size; r++)
    for (let c = 0; c < size; c++) {
      out[2 * (r * size + c)] = m[2 * ((r0 + r) * n + c0 + c)];
      out[2 * (r * size + c) + 1] = m[2 * ((r0 + r) * n + c0 + c) + 1];
    }
  return out;
}

/** x†y */
export function dotc(x: Vec, y: Vec): [number, number] {
  let re = 0;
  let im = 0;
  for (let i = 0; i < x.length; i += 2) {
    re += x[i] * y[i] + x[i + 1] * y[i + 1];
    im += x[i] * y[i + 1] - x[i + 1] * y[i];
  }
  return [re, im];
}

const norm2 = (x: Vec): number => {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i] * x[i];
  return s;
};

/** x ← c·x − s·conj(e)·y, y ← s·x + c·conj(e)·y (one Jacobi rotation on a column pair). */
function rotatePair(x: Vec, y: Vec, c: number, s: number, er: number, ei: number): void {
  for (let k = 0; k < x.length; k += 2) {
    const xr = x[k],
      xi = x[k + 1];
    // conj(e)·y
    const yr = er * y[k] + ei * y[k + 1];
    const yi = er * y[k + 1] - ei * y[k];
    x[k] = c * xr - s * yr;
    x[k + 1] = c * xi - s * yi;
    y[k] = s * xr + c * yr;
    y[k + 1] = s * xi + c * yi;
  }
}

/** cos/sin of the Jacobi rotation that zeroes the off-diagonal g of [[α, g], [g, β]]. */
function jacobiAngle(alpha: number, beta: number, g: number): [number, number] {
  const zeta = (beta - alpha) / (2 * g);
  const t = (zeta >= 0 ? 1 : -1) / (Math.abs(zeta) + Math.sqrt(1 + zeta * zeta));
  const c = 1 / Math.sqrt(1 + t * t);
  return [c, c * t];
}

/**
 * One-sided Jacobi: rotates the columns `x` (and the same rotations on `v`) until every pair is
 * orthogonal relative to its norms, |x_i†x_j| ≤ 1e-15·|x_i||x_j|. With v = I on entry, x_out = x_in·v.
 */
export function orthogonalizeColumns(x: Vec[], v: Vec[]): void {
  const k = x.length;
  // Columns below 1e-15 of the whole are rounding noise: rotating them only accumulates error
  // (and subnormal inner products make the phase factor inexact), so they are left for completion.
  const floor = 1e-30 * x.reduce((acc, col) => acc + norm2(col), 0);
  for (let sweep = 0; sweep < 80; sweep++) {
    let rotated = false;
    for (let i = 0; i < k - 1; i++)
      for (let j = i + 1; j < k; j++) {
        const a = norm2(x[i]);
        const b = norm2(x[j]);
        if (a <= floor || b <= floor) continue;
        const [gr, gi] = dotc(x[i], x[j]);
        const g = Math.hypot(gr, gi);
        if (g === 0 || g <= 1e-15 * Math.sqrt(a * b)) continue;
        rotated = true;
        const [c, s] = jacobiAngle(a, b, g);
        rotatePair(x[i], x[j], c, s, gr / g, gi / g);
        rotatePair(v[i], v[j], c, s, gr / g, gi / g);
      }
    if (!rotated) return;
  }
}

/**
 * Unit columns spanning the same flags as `x` taken in `order`: modified Gram–Schmidt (twice),
 * columns with norm ≤ `tiny` replaced by the standard basis vector that is most orthogonal to
 * the ones already chosen (completing an orthonormal basis).
 */
export function orthonormalize(x: readonly Vec[], order: readonly number[], tiny = 1e-13): Vec[] {
  const out: Vec[] = new Array(x.length);
  const done: Vec[] = [];
  const project = (y: Vec): void => {
    for (let pass = 0; pass < 2; pass++)
      for (const q of done) {
        const [pr, pi] = dotc(q, y);
        for (let k = 0; k < y.length; k += 2) {
          y[k] -= pr * q[k] - pi * q[k + 1];
          y[k + 1] -= pr * q[k + 1] + pi * q[k];
        }
      }
  };
  for (const i of order) {
    let y = Float64Array.from(x[i]);
    const before = Math.sqrt(norm2(y));
    project(y);
    let nrm = Math.sqrt(norm2(y));
    if (before <= tiny || nrm <= 1e-3 * before) {
      let best = -1;
      for (let e = 0; e < y.length / 2; e++) {
        const cand = new Float64Array(y.length);
        cand[2 * e] = 1;
        project(cand);
        const cn = Math.sqrt(norm2(cand));
        if (cn > best) {
          best = cn;
          y = cand;
        }
      }
      nrm = best;
    }
    for (let k = 0; k < y.length; k++) y[k] /= nrm;
    out[i] = y;
    done.push(y);
  }
  return out;
}

/** Singular values in decreasing order; a = u·diag(s)·v† with u, v unitary. */
export function svd(a: Matrix): { u: Matrix; s: number[]; v: Matrix } {
  const n = dim(a);
  const x = Array.from({ length: n }, (_, c) => column(a, c));
  const v = Array.from({ length: n }, (_, c) => {
    const e = new Float64Array(2 * n);
    e[2 * c] = 1;
    return e;
  });
  orthogonalizeColumns(x, v);
  const norms = x.map((col) => Math.sqrt(norm2(col)));
  const order = norms.map((_, i) => i).sort((p, q) => norms[q] - norms[p]);
  const u = orthonormalize(x, order);
  return { u: fromColumns(order.map((i) => u[i])), s: order.map((i) => norms[i]), v: fromColumns(order.map((i) => v[i])) };
}

/** The unitary nearest to `a` in Frobenius norm (polar factor u·v†). */
export function nearestUnitary(a: Matrix): Matrix {
  const { u, v } = svd(a);
  return multiply(u, adjoint(v));
}

/** Eigenvalues and eigenvectors (columns of `vectors`) of a Hermitian matrix: cyclic complex Jacobi. */
export function hermitianEigen(h: Matrix): { values: number[]; vectors: Matrix } {
  const n = dim(h);
  const a = Float64Array.from(h);
  const v = new Float64Array(2 * n * n);
  for (let i = 0; i < n; i++) v[2 * (i * n + i)] = 1;
  let scale = 0;
  for (let i = 0; i < a.length; i++) scale = Math.max(scale, Math.abs(a[i]));
  for (let sweep = 0; sweep < 80; sweep++) {
    let rotated = false;
    for (let p = 0; p < n - 1; p++)
      for (let q = p + 1; q < n; q++) {
        const ar = a[2 * (p * n + q)],
          ai = a[2 * (p * n + q) + 1];
        const g = Math.hypot(ar, ai);
        if (g <= 1e-17 * scale || g === 0) continue;
        rotated = true;
        const er = ar / g,
          ei = ai / g;
        const [c, s] = jacobiAngle(a[2 * (p * n + p)], a[2 * (q * n + q)], g);
        // columns: A ← A·G and V ← V·G
        for (const m of [a, v])
          for (let k = 0; k < n; k++) {
            const xr = m[2 * (k * n + p)],
              xi = m[2 * (k * n + p) + 1];
            const yr0 = m[2 * (k * n + q)],
              yi0 = m[2 * (k * n + q) + 1];
            const yr = er * yr0 + ei * yi0;
            const yi = er * yi0 - ei * yr0;
            m[2 * (k * n + p)] = c * xr - s * yr;
            m[2 * (k * n + p) + 1] = c * xi - s * yi;
            m[2 * (k * n + q)] = s * xr + c * yr;
            m[2 * (k * n + q) + 1] = s * xi + c * yi;
          }
        // rows: A ← G†·A; row p ← c·p − s·e·q, row q ← s·p + c·e·q
        for (let k = 0; k < n; k++) {
          const xr = a[2 * (p * n + k)],
            xi = a[2 * (p * n + k) + 1];
          const yr0 = a[2 * (q * n + k)],
            yi0 = a[2 * (q * n + k) + 1];
          const yr = er * yr0 - ei * yi0;
          const yi = er * yi0 + ei * yr0;
          a[2 * (p * n + k)] = c * xr - s * yr;
          a[2 * (p * n + k) + 1] = c * xi - s * yi;
          a[2 * (q * n + k)] = s * xr + c * yr;
          a[2 * (q * n + k) + 1] = s * xi + c * yi;
        }
        a[2 * (p * n + q)] = a[2 * (p * n + q) + 1] = a[2 * (q * n + p)] = a[2 * (q * n + p) + 1] = 0;
      }
    if (!rotated) break;
  }
  return { values: Array.from({ length: n }, (_, i) => a[2 * (i * n + i)]), vectors: v };
}

/** Largest off-diagonal modulus of v†·m·v (how well v diagonalises m) and its diagonal. */
export function diagonalIn(m: Matrix, v: Matrix): { offDiagonal: number; diagonal: [number, number][] } {
  const n = dim(m);
  const d = multiply(adjoint(v), multiply(m, v));
  let off = 0;
  const diagonal: [number, number][] = [];
  for (let r = 0; r < n; r++)
    for (let c = 0; c < n; c++) {
      if (r === c) diagonal.push([d[2 * (r * n + c)], d[2 * (r * n + c) + 1]]);
      else off = Math.max(off, Math.hypot(d[2 * (r * n + c)], d[2 * (r * n + c) + 1]));
    }
  return { offDiagonal: off, diagonal };
}

/**
 * Eigendecomposition m = v·diag(values)·v† of a normal matrix (here: unitary, or complex symmetric
 * unitary with `real` = true, when v is real orthogonal): v diagonalises x·H1 + y·H2 for
 * H1 = (m + m†)/2, H2 = (m − m†)/2i (or the real and imaginary parts), which commute; degenerate
 * eigenvalues of one part are split by the other. Seeded, retried until v†mv is diagonal.
 */
export function normalEigen(m: Matrix, real = false, tol = 1e-12): { values: [number, number][]; vectors: Matrix } {
  const n = dim(m);
  const h1 = new Float64Array(m.length);
  const h2 = new Float64Array(m.length);
  for (let r = 0; r < n; r++)
    for (let c = 0; c < n; c++) {
      const i = 2 * (r * n + c);
      if (real) {
        h1[i] = m[i];
        h2[i] = m[i + 1];
      } else {
        const j = 2 * (c * n + r);
        // H1 = (m + m†)/2, H2 = (m − m†)/(2i)
        h1[i] = (m[i] + m[j]) / 2;
        h1[i + 1] = (m[i + 1] - m[j + 1]) / 2;
        h2[i] = (m[i + 1] + m[j + 1]) / 2;
        h2[i + 1] = -(m[i] - m[j]) / 2;
      }
    }
  const rng = createRng(20_04);
  let best: { values: [number, number][]; vectors: Matrix; off: number } | undefined;
  for (let attempt = 0; attempt < 20; attempt++) {
    const x = attempt === 0 ? 1 : rng.next() * 2 - 1;
    const y = attempt === 0 ? Math.SQRT2 / 1.7 : rng.next() * 2 - 1;
    const k = new Float64Array(m.length);
    for (let i = 0; i < k.length; i++) k[i] = x * h1[i] + y * h2[i];
    const { vectors } = hermitianEigen(k);
    const { offDiagonal, diagonal } = diagonalIn(m, vectors);
    if (!best || offDiagonal < best.off) best = { values: diagonal, vectors, off: offDiagonal };
    if (offDiagonal <= tol) break;
  }
  return { values: best!.values, vectors: best!.vectors };
}
