/**
 * The expected answers of the assistant eval, computed from each algorithm's analysis with small
 * dense linear algebra written here (not with libs/circuits or the assistant), so the grader does
 * not share the code it grades. Indices are little-endian: qubit 0 is the least-significant bit,
 * bitstring keys print qubit 0 rightmost.
 */

/** A complex number [re, im]. */
export type C = [number, number];
/** A square matrix, rows of complex entries. */
export type Matrix = C[][];
export type Distribution = Record<string, number>;

export const cmul = (a: C, b: C): C => [a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0]];
export const cadd = (a: C, b: C): C => [a[0] + b[0], a[1] + b[1]];
export const expi = (t: number): C => [Math.cos(t), Math.sin(t)];
const R = Math.SQRT1_2;

export const key = (value: number, width: number): string => value.toString(2).padStart(width, '0');
export const one = (k: string): Distribution => ({ [k]: 1 });
export const equal = (keys: string[]): Distribution => Object.fromEntries(keys.map((k) => [k, 1 / keys.length]));
export const allKeys = (n: number): string[] => Array.from({ length: 1 << n }, (_, i) => key(i, n));
/** A Cirq-order bitstring (qubit 0 leftmost, as Cirq prints measurement arrays and Dirac kets) as a grader key. */
export const cirqBits = (bits: string): string => [...bits].reverse().join('');

export function identity(d: number): Matrix {
  return Array.from({ length: d }, (_, i) => Array.from({ length: d }, (_, j): C => (i === j ? [1, 0] : [0, 0])));
}

export function matmul(a: Matrix, b: Matrix): Matrix {
  const d = a.length;
  const out: Matrix = Array.from({ length: d }, () => Array.from({ length: d }, (): C => [0, 0]));
  for (let i = 0; i < d; i++)
    for (let k = 0; k < d; k++) {
      const aik = a[i][k];
      if (aik[0] === 0 && aik[1] === 0) continue;
      for (let j = 0; j < d; j++) out[i][j] = cadd(out[i][j], cmul(aik, b[k][j]));
    }
  return out;
}

/** a ⊗ b with a on the higher qubits (little-endian: `kron(high, low)`). */
export function kron(a: Matrix, b: Matrix): Matrix {
  const da = a.length;
  const db = b.length;
  const out: Matrix = Array.from({ length: da * db }, () => Array.from({ length: da * db }, (): C => [0, 0]));
  for (let i = 0; i < da; i++)
    for (let j = 0; j < da; j++) for (let k = 0; k < db; k++) for (let l = 0; l < db; l++) out[i * db + k][j * db + l] = cmul(a[i][j], b[k][l]);
  return out;
}

export const PAULI: Record<'I' | 'X' | 'Y' | 'Z', Matrix> = {
  I: identity(2),
  X: [
    [
      [0, 0],
      [1, 0],
    ],
    [
      [1, 0],
      [0, 0],
    ],
  ],
  Y: [
    [
      [0, 0],
      [0, -1],
    ],
    [
      [0, 1],
      [0, 0],
    ],
  ],
  Z: [
    [
      [1, 0],
      [0, 0],
    ],
    [
      [0, 0],
      [-1, 0],
    ],
  ],
};

/** The matrix of a Pauli string on n qubits, given as {qubit: 'X' | 'Y' | 'Z'}. */
export function pauliString(n: number, ops: Record<number, 'X' | 'Y' | 'Z'>): Matrix {
  let m: Matrix = [[[1, 0]]];
  for (let q = n - 1; q >= 0; q--) m = kron(m, PAULI[ops[q] ?? 'I']);
  return m;
}

export function scale(m: Matrix, s: C): Matrix {
  return m.map((row) => row.map((v) => cmul(v, s)));
}

export function add(a: Matrix, b: Matrix): Matrix {
  return a.map((row, i) => row.map((v, j) => cadd(v, b[i][j])));
}

