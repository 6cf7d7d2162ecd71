/**
 * Small dense complex matrices as interleaved Float64Array (re, im), row-major. Index bits are
 * little-endian in the gate's argument order: argument j is bit j of a row/column index (Qiskit's
 * convention), so `cx` with arguments (control, target) maps |c=1,t=0⟩ = index 1 to index 3.
 */
export type Matrix = Float64Array;

export const dim = (m: Matrix): number => Math.round(Math.sqrt(m.length / 2));

export function matrix(rows: readonly (readonly (number | readonly [number, number])[])[]): Matrix {
  const n = rows.length;
  const m = new Float64Array(2 * n * n);
  rows.forEach((row, r) => {
    row.forEach((v, c) => {
      const [re, im] = typeof v === 'number' ? [v, 0] : v;
      m[2 * (r * n + c)] = re;
      m[2 * (r * n + c) + 1] = im;
    });
  });
  return m;
}

export const cis = (phi: number): [number, number] => [Math.cos(phi), Math.sin(phi)];

export function identity(n: number): Matrix {
  const m = new Float64Array(2 * n * n);
  for (let i = 0; i < n; i++) m[2 * (i * n + i)] = 1;
  return m;
}

/** a·b */
export function multiply(a: Matrix, b: Matrix): Matrix {
  const n = dim(a);
  const out = new Float64Array(2 * n * n);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      let re = 0;
      let im = 0;
      for (let k = 0; k < n; k++) {
        const ar = a[2 * (r * n + k)];
        const ai = a[2 * (r * n + k) + 1];
        const br = b[2 * (k * n + c)];
        const bi = b[2 * (k * n + c) + 1];
        re += ar * br - ai * bi;
        im += ar * bi + ai * br;
      }
      out[2 * (r * n + c)] = re;
      out[2 * (r * n + c) + 1] = im;
    }
  }
  return out;
}

export function scale(m: Matrix, [re, im]: [number, number]): Matrix {
  const out = new Float64Array(m.length);
  for (let i = 0; i < m.length; i += 2) {
    out[i] = m[i] * re - m[i + 1] * im;
    out[i + 1] = m[i] * im + m[i + 1] * re;
  }
  return out;
}

export function adjoint(m: Matrix): Matrix {
  const n = dim(m);
  const out = new Float64Array(m.length);
  for (let r = 0; r < n; r++)
    for (let c = 0; c < n; c++) {
      out[2 * (c * n + r)] = m[2 * (r * n + c)];
      out[2 * (c * n + r) + 1] = -m[2 * (r * n + c) + 1];
    }
  return out;
}

export function isDiagonal(m: Matrix, tol = 1e-14): boolean {
  const n = dim(m);
  for (let r = 0; r < n; r++)
    for (let c = 0; c < n; c++) if (r !== c && (Math.abs(m[2 * (r * n + c)]) > tol || Math.abs(m[2 * (r * n + c) + 1]) > tol)) return false;
  return true;
}

/** Matrix of `base` with `controls` extra control bits placed below the targets' bits (controls first in argument order). */
export function controlled(base: Matrix, controls: number): Matrix {
  if (controls === 0) return base;
  const nb = dim(base);
  const n = nb << controls;
  const full = (1 << controls) - 1;
  const out = identity(n);
  for (let r = 0; r < nb; r++)
    for (let c = 0; c < nb; c++) {
      const R = (r << controls) | full;
      const C = (c << controls) | full;
      out[2 * (R * n + C)] = base[2 * (r * nb + c)];
      out[2 * (R * n + C) + 1] = base[2 * (r * nb + c) + 1];
    }
  return out;
}

/** The 4×4 product of two 2×2 matrices: a on bit 0, b on bit 1 (little-endian). */
export function kron2(a: Matrix, b: Matrix): Matrix {
  const out = new Float64Array(32);
  for (let r = 0; r < 4; r++)
    for (let c = 0; c < 4; c++) {
      const ar = a[2 * ((r & 1) * 2 + (c & 1))],
        ai = a[2 * ((r & 1) * 2 + (c & 1)) + 1];
      const br = b[2 * ((r >> 1) * 2 + (c >> 1))],
        bi = b[2 * ((r >> 1) * 2 + (c >> 1)) + 1];
      out[2 * (r * 4 + c)] = ar * br - ai * bi;
      out[2 * (r * 4 + c) + 1] = ar * bi + ai * br;
    }
  return out;
}
