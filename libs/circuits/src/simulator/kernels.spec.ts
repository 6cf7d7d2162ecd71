import { applyControlled1, applyDense1, applyDenseK, applyDiagonalK, applyPhaseOnOnes } from './kernels.js';
import { createRng } from './rng.js';

/** Reference: apply a dense k-qubit matrix (controls all 1) by brute force. */
function reference(s: Float64Array, n: number, controls: number[], qubits: number[], m: Float64Array): Float64Array {
  const out = new Float64Array(s.length);
  const dim = 1 << qubits.length;
  for (let i = 0; i < 1 << n; i++) {
    if (!controls.every((c) => (i >> c) & 1)) {
      out[2 * i] = s[2 * i];
      out[2 * i + 1] = s[2 * i + 1];
      continue;
    }
    const row = qubits.reduce((r, q, t) => r | (((i >> q) & 1) << t), 0);
    let re = 0,
      im = 0;
    for (let col = 0; col < dim; col++) {
      let j = i;
      qubits.forEach((q, t) => {
        j = (col >> t) & 1 ? j | (1 << q) : j & ~(1 << q);
      });
      const mr = m[2 * (row * dim + col)],
        mi = m[2 * (row * dim + col) + 1];
      re += mr * s[2 * j] - mi * s[2 * j + 1];
      im += mr * s[2 * j + 1] + mi * s[2 * j];
    }
    out[2 * i] = re;
    out[2 * i + 1] = im;
  }
  return out;
}

const random = (len: number, seed: number) => {
  const rng = createRng(seed);
  return Float64Array.from({ length: len }, () => rng.next() - 0.5);
};

describe('kernels', () => {
  it.each([1, 2, 3, 9, 11])('applies a dense single-qubit gate on every qubit of %i-qubit states (every stream layout)', (n) => {
    const m = random(8, 3);
    for (let q = 0; q < n; q++) {
      const s = random(2 << n, 10 + q);
      const expected = reference(s, n, [], [q], m);
      applyDense1(s, n, q, m);
      s.forEach((v, i) => {
        expect(v).toBeCloseTo(expected[i], 12);
      });
    }
  });

  it('applies controlled, diagonal and dense k-qubit gates like the reference', () => {
    const n = 6;
    const m1 = random(8, 1);
    const m2 = random(32, 2);
    const d = random(8, 4);
    let s = random(2 << n, 5);
    let e = reference(s, n, [1, 4], [2], m1);
    applyControlled1(s, n, [1, 4], 2, m1);
    s.forEach((v, i) => {
      expect(v).toBeCloseTo(e[i], 12);
    });
    s = random(2 << n, 6);
    e = reference(s, n, [0], [5, 2], m2);
    applyDenseK(s, n, [0], [5, 2], m2, new Float64Array(8));
    s.forEach((v, i) => {
      expect(v).toBeCloseTo(e[i], 12);
    });
    s = random(2 << n, 7);
    const diag = new Float64Array(32);
    for (let j = 0; j < 4; j++) {
      diag[2 * (j * 4 + j)] = d[2 * j];
      diag[2 * (j * 4 + j) + 1] = d[2 * j + 1];
    }
    e = reference(s, n, [3], [1, 0], diag);
    applyDiagonalK(s, n, [3], [1, 0], d);
    s.forEach((v, i) => {
      expect(v).toBeCloseTo(e[i], 12);
    });
    s = random(2 << n, 8);
    const phase = new Float64Array([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.6, 0.8]);
    for (let j = 1; j < 3; j++) phase[2 * (j * 4 + j)] = 1;
    e = reference(s, n, [], [2, 5], phase);
    applyPhaseOnOnes(s, n, [2, 5], 0.6, 0.8);
    s.forEach((v, i) => {
      expect(v).toBeCloseTo(e[i], 12);
    });
  });
});
