/**
 * Exact synthesis of arbitrary unitaries and state vectors into standard gates (u, rx, ry, rz, h, cx),
 * so matrix gates and state preparations reach every emitter, the simulator and the QPU compiler.
 *
 * - 1 qubit: ZYZ Euler angles, U = e^{iγ}·u(θ, φ, λ), read from U/√det U (zyzAngles below; the
 *   convention of eulerAngles in gates.ts, computed so that no tiny entry's phase reaches a large one).
 * - 2 qubits: KAK / Cartan decomposition in the magic basis (Kraus & Cirac, PRA 63, 062309, 2001;
 *   Shende, Markov & Bullock, PRA 69, 062321, 2004), U = (A1⊗B1)·exp(i(aXX+bYY+cZZ))·(A2⊗B2),
 *   with the non-local part built from 3 CX (Vatan & Williams, PRA 69, 032315, 2004, Fig. 6), or
 *   from 2, 1 or 0 when the coordinates (a, b, c) allow (one of them 0 mod π/2; (±π/4, 0, 0)).
 * - n qubits: quantum Shannon decomposition (Shende, Bullock & Markov, IEEE TCAD 25, 1000, 2006):
 *   cosine–sine decomposition on the top qubit, demultiplexing of the block-diagonal factors,
 *   uniformly controlled rotations as Gray-code CX ladders (Möttönen et al., PRL 93, 130502, 2004);
 *   2-qubit blocks synthesized up to a diagonal with 2 CX, the diagonal merged into the next block
 *   (SBM 2006 §A.2, real-trace condition of Shende, Bullock & Markov, PRA 70, 012310, 2004), and the
 *   Ry multiplexor's last CZ merged into the following block (§A.1).
 * - State preparation: uniformly controlled Ry (magnitudes) and Rz (phases) from the top qubit down
 *   (Möttönen et al., QIC 5, 467, 2005; Shende, Bullock & Markov 2006 §4; Plesch & Brukner, PRA 83, 032302, 2011).
 *
 * Qubit convention: Qiskit little-endian, qubit 0 = least-significant bit of the matrix index.
 */
import { CircuitError } from '../errors.js';
import { LruCache } from '#qdc/collections';
import { adjoint, dim, identity, kron2, matrix, multiply, type Matrix } from './complex-matrix.js';
import type { GateOp } from './circuit.js';
import { evalExpr, num } from './expr.js';
import { gateMatrix, STANDARD_GATES } from './gates.js';
import { block, column, dotc, fromColumns, nearestUnitary, normalEigen, orthogonalizeColumns, orthonormalize, type Vec } from './linalg.js';

/** A complex number as [re, im]. */
export type Complex = readonly [number, number];

/** Largest matrix (in qubits) synthesizeUnitary accepts. */
export const MAX_SYNTHESIS_QUBITS = 6;
/** Largest state (in qubits) synthesizeStatePreparation accepts. */
export const MAX_STATE_PREPARATION_QUBITS = 12;

const log2Exact = (n: number): number => {
  const k = Math.round(Math.log2(n));
  return n >= 1 && 2 ** k === n ? k : -1;
};

/** Throws a 422-type CircuitError unless `m` is square with a power-of-two size and |U†U − I| ≤ tol. */
export function checkUnitary(m: Matrix, what: string, tol = 1e-8): void {
  const n = dim(m);
  if (n * n * 2 !== m.length || log2Exact(n) < 0) {
    throw new CircuitError('semantic', `${what} must be a square matrix whose size is a power of two; got ${m.length / 2} entries`);
  }
  for (let i = 0; i < m.length; i++) {
    if (!Number.isFinite(m[i])) throw new CircuitError('semantic', `${what} has a non-finite entry`);
  }
  const p = multiply(adjoint(m), m);
  let dev = 0;
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) dev = Math.max(dev, Math.hypot(p[2 * (r * n + c)] - (r === c ? 1 : 0), p[2 * (r * n + c) + 1]));
  if (!(dev <= tol)) {
    throw new CircuitError('semantic', `${what} (${n}×${n}) is not unitary: max |U†U − I| = ${dev.toExponential(2)} exceeds the tolerance ${tol}`);
  }
}

const gate = (name: string, qubits: number[], params: number[] = []): GateOp => ({ kind: 'gate', name, qubits, params: params.map(num) });

interface Synthesis {
  ops: GateOp[];
  globalPhase: number;
}

const argOf = (re: number, im: number): number => Math.atan2(im, re);

// ---------------------------------------------------------------- two qubits (KAK)

const S2 = Math.SQRT1_2;
/** Magic (Bell) basis, columns: B† (A⊗B) B is real orthogonal for A, B ∈ SU(2). */
const MAGIC = matrix([
  [[S2, 0], 0, 0, [0, S2]],
  [0, [0, S2], [S2, 0], 0],
  [0, [0, S2], [-S2, 0], 0],
  [[S2, 0], 0, 0, [0, -S2]],
]);
const MAGIC_DG = adjoint(MAGIC);
const PAULI = {
  x: matrix([
    [0, 1],
    [1, 0],
  ]),
  y: matrix([
    [0, [0, -1]],
    [[0, 1], 0],
  ]),
  z: matrix([
    [1, 0],
    [0, -1],
  ]),
};
/** Diagonals (±1) of XX, YY, ZZ in the magic basis. */
const MAGIC_SIGNS = (['x', 'y', 'z'] as const).map((p) => {
  const d = multiply(MAGIC_DG, multiply(kron2(PAULI[p], PAULI[p]), MAGIC));
  return [0, 1, 2, 3].map((i) => Math.sign(d[2 * (i * 4 + i)]));
});