/** A Hamiltonian Σ c·P as a matrix. */
export function hamiltonian(n: number, terms: [number, Record<number, 'X' | 'Y' | 'Z'>][]): Matrix {
  let h: Matrix = scale(identity(1 << n), [0, 0]);
  for (const [c, ops] of terms) h = add(h, scale(pauliString(n, ops), [c, 0]));
  return h;
}

/** exp(−i·H·t) by scaling and squaring of the Taylor series (H small and Hermitian). */
export function evolve(h: Matrix, t: number): Matrix {
  let norm = 0;
  for (const row of h)
    norm = Math.max(
      norm,
      row.reduce((s, v) => s + Math.hypot(v[0], v[1]), 0),
    );
  const squarings = Math.max(0, Math.ceil(Math.log2(Math.max(1e-12, norm * Math.abs(t)) * 8)));
  const a = scale(h, [0, -t / 2 ** squarings]);
  const d = h.length;
  let term = identity(d);
  let sum = identity(d);
  for (let k = 1; k <= 20; k++) {
    term = scale(matmul(term, a), [1 / k, 0]);
    sum = add(sum, term);
  }
  for (let s = 0; s < squarings; s++) sum = matmul(sum, sum);
  return sum;
}

/** A little-endian matrix from one written for Cirq's order (qubit 0 the most significant). */
export function fromBigEndian(m: Matrix): Matrix {
  const d = m.length;
  const n = Math.log2(d);
  const rev = (i: number) => {
    let r = 0;
    for (let b = 0; b < n; b++) if ((i >> b) & 1) r |= 1 << (n - 1 - b);
    return r;
  };
  return m.map((_, i) => m.map((__, j) => m[rev(i)][rev(j)]));
}

export function diagonal(values: C[]): Matrix {
  return values.map((v, i) => values.map((_, j): C => (i === j ? v : [0, 0])));
}

/** The 2^n QFT: |x⟩ → Σ_k e^{2πi xk/N}|k⟩/√N (Qiskit's QFT with its final swaps), or its inverse. */
export function qftMatrix(n: number, inverse = false): Matrix {
  const N = 1 << n;
  const s = inverse ? -1 : 1;
  return Array.from({ length: N }, (_, k) =>
    Array.from({ length: N }, (_, x): C => {
      const [re, im] = expi((s * 2 * Math.PI * x * k) / N);
      return [re / Math.sqrt(N), im / Math.sqrt(N)];
    }),
  );
}

/** A matrix acting on `qubits` (little-endian within the list) of an n-qubit register. */
export function embed(n: number, gate: Matrix, qubits: number[]): Matrix {
  const N = 1 << n;
  const out: Matrix = Array.from({ length: N }, () => Array.from({ length: N }, (): C => [0, 0]));
  for (let col = 0; col < N; col++) {
    let sub = 0;
    qubits.forEach((q, i) => {
      sub |= ((col >> q) & 1) << i;
    });
    for (let r = 0; r < gate.length; r++) {
      let row = col;
      qubits.forEach((q, i) => {
        row = (row & ~(1 << q)) | (((r >> i) & 1) << q);
      });
      out[row][col] = cadd(out[row][col], gate[r][sub]);
    }
  }
  return out;
}

export const H: Matrix = [
  [
    [R, 0],
    [R, 0],
  ],
  [
    [R, 0],
    [-R, 0],
  ],
];
export const rx = (t: number): Matrix => [
  [
    [Math.cos(t / 2), 0],
    [0, -Math.sin(t / 2)],
  ],
  [
    [0, -Math.sin(t / 2)],
    [Math.cos(t / 2), 0],
  ],
];
export const ry = (t: number): Matrix => [
  [
    [Math.cos(t / 2), 0],
    [-Math.sin(t / 2), 0],
  ],
  [
    [Math.sin(t / 2), 0],
    [Math.cos(t / 2), 0],
  ],
];
/** Qiskit's U(θ, φ, λ). */
export const u3 = (t: number, p: number, l: number): Matrix => [
  [[Math.cos(t / 2), 0], cmul(expi(l), [-Math.sin(t / 2), 0])],
  [cmul(expi(p), [Math.sin(t / 2), 0]), cmul(expi(p + l), [Math.cos(t / 2), 0])],
];
/** |1⟩⟨1| ⊗ U + |0⟩⟨0| ⊗ I with the control on qubit 0, target qubit 1 (little-endian, 4×4). */
export function controlled(u: Matrix): Matrix {
  const m = identity(4);
  // index = target·2 + control; the block with control = 1 is indices 1 and 3.
  m[1][1] = u[0][0];
  m[1][3] = u[0][1];
  m[3][1] = u[1][0];
  m[3][3] = u[1][1];
  return m;
}

