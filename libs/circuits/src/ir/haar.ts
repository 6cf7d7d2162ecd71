/**
 * Haar-random unitaries for tests and benchmarks (Mezzadri, "How to generate random matrices from the classical
 * compact groups", Notices AMS 54, 592, 2007): QR of a complex Ginibre matrix with R's diagonal made positive —
 * Gram–Schmidt on the columns does exactly that.
 */
import type { Matrix } from './complex-matrix.js';
import type { Rng } from '../simulator/rng.js';

/** A standard normal deviate (Box–Muller). */
export const gaussian = (rng: Rng): number => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());

/** A Haar-random unitary on `n` qubits (2ⁿ × 2ⁿ, row-major interleaved re/im). */
export function haarUnitary(n: number, rng: Rng): Matrix {
  const N = 1 << n;
  const cols = Array.from({ length: N }, () => Float64Array.from({ length: 2 * N }, () => gaussian(rng)));
  for (let j = 0; j < N; j++) {
    for (let i = 0; i < j; i++) {
      let re = 0;
      let im = 0;
      for (let k = 0; k < 2 * N; k += 2) {
        re += cols[i][k] * cols[j][k] + cols[i][k + 1] * cols[j][k + 1];
        im += cols[i][k] * cols[j][k + 1] - cols[i][k + 1] * cols[j][k];
      }
      for (let k = 0; k < 2 * N; k += 2) {
        cols[j][k] -= re * cols[i][k] - im * cols[i][k + 1];
        cols[j][k + 1] -= re * cols[i][k + 1] + im * cols[i][k];
      }
    }
    const norm = Math.hypot(...cols[j]);
    for (let k = 0; k < 2 * N; k++) cols[j][k] /= norm;
  }
  const m = new Float64Array(2 * N * N);
  for (let c = 0; c < N; c++)
    for (let r = 0; r < N; r++) {
      m[2 * (r * N + c)] = cols[c][2 * r];
      m[2 * (r * N + c) + 1] = cols[c][2 * r + 1];
    }
  return m;
}