function det(m: Matrix): [number, number] {
  const n = dim(m);
  const a = Float64Array.from(m);
  let dr = 1;
  let di = 0;
  for (let k = 0; k < n; k++) {
    let p = k;
    for (let r = k + 1; r < n; r++) if (Math.hypot(a[2 * (r * n + k)], a[2 * (r * n + k) + 1]) > Math.hypot(a[2 * (p * n + k)], a[2 * (p * n + k) + 1])) p = r;
    if (p !== k) {
      for (let c = 0; c < 2 * n; c++) [a[2 * k * n + c], a[2 * p * n + c]] = [a[2 * p * n + c], a[2 * k * n + c]];
      dr = -dr;
      di = -di;
    }
    const pr = a[2 * (k * n + k)],
      pi = a[2 * (k * n + k) + 1];
    [dr, di] = [dr * pr - di * pi, dr * pi + di * pr];
    const pp = pr * pr + pi * pi;
    if (pp === 0) return [0, 0];
    for (let r = k + 1; r < n; r++) {
      const xr = a[2 * (r * n + k)],
        xi = a[2 * (r * n + k) + 1];
      const fr = (xr * pr + xi * pi) / pp,
        fi = (xi * pr - xr * pi) / pp;
      for (let c = k; c < n; c++) {
        const yr = a[2 * (k * n + c)],
          yi = a[2 * (k * n + c) + 1];
        a[2 * (r * n + c)] -= fr * yr - fi * yi;
        a[2 * (r * n + c) + 1] -= fr * yi + fi * yr;
      }
    }
  }
  return [dr, di];
}

/** A 4×4 matrix m ≈ a⊗b (a on qubit 0) with the deviation |m − a⊗b|. */
function tensorFactor(m: Matrix): { a: Matrix; b: Matrix; error: number } {
  // Blocks m_{(i,j)} = b_ij·a over the qubit-1 indices i, j; a from the largest block, scaled to det 1.
  let best = -1;
  let bi = 0,
    bj = 0;
  const sub = (i: number, j: number): Matrix => {
    const out = new Float64Array(8);
    for (let r = 0; r < 2; r++)
      for (let c = 0; c < 2; c++) {
        out[2 * (r * 2 + c)] = m[2 * ((2 * i + r) * 4 + 2 * j + c)];
        out[2 * (r * 2 + c) + 1] = m[2 * ((2 * i + r) * 4 + 2 * j + c) + 1];
      }
    return out;
  };
  for (let i = 0; i < 2; i++)
    for (let j = 0; j < 2; j++) {
      const s = sub(i, j).reduce((acc, v) => acc + v * v, 0);
      if (s > best) [best, bi, bj] = [s, i, j];
    }
  const blk = sub(bi, bj);
  const [dr, di] = det(blk);
  const dm = Math.sqrt(Math.hypot(dr, di));
  const dp = argOf(dr, di) / 2;
  const a = new Float64Array(8);
  // a = blk / sqrt(det blk)
  const sr = Math.cos(-dp) / dm,
    si = Math.sin(-dp) / dm;
  for (let k = 0; k < 8; k += 2) {
    a[k] = blk[k] * sr - blk[k + 1] * si;
    a[k + 1] = blk[k] * si + blk[k + 1] * sr;
  }
  const b = new Float64Array(8);
  for (let i = 0; i < 2; i++)
    for (let j = 0; j < 2; j++) {
      // b_ij = tr(a† m_ij)/2
      const [re, im] = dotc(a, sub(i, j));
      b[2 * (i * 2 + j)] = re / 2;
      b[2 * (i * 2 + j) + 1] = im / 2;
    }
  const prod = kron2(a, b);
  let error = 0;
  for (let k = 0; k < 32; k++) error = Math.max(error, Math.abs(prod[k] - m[k]));
  return { a, b, error };
}

/**
 * ZYZ angles m = e^{iγ}·u(θ, φ, λ) read from the SU(2) part V = m/√det m: (φ+λ)/2 from the
 * diagonal, (φ−λ)/2 from the off-diagonal, each from both entries, so an angle read from an entry
 * near zero only multiplies entries near zero (the phases of tiny entries are not propagated to
 * large ones, which keeps the product exact to rounding for every input).
 */
export function zyzAngles(m: Matrix): { theta: number; phi: number; lambda: number; gamma: number } {
  const dr = m[0] * m[6] - m[1] * m[7] - (m[2] * m[4] - m[3] * m[5]);
  const di = m[0] * m[7] + m[1] * m[6] - (m[2] * m[5] + m[3] * m[4]);
  const psi = argOf(dr, di) / 2;
  const c = Math.cos(-psi),
    s = Math.sin(-psi);
  const v = (k: number): [number, number] => [m[k] * c - m[k + 1] * s, m[k] * s + m[k + 1] * c];
  const [v00r, v00i] = v(0);
  const [v01r, v01i] = v(2);
  const [v10r, v10i] = v(4);
  const [v11r, v11i] = v(6);
  const sigma = argOf(v11r + v00r, v11i - v00i);
  const delta = argOf(v10r - v01r, v10i + v01i);
  const theta = 2 * Math.atan2(Math.hypot(v10r, v10i) + Math.hypot(v01r, v01i), Math.hypot(v00r, v00i) + Math.hypot(v11r, v11i));
  return { theta, phi: sigma + delta, lambda: sigma - delta, gamma: psi - sigma };
}

const u1q = (q: number, m: Matrix): GateOp => {
  const { theta, phi, lambda } = zyzAngles(m);
  return gate('u', [q], [theta, phi, lambda]);
};

/**
 * Two-qubit KAK: U = e^{iδ/4}·K1·B·diag(e^{iθ_j})·B†·K2 with K1, K2 ∈ SU(2)⊗SU(2) from the real
 * orthogonal diagonalisation of M = (B†UB)ᵀ(B†UB) (Kraus–Cirac 2001), the canonical part
 * exp(i(aXX + bYY + cZZ)) from θ, built with 3 CX (Vatan–Williams 2004 Fig. 6). A tensor-product
 * U needs no CX, special canonical parts fewer than 3 (canonicalCircuit). Gates on qubits 0 and 1;
 * the phase comes from the final check.
 */