/** A state vector from amplitudes. */
export function apply(m: Matrix, state: C[]): C[] {
  return m.map((row) => row.reduce((s: C, v, j) => cadd(s, cmul(v, state[j])), [0, 0]));
}

export function distributionOf(state: C[], n: number): Distribution {
  const out: Distribution = {};
  state.forEach((a, i) => {
    const p = a[0] ** 2 + a[1] ** 2;
    if (p > 1e-12) out[key(i, n)] = p;
  });
  return out;
}

/** Grover with k iterations over n qubits and the marked keys: marked states share sin²((2k+1)θ). */
export function grover(n: number, marked: string[], k?: number): Distribution {
  const N = 1 << n;
  const theta = Math.asin(Math.sqrt(marked.length / N));
  const iterations = k ?? Math.max(1, Math.floor(Math.PI / (4 * theta)));
  const p = Math.sin((2 * iterations + 1) * theta) ** 2;
  const out: Distribution = {};
  for (const s of allKeys(n)) {
    const v = marked.includes(s) ? p / marked.length : (1 - p) / (N - marked.length);
    if (v > 1e-12) out[s] = v;
  }
  return out;
}

/** Phase estimation with t counting bits (Nielsen & Chuang eq. 5.26). */
export function qpe(phi: number, t: number): Distribution {
  const T = 1 << t;
  const out: Distribution = {};
  for (let k = 0; k < T; k++) {
    let re = 0;
    let im = 0;
    for (let j = 0; j < T; j++) {
      re += Math.cos(2 * Math.PI * j * (phi - k / T));
      im += Math.sin(2 * Math.PI * j * (phi - k / T));
    }
    const p = (re * re + im * im) / (T * T);
    if (p > 1e-12) out[key(k, t)] = p;
  }
  return out;
}

/** Simon's algorithm: y uniform over {y : y·s = 0 mod 2} (keys and s little-endian strings). */
export function simonSupport(s: string): string[] {
  const n = s.length;
  const sv = parseInt(s, 2);
  return allKeys(n).filter((y) => {
    let v = parseInt(y, 2) & sv;
    let parity = 0;
    while (v) {
      parity ^= v & 1;
      v >>= 1;
    }
    return parity === 0;
  });
}

/** QAOA for MaxCut with cost layers RZZ(2γ) on each edge and mixers RX(2β) on each qubit, from |+…+⟩. */
export function qaoaMaxCut(n: number, edges: [number, number][], gammas: number[], betas: number[]): Distribution {
  const N = 1 << n;
  let state: C[] = Array.from({ length: N }, (): C => [1 / Math.sqrt(N), 0]);
  for (let layer = 0; layer < gammas.length; layer++) {
    state = state.map((a, i) => {
      let phase = 0;
      for (const [u, v] of edges) phase += ((i >> u) & 1) === ((i >> v) & 1) ? -gammas[layer] : gammas[layer];
      return cmul(a, expi(phase));
    });
    for (let q = 0; q < n; q++) state = apply(embed(n, rx(2 * betas[layer]), [q]), state);
  }
  return distributionOf(state, n);
}

/** Both qubits of |Φ+⟩ measured along directions at angles a and b in the X–Z plane (Ry(−θ) then Z). */
export function chsh(a: number, b: number): Distribution {
  const same = Math.cos((a - b) / 2) ** 2 / 2;
  const diff = Math.sin((a - b) / 2) ** 2 / 2;
  return { '00': same, '11': same, '01': diff, '10': diff };
}