function synthesizeTwo(u: Matrix): GateOp[] {
  const local = tensorFactor(u);
  if (local.error < 1e-13) return [u1q(0, local.a), u1q(1, local.b)];
  const [dr, di] = det(u);
  const delta = argOf(dr, di) / 4;
  const us = new Float64Array(32);
  for (let k = 0; k < 32; k += 2) {
    us[k] = u[k] * Math.cos(delta) + u[k + 1] * Math.sin(delta);
    us[k + 1] = u[k + 1] * Math.cos(delta) - u[k] * Math.sin(delta);
  }
  const up = multiply(MAGIC_DG, multiply(us, MAGIC));
  // M = upᵀ·up
  const upT = new Float64Array(32);
  for (let r = 0; r < 4; r++)
    for (let c = 0; c < 4; c++) {
      upT[2 * (c * 4 + r)] = up[2 * (r * 4 + c)];
      upT[2 * (c * 4 + r) + 1] = up[2 * (r * 4 + c) + 1];
    }
  const mm = multiply(upT, up);
  const { values, vectors } = normalEigen(mm, true);
  const p = new Float64Array(32);
  for (let k = 0; k < 32; k += 2) p[k] = vectors[k];
  // det P = +1
  if (det(p)[0] < 0) for (let r = 0; r < 4; r++) p[2 * (r * 4)] = -p[2 * (r * 4)];
  const theta = values.map(([re, im]) => argOf(re, im) / 2);
  let sum = theta.reduce((x, y) => x + y, 0);
  sum = ((sum % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
  if (Math.abs(sum - Math.PI) < 1) theta[0] += Math.PI;
  // K1' = up·P·diag(e^{−iθ}), K2' = Pᵀ
  const dinv = new Float64Array(32);
  theta.forEach((t, i) => {
    dinv[2 * (i * 4 + i)] = Math.cos(t);
    dinv[2 * (i * 4 + i) + 1] = -Math.sin(t);
  });
  const k1p = multiply(up, multiply(p, dinv));
  const pT = new Float64Array(32);
  for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) pT[2 * (c * 4 + r)] = p[2 * (r * 4 + c)];
  const k1 = tensorFactor(multiply(MAGIC, multiply(k1p, MAGIC_DG)));
  const k2 = tensorFactor(multiply(MAGIC, multiply(pT, MAGIC_DG)));
  const coords = MAGIC_SIGNS.map((sgn) => theta.reduce((acc, t, i) => acc + t * sgn[i], 0) / 4);
  // exp(iθ·PP) = exp(i(θ − kπ/2)·PP)·(i·PP)^k: reduce each coordinate to [−π/4, π/4], the Pauli
  // factors (P⊗P for odd k) go into K2.
  const hp = Math.PI / 2;
  let pauli = identity(2);
  const reduced = coords.map((t, i) => {
    const k = Math.round(t / hp);
    if (k % 2 !== 0) pauli = multiply(PAULI[(['x', 'y', 'z'] as const)[i]], pauli);
    return t - k * hp;
  });
  return [u1q(0, multiply(pauli, k2.a)), u1q(1, multiply(pauli, k2.b)), ...canonicalCircuit(reduced), u1q(0, k1.a), u1q(1, k1.b)];
}

/** exp(i(a·XX + b·YY + c·ZZ)) as a 4×4 matrix (the three factors commute). */
function canonicalMatrix([a, b, c]: readonly number[]): Matrix {
  let m = identity(4);
  [a, b, c].forEach((t, i) => {
    const pp = kron2(PAULI[(['x', 'y', 'z'] as const)[i]], PAULI[(['x', 'y', 'z'] as const)[i]]);
    const e = new Float64Array(32);
    for (let k = 0; k < 16; k++) {
      e[2 * k] = (k % 5 === 0 ? Math.cos(t) : 0) - Math.sin(t) * pp[2 * k + 1];
      e[2 * k + 1] = Math.sin(t) * pp[2 * k];
    }
    m = multiply(e, m);
  });
  return m;
}

/** Coordinates below this are zero (the canonical part is exact to it). */
const COORDINATE_TOL = 1e-13;

/**
 * Gates equal to exp(i(a·XX + b·YY + c·ZZ)) up to phase, coordinates in [−π/4, π/4], with the
 * fewest CX of: none (all zero); 1 (one coordinate ±π/4: CX = H·exp(∓iπ/4 Z)⊗exp(∓iπ/4 X)·exp(±iπ/4 ZX)·H
 * up to locals); 2 (a coordinate zero: CX·(Rx(−2α) ⊗ Rz(−2γ))·CX = exp(i(αXX + γZZ)), YY reached
 * by conjugating with Rx(π/2) or Rz(π/2) on both qubits); 3 (Vatan–Williams). Each shortcut is
 * checked against the matrix; the 3-CX circuit is the fallback.
 */
function canonicalCircuit(coords: readonly number[]): GateOp[] {
  const hp = Math.PI / 2;
  const nonzero = [0, 1, 2].filter((i) => Math.abs(coords[i]) > COORDINATE_TOL);
  const [a, b, c] = coords;
  const candidates: GateOp[][] = [];
  const conjugate = (l: GateOp | undefined, body: GateOp[]): GateOp[] => {
    if (!l) return body;
    const inverse = (q: number): GateOp => gate(l.name, [q], [-evalExpr(l.params[0])]);
    return [inverse(0), inverse(1), ...body, gate(l.name, [0], [evalExpr(l.params[0])]), gate(l.name, [1], [evalExpr(l.params[0])])];
  };
  if (nonzero.length === 0) return [];
  if (nonzero.length === 1 && Math.abs(Math.abs(coords[nonzero[0]]) - Math.PI / 4) < COORDINATE_TOL) {
    // exp(iθ·XX) for θ = ±π/4; YY, ZZ by the basis change l with l·X·l† = ±Y (Rz(π/2)) or ±Z (Ry(π/2)).
    const axis = nonzero[0];
    const s = -Math.sign(coords[axis]);
    const body = [gate('h', [0]), gate('cx', [0, 1]), gate('rz', [0], [s * hp]), gate('rx', [1], [s * hp]), gate('h', [0])];
    candidates.push(conjugate(axis === 0 ? undefined : gate(axis === 1 ? 'rz' : 'ry', [0], [hp]), body));
  }
  if (nonzero.length <= 2) {
    const pair = (alpha: number, gamma: number): GateOp[] => [
      gate('cx', [0, 1]),
      gate('rx', [0], [-2 * alpha]),
      gate('rz', [1], [-2 * gamma]),
      gate('cx', [0, 1]),
    ];
    if (Math.abs(b) <= COORDINATE_TOL) candidates.push(pair(a, c));
    else if (Math.abs(c) <= COORDINATE_TOL) candidates.push(conjugate(gate('rx', [0], [hp]), pair(a, b)));
    else candidates.push(conjugate(gate('rz', [0], [hp]), pair(b, c)));
  }
  const target = canonicalMatrix(coords);
  for (const candidate of candidates) {
    if (phaseAndDeviation(target, applyOps(candidate, 2, identity(4))).deviation < 1e-12) return candidate;
  }
  return [
    gate('rz', [0], [-hp]),
    gate('cx', [0, 1]),
    gate('rz', [1], [hp - 2 * c]),
    gate('ry', [0], [2 * a - hp]),
    gate('cx', [1, 0]),
    gate('ry', [0], [hp - 2 * b]),
    gate('cx', [0, 1]),
    gate('rz', [1], [hp]),
  ];
}

// ---------------------------------------------------------------- n qubits (QSD)

/** Entries below this are taken as exact zeros when looking for structure (block-diagonal, equal blocks). */
const STRUCTURE_TOL = 1e-14;

const maxAbs = (m: Matrix): number => m.reduce((acc, v) => Math.max(acc, Math.abs(v)), 0);
const maxAbsDifference = (a: Matrix, b: Matrix): number => a.reduce((acc, v, i) => Math.max(acc, Math.abs(v - b[i])), 0);

/**
 * Uniformly controlled rotation (Möttönen et al. 2004): for each value x of the controls
 * (control j = bit j of x), `axis` rotation by angles[x] on `target`; 2^k rotations and 2^k CX in
 * Gray-code order, θ = 2^{−k}·Mᵀα with M_{x,i} = (−1)^{popcount(x ∧ gray(i))}. Equal angles: one rotation.
 * With `openCz` (Ry only) the ladder uses CZ = H·CX·H and the last CZ is not emitted: its control is
 * returned for the caller to merge that diagonal into the next block.
 */
function uniformlyControlled(
  axis: 'ry' | 'rz',
  angles: readonly number[],
  controls: readonly number[],
  target: number,
  out: { push(op: GateOp): unknown },
  openCz = false,
): number | undefined {
  const k = controls.length;
  const size = 1 << k;
  if (angles.every((a) => Math.abs(a - angles[0]) < 1e-15)) {
    if (Math.abs(angles[0]) > 1e-15) out.push(gate(axis, [target], [angles[0]]));
    return undefined;
  }
  const gray = (i: number): number => i ^ (i >> 1);
  // Walsh–Hadamard transform: w[g] = Σ_x (−1)^{popcount(x ∧ g)}·α_x, in O(k·2^k).
  const w = Float64Array.from(angles);
  for (let h = 1; h < size; h <<= 1)
    for (let i = 0; i < size; i += h << 1)
      for (let j = i; j < i + h; j++) {
        const a = w[j];
        const b = w[j + h];
        w[j] = a + b;
        w[j + h] = a - b;
      }
  for (let i = 0; i < size; i++) {
    const theta = w[gray(i)] / size;
    if (Math.abs(theta) > 1e-15) out.push(gate(axis, [target], [theta]));
    const control = controls[31 - Math.clz32(gray(i) ^ gray((i + 1) % size))];
    if (!openCz) out.push(gate('cx', [control, target]));
    else if (i === size - 1) return control;
    else for (const op of [gate('h', [target]), gate('cx', [control, target]), gate('h', [target])]) out.push(op);
  }
  return undefined;
}

/**
 * Multiplexor diag(A, B) on the top qubit `top` (A for top = 0): A = V·D·W, B = V·D†·W with
 * A·B† = V·D²·V† (Shende–Bullock–Markov 2006, demultiplexing); D ⊕ D† is a uniformly controlled Rz.
 */
function demultiplex(a: Matrix, b: Matrix, top: number, out: Piece[]): void {
  const m = dim(a);
  if (maxAbsDifference(a, b) < STRUCTURE_TOL) {
    // A = B: the top qubit is not involved.
    synthesizeInto(a, out);
    return;
  }
  const { values, vectors: v } = normalEigen(multiply(a, adjoint(b)));
  const dAngles = values.map(([re, im]) => argOf(re, im) / 2);
  // W = D·V†·B
  const vdb = multiply(adjoint(v), b);
  for (let r = 0; r < m; r++) {
    const cr = Math.cos(dAngles[r]),
      ci = Math.sin(dAngles[r]);
    for (let c = 0; c < m; c++) {
      const xr = vdb[2 * (r * m + c)],
        xi = vdb[2 * (r * m + c) + 1];
      vdb[2 * (r * m + c)] = cr * xr - ci * xi;
      vdb[2 * (r * m + c) + 1] = cr * xi + ci * xr;
    }
  }
  const controls = Array.from({ length: top }, (_, i) => i);
  synthesizeInto(vdb, out);
  // D ⊕ D†: diag(e^{iδ}, e^{−iδ}) on the top qubit = Rz(−2δ)
  uniformlyControlled(
    'rz',
    dAngles.map((d) => -2 * d),
    controls,
    top,
    out,
  );
  synthesizeInto(v, out);
}

/**
 * Cosine–sine decomposition U = (L0 ⊕ L1)·[[C, −S], [S, C]]·(R0 ⊕ R1)† on the top bit, from a
 * one-sided Jacobi SVD of U00 and, for the columns with s < 1/√2, of U10 (so both L0 and L1 are
 * accurate); R1† = −S·L0†·U01 + C·L1†·U11 closes the decomposition exactly.
 */
function cosineSine(u: Matrix): { l0: Matrix; l1: Matrix; r0: Matrix; r1: Matrix; angles: number[] } {
  const n = dim(u);
  const m = n / 2;
  const u00 = block(u, 0, 0, m);
  const u10 = block(u, m, 0, m);
  const u01 = block(u, 0, m, m);
  const u11 = block(u, m, m, m);
  const x0 = Array.from({ length: m }, (_, c) => column(u00, c));
  const rv: Vec[] = Array.from({ length: m }, (_, c) => {
    const e = new Float64Array(2 * m);
    e[2 * c] = 1;
    return e;
  });
  orthogonalizeColumns(x0, rv);
  const r0pre = fromColumns(rv);
  const cNorm = x0.map((x) => Math.sqrt(dotc(x, x)[0]));
  const small = cNorm.map((c, i) => (c > S2 ? i : -1)).filter((i) => i >= 0);
  if (small.length > 1) {
    // Rotate the columns with small s so that U10·R0 is orthogonal on them too.
    const x10 = multiply(u10, r0pre);
    const xs = small.map((i) => column(x10, i));
    const q = small.map((_, j) => {
      const e = new Float64Array(2 * small.length);
      e[2 * j] = 1;
      return e;
    });
    orthogonalizeColumns(xs, q);
    const rs = small.map((i) => rv[i]);
    const mixed = small.map((_, j) => {
      const col = new Float64Array(2 * m);
      for (let k = 0; k < small.length; k++) {
        const qr = q[j][2 * k],
          qi = q[j][2 * k + 1];
        for (let t = 0; t < 2 * m; t += 2) {
          col[t] += rs[k][t] * qr - rs[k][t + 1] * qi;
          col[t + 1] += rs[k][t] * qi + rs[k][t + 1] * qr;
        }
      }
      return col;
    });
    small.forEach((i, j) => {
      rv[i] = mixed[j];
    });
  }
  const r0 = fromColumns(rv);
  const y0 = multiply(u00, r0);
  const y1 = multiply(u10, r0);
  const c0 = Array.from({ length: m }, (_, i) => column(y0, i));
  const c1 = Array.from({ length: m }, (_, i) => column(y1, i));
  const cs = c0.map((x) => Math.sqrt(dotc(x, x)[0]));
  const ss = c1.map((x) => Math.sqrt(dotc(x, x)[0]));
  const byC = cs.map((_, i) => i).sort((p, q) => cs[q] - cs[p]);
  const byS = ss.map((_, i) => i).sort((p, q) => ss[q] - ss[p]);
  const l0 = fromColumns(orthonormalize(c0, byC));
  const l1 = fromColumns(orthonormalize(c1, byS));
  const angles = cs.map((c, i) => Math.atan2(ss[i], c));
  // R1† = −S·L0†·U01 + C·L1†·U11
  const a0 = multiply(adjoint(l0), u01);
  const a1 = multiply(adjoint(l1), u11);
  const r1dg = new Float64Array(2 * m * m);
  for (let r = 0; r < m; r++) {
    const c = Math.cos(angles[r]),
      s = Math.sin(angles[r]);
    for (let k = 0; k < 2 * m; k++) r1dg[2 * r * m + k] = -s * a0[2 * r * m + k] + c * a1[2 * r * m + k];
  }
  return { l0, l1, r0, r1: adjoint(r1dg), angles };
}

/** A 2-qubit block on qubits 0 and 1 of the QSD, synthesized once the neighbouring diagonals are known. */
interface Leaf {
  kind: 'leaf';
  u: Matrix;
}
type Piece = GateOp | Leaf;

/**
 * Appends gates (on qubits 0..n−1) implementing `u` up to a global phase; 2-qubit blocks stay
 * matrices (leaves) for resolveLeaves.
 */
function synthesizeInto(u: Matrix, out: Piece[]): void {
  const n = Math.round(Math.log2(dim(u)));
  if (n === 1) {
    out.push(u1q(0, u));
    return;
  }
  if (n === 2) {
    out.push({ kind: 'leaf', u });
    return;
  }
  const top = n - 1;
  const half = dim(u) / 2;
  if (maxAbs(block(u, 0, half, half)) < STRUCTURE_TOL && maxAbs(block(u, half, 0, half)) < STRUCTURE_TOL) {
    // Already block-diagonal on the top qubit (a multiplexor, e.g. a gate controlled by it): no CSD.
    demultiplex(block(u, 0, 0, half), block(u, half, half, half), top, out);
    return;
  }
  const { l0, l1, r0, r1, angles } = cosineSine(u);
  // Circuit order: (R0 ⊕ R1)†, then the Ry multiplexor, then L0 ⊕ L1.
  demultiplex(adjoint(r0), adjoint(r1), top, out);
  // The Ry multiplexor with CZ (= H·CX·H) in its ladder (Z·Ry(θ)·Z = Ry(−θ) as with X); its last
  // CZ, diagonal, is left out and merged into L1 as a Z on its control (SBM 2006 §A.1).
  const open = uniformlyControlled(
    'ry',
    angles.map((t) => 2 * t),
    Array.from({ length: top }, (_, i) => i),
    top,
    out,
    true,
  );
  if (open !== undefined) {
    const m = dim(l1);
    for (let r = 0; r < m; r++)
      for (let c = 0; c < m; c++)
        if ((c >> open) & 1) {
          l1[2 * (r * m + c)] = -l1[2 * (r * m + c)];
          l1[2 * (r * m + c) + 1] = -l1[2 * (r * m + c) + 1];
        }
  }
  demultiplex(l0, l1, top, out);
}

/**
 * A diagonal D with D·U needing at most 2 CX: the trace of (D·U)'s γ-matrix made real
 * (Shende, Bullock & Markov, PRA 70, 012310, 2004: 2 CX suffice iff tr γ(U) is real; the form of
 * Qiskit's _real_trace_transform), for U ∈ SU(4).
 */
function realTraceDiagonal(u: Matrix): Matrix {
  const e = (r: number, c: number): [number, number] => [u[2 * (r * 4 + c)], u[2 * (r * 4 + c) + 1]];
  const mul = (x: [number, number], y: [number, number]): [number, number] => [x[0] * y[0] - x[1] * y[1], x[0] * y[1] + x[1] * y[0]];
  const sum = (...terms: [number, [number, number]][]): [number, number] =>
    terms.reduce<[number, number]>((acc, [sgn, z]) => [acc[0] + sgn * z[0], acc[1] + sgn * z[1]], [0, 0]);
  const a1 = sum([-1, mul(e(1, 3), e(2, 0))], [1, mul(e(1, 2), e(2, 1))], [1, mul(e(1, 1), e(2, 2))], [-1, mul(e(1, 0), e(2, 3))]);
  const a2 = sum([1, mul(e(0, 3), e(3, 0))], [-1, mul(e(0, 2), e(3, 1))], [-1, mul(e(0, 1), e(3, 2))], [1, mul(e(0, 0), e(3, 3))]);
  const psi = Math.atan2(a1[1] + a2[1], a1[0] - a2[0]);
  return diagonalOf([0, 0, psi, -psi].map((t) => -t));
}

function diagonalOf(phases: readonly number[]): Matrix {
  const n = phases.length;
  const m = new Float64Array(2 * n * n);
  phases.forEach((t, i) => {
    m[2 * (i * n + i)] = Math.cos(t);
    m[2 * (i * n + i) + 1] = Math.sin(t);
  });
  return m;
}

/**
 * The QSD's 2-qubit blocks in circuit order, each but the last synthesized up to a diagonal
 * (2 CX instead of 3, when the block needs 3) whose inverse is merged into the next block: the multiplexors between
 * blocks act on higher qubits, controlled by these, so they commute with it (Shende, Bullock &
 * Markov 2006, §A.2).
 */
const cxCount = (ops: readonly GateOp[]): number => ops.filter((op) => op.name === 'cx').length;

function resolveLeaves(pieces: readonly Piece[]): GateOp[] {
  const leaves = pieces.filter((p): p is Leaf => p.kind === 'leaf');
  const last = leaves[leaves.length - 1];
  const out: GateOp[] = [];
  let carry: Matrix | undefined;
  for (const piece of pieces) {
    if (piece.kind !== 'leaf') {
      out.push(piece);
      continue;
    }
    const m = carry ? multiply(piece.u, carry) : piece.u;
    carry = undefined;
    const direct = synthesizeTwo(m);
    if (piece === last || cxCount(direct) <= 2) {
      out.push(...direct);
      continue;
    }
    const [dr, di] = det(m);
    const quarter = -argOf(dr, di) / 4;
    const su = new Float64Array(32);
    for (let k = 0; k < 32; k += 2) {
      su[k] = m[k] * Math.cos(quarter) - m[k + 1] * Math.sin(quarter);
      su[k + 1] = m[k] * Math.sin(quarter) + m[k + 1] * Math.cos(quarter);
    }
    const d = realTraceDiagonal(su);
    // m = D†·(D·m): D·m is synthesized now, D† travels to the next block.
    const reduced = synthesizeTwo(multiply(d, m));
    if (cxCount(reduced) >= cxCount(direct)) {
      out.push(...direct);
      continue;
    }
    out.push(...reduced);
    carry = adjoint(d);
  }
  return out;
}

// ---------------------------------------------------------------- fusion and the exactness check

const params = (op: GateOp): number[] => op.params.map((e) => evalExpr(e));
const opMatrix = (op: GateOp): Matrix => gateMatrix(STANDARD_GATES.get(op.name)!, params(op));

/**
 * Merges runs of one-qubit gates on a qubit into one u (a lone gate is kept as it is), drops runs
 * that are the identity up to phase, and returns the phase the merging took out.
 */
function fuseOneQubitRuns(ops: readonly GateOp[], n: number): Synthesis {
  const out: GateOp[] = [];
  let phase = 0;
  const pending: { ops: GateOp[]; m: Matrix }[] = Array.from({ length: n }, () => ({ ops: [], m: identity(2) }));
  const flush = (q: number): void => {
    const run = pending[q];
    if (run.ops.length === 0) return;
    const m = run.m;
    const offDiag = Math.hypot(m[2], m[3]) + Math.hypot(m[4], m[5]);
    if (offDiag < 1e-15 && Math.hypot(m[0] - m[6], m[1] - m[7]) < 1e-15) {
      phase += argOf(m[0], m[1]);
    } else if (run.ops.length === 1) {
      out.push(run.ops[0]);
    } else {
      const { theta, phi, lambda, gamma } = zyzAngles(m);
      out.push(gate('u', [q], [theta, phi, lambda]));
      phase += gamma;
    }
    pending[q] = { ops: [], m: identity(2) };
  };
  for (const op of ops) {
    if (op.qubits.length === 1) {
      const q = op.qubits[0];
      pending[q].ops.push(op);
      pending[q].m = multiply(opMatrix(op), pending[q].m);
    } else {
      for (const q of op.qubits) flush(q);
      out.push(op);
    }
  }
  for (let q = 0; q < n; q++) flush(q);
  return { ops: out, globalPhase: phase };
}

/** k with a 0 inserted at bit position b (the bits from b up move one place left). */
const withZeroBit = (k: number, b: number): number => ((k >> b) << (b + 1)) | (k & ((1 << b) - 1));

/** Product (circuit order) of u/ry/rz/cx gates on n qubits, applied to the columns of `start`. */
function applyOps(ops: readonly GateOp[], n: number, start: Matrix): Matrix {
  const size = 1 << n;
  const m = Float64Array.from(start);
  const cols = m.length / (2 * size);
  for (const op of ops) {
    if (op.name === 'cx') {
      const [c, t] = op.qubits;
      const [lo, hi] = c < t ? [c, t] : [t, c];
      for (let k = 0; k < size >> 2; k++) {
        // the rows with the control bit set and the target bit clear
        const r = withZeroBit(withZeroBit(k, lo), hi) | (1 << c);
        const a = 2 * r * cols;
        const b = 2 * (r | (1 << t)) * cols;
        for (let e = 0; e < 2 * cols; e++) {
          const x = m[a + e];
          m[a + e] = m[b + e];
          m[b + e] = x;
        }
      }
      continue;
    }
    const g = opMatrix(op);
    const q = op.qubits[0];
    for (let k = 0; k < size >> 1; k++) {
      const r = withZeroBit(k, q);
      const a = 2 * r * cols;
      const b = 2 * (r | (1 << q)) * cols;
      for (let e = 0; e < 2 * cols; e += 2) {
        const ar = m[a + e],
          ai = m[a + e + 1];
        const br = m[b + e],
          bi = m[b + e + 1];
        m[a + e] = g[0] * ar - g[1] * ai + g[2] * br - g[3] * bi;
        m[a + e + 1] = g[0] * ai + g[1] * ar + g[2] * bi + g[3] * br;
        m[b + e] = g[4] * ar - g[5] * ai + g[6] * br - g[7] * bi;
        m[b + e + 1] = g[4] * ai + g[5] * ar + g[6] * bi + g[7] * br;
      }
    }
  }
  return m;
}

/** Internal consistency bound: a synthesis further than this from its (unitary) target is a bug. */
const EXACTNESS = 1e-7;

/** The phase φ with target ≈ e^{iφ}·actual and the max entry deviation after applying it. */
function phaseAndDeviation(target: Float64Array, actual: Float64Array): { phase: number; deviation: number } {
  let re = 0;
  let im = 0;
  for (let k = 0; k < target.length; k += 2) {
    // Σ conj(actual)·target
    re += actual[k] * target[k] + actual[k + 1] * target[k + 1];
    im += actual[k] * target[k + 1] - actual[k + 1] * target[k];
  }
  const phase = argOf(re, im);
  const c = Math.cos(phase),
    s = Math.sin(phase);
  let deviation = 0;
  for (let k = 0; k < target.length; k += 2) {
    deviation = Math.max(deviation, Math.hypot(actual[k] * c - actual[k + 1] * s - target[k], actual[k] * s + actual[k + 1] * c - target[k + 1]));
  }
  return { phase, deviation };
}

function finish(raw: GateOp[], n: number, target: Matrix, start: Matrix, what: string): Synthesis {
  const { ops } = fuseOneQubitRuns(raw, n);
  const { phase, deviation } = phaseAndDeviation(target, applyOps(ops, n, start));
  if (!(deviation <= EXACTNESS)) throw new Error(`${what} synthesis lost exactness (deviation ${deviation.toExponential(2)})`);
  return { ops, globalPhase: phase };
}

// ---------------------------------------------------------------- public entry points

/** Squared amplitude below which a state-preparation branch is treated as empty (|a| < 1e-15). */
const NEGLIGIBLE_WEIGHT = 1e-30;

/** `values` with the entries not `defined` replaced by the mean of the defined ones (0 if none). */
function fillFree(values: number[], defined: boolean[]): number[] {
  const chosen = values.filter((_, i) => defined[i]);
  const mean = chosen.length ? chosen.reduce((a, b) => a + b, 0) / chosen.length : 0;
  return values.map((v, i) => (defined[i] ? v : mean));
}

/**
 * Standard gates (u, ry, rz, cx) on qubits 0..n−1 whose product times e^{i·globalPhase} equals `m`
 * (n = log2 of its size, qubit 0 the least-significant index bit). CX count: 0 for 1 qubit, ≤ 3
 * for 2; for n ≥ 3 at most (23/48)·4^n − (3/2)·2^n + 4/3 (SBM 2006 with both optimisations):
 * 20, 100, 444, 1868 for 3..6 qubits.
 */
export function synthesizeUnitary(m: Matrix): Synthesis {
  // The size limit first: checking a huge matrix for unitarity alone would take minutes.
  const n = log2Exact(dim(m));
  if (2 * dim(m) ** 2 === m.length && n > MAX_SYNTHESIS_QUBITS) {
    throw new CircuitError(
      'limit',
      `unitaries are synthesized up to ${MAX_SYNTHESIS_QUBITS} qubits (a ${2 ** MAX_SYNTHESIS_QUBITS}×${2 ** MAX_SYNTHESIS_QUBITS} matrix); this one has ${n}`,
    );
  }
  checkUnitary(m, 'the matrix');
  // Programs append the same matrix gate in loops: recent results are reused (copies).
  const key = Array.prototype.join.call(m, ',');
  return copySynthesis(RECENT_SYNTHESES.getOrCreate(key, () => synthesizeChecked(m)));
}

/**
 * synthesizeUnitary's recent results, keyed by the matrix's exact entries. The synthesis is a pure function of the
 * matrix and callers get copies, so a hit returns what a fresh synthesis would. Sixteen is plenty for a loop that
 * appends a few distinct matrix gates; the bound matters because a key is a 64×64 matrix as text (8 192 numbers).
 */
const RECENT_SYNTHESES = new LruCache<string, Synthesis>(16);
const copySynthesis = (s: Synthesis): Synthesis => ({
  ops: s.ops.map((op) => ({ ...op, qubits: [...op.qubits], params: [...op.params] })),
  globalPhase: s.globalPhase,
});

function synthesizeChecked(m: Matrix): Synthesis {
  const n = log2Exact(dim(m));
  if (n === 0) return { ops: [], globalPhase: argOf(m[0], m[1]) };
  // Within the tolerance of checkUnitary: synthesize the nearest exact unitary.
  const u = nearestUnitary(m);
  const pieces: Piece[] = [];
  synthesizeInto(u, pieces);
  return finish(resolveLeaves(pieces), n, u, identity(1 << n), 'unitary');
}

/**
 * Gates taking |0…0⟩ to the normalised `amplitudes`: e^{i·globalPhase}·(gates)|0…0⟩ equals the
 * state exactly. Magnitudes: for qubit j from the top down, an Ry
 * multiplexed on the qubits above it (angles 2·atan2(|upper half|, |lower half|)); phases: Rz
 * multiplexors on each qubit controlled by the qubits above it, the pair mean passed up as the
 * next level's phase, the last mean the global phase. CX count ≤ 2·(2^n − 2) for n qubits.
 */
export function synthesizeStatePreparation(amplitudes: readonly Complex[]): Synthesis {
  const size = amplitudes.length;
  const n = log2Exact(size);
  if (n < 0) throw new CircuitError('semantic', `a state vector must have a power-of-two length (2, 4, 8, …); got ${size} amplitudes`);
  if (n > MAX_STATE_PREPARATION_QUBITS)
    throw new CircuitError(
      'limit',
      `states are prepared up to ${MAX_STATE_PREPARATION_QUBITS} qubits (${2 ** MAX_STATE_PREPARATION_QUBITS} amplitudes); this one has ${n} qubits`,
    );
  let norm = 0;
  for (const [re, im] of amplitudes) norm += re * re + im * im;
  if (!Number.isFinite(norm) || !(norm > 0))
    throw new CircuitError('semantic', `a state vector must have finite amplitudes and a non-zero norm; got norm ${Math.sqrt(norm)}`);
  const scale = 1 / Math.sqrt(norm);
  const target = new Float64Array(2 * size);
  amplitudes.forEach(([re, im], i) => {
    target[2 * i] = re * scale;
    target[2 * i + 1] = im * scale;
  });
  if (n === 0) return { ops: [], globalPhase: argOf(target[0], target[1]) };
  const raw: GateOp[] = [];
  // Magnitudes, bottom-up: levels[j] holds the Ry angles of qubit j, multiplexed on qubits j+1..n−1
  // (index y = the bits above j). An angle under a zero-weight prefix is free: it takes the mean
  // of the others, so a multiplexor whose defined angles agree collapses to one rotation.
  let weights = Array.from({ length: size }, (_, i) => target[2 * i] ** 2 + target[2 * i + 1] ** 2);
  const levels: number[][] = [];
  for (let j = 0; j < n; j++) {
    const half = weights.length / 2;
    const defined = Array.from({ length: half }, (_, y) => weights[2 * y] + weights[2 * y + 1] > NEGLIGIBLE_WEIGHT);
    const angles = Array.from({ length: half }, (_, y) => 2 * Math.atan2(Math.sqrt(weights[2 * y + 1]), Math.sqrt(weights[2 * y])));
    levels.push(fillFree(angles, defined));
    weights = Array.from({ length: half }, (_, y) => weights[2 * y] + weights[2 * y + 1]);
  }
  for (let j = n - 1; j >= 0; j--)
    uniformlyControlled(
      'ry',
      levels[j],
      Array.from({ length: n - 1 - j }, (_, i) => j + 1 + i),
      j,
      raw,
    );
  // Phases, bottom-up: a pair (φ0, φ1) gets Rz(φ1 − φ0) and passes (φ0 + φ1)/2 up; a zero
  // amplitude's phase is free (its pair's Rz angle takes the mean of the defined ones).
  let phases = Array.from({ length: size }, (_, i) => argOf(target[2 * i], target[2 * i + 1]));
  let known = Array.from({ length: size }, (_, i) => target[2 * i] ** 2 + target[2 * i + 1] ** 2 > NEGLIGIBLE_WEIGHT);
  for (let j = 0; j < n; j++) {
    const half = phases.length / 2;
    const both = Array.from({ length: half }, (_, y) => known[2 * y] && known[2 * y + 1]);
    const diffs = fillFree(
      Array.from({ length: half }, (_, y) => phases[2 * y + 1] - phases[2 * y]),
      both,
    );
    uniformlyControlled(
      'rz',
      diffs,
      Array.from({ length: n - 1 - j }, (_, i) => j + 1 + i),
      j,
      raw,
    );
    phases = Array.from({ length: half }, (_, y) => (known[2 * y] ? phases[2 * y] + diffs[y] / 2 : phases[2 * y + 1] - diffs[y] / 2));
    known = Array.from({ length: half }, (_, y) => known[2 * y] || known[2 * y + 1]);
  }
  const start = new Float64Array(2 * size);
  start[0] = 1;
  return finish(raw, n, target, start, 'state preparation');
}
