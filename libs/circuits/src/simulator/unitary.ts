/**
 * The unitary of a small circuit (column k = the circuit applied to |k⟩) and equivalence up to
 * global phase: what round-trip and decomposition tests check.
 */
import { expandCircuit, type Circuit } from '../ir/circuit.js';
import { compileProgram } from './program.js';
import { runInstructions } from './statevector.js';
import { CircuitError } from '../errors.js';

export const MAX_UNITARY_QUBITS = 10;

/** Columns of the unitary, each an interleaved state vector. Measurements and resets are not allowed. */
export function circuitUnitary(circuit: Circuit): Float64Array[] {
  const expanded = expandCircuit(circuit);
  if (expanded.numQubits > MAX_UNITARY_QUBITS) throw new CircuitError('limit', `unitaries are computed up to ${MAX_UNITARY_QUBITS} qubits`);
  const unitaryOps = expanded.ops.filter((op) => op.kind === 'gate' || op.kind === 'barrier');
  if (unitaryOps.length !== expanded.ops.length) throw new CircuitError('semantic', 'the circuit measures or resets; it has no unitary');
  const program = compileProgram({ ...expanded, ops: unitaryOps });
  const dimension = 1 << expanded.numQubits;
  const phase = [Math.cos(expanded.globalPhase), Math.sin(expanded.globalPhase)];
  return Array.from({ length: dimension }, (_, k) => {
    const s = new Float64Array(2 * dimension);
    s[2 * k] = phase[0];
    s[2 * k + 1] = phase[1];
    runInstructions(s, program, 0, program.instructions.length, new Uint8Array(0));
    return s;
  });
}

/** True when the unitaries differ by at most a global phase (entries within `tol`). */
export function equivalentUpToGlobalPhase(a: Float64Array[], b: Float64Array[], tol = 1e-9): boolean {
  if (a.length !== b.length) return false;
  // Phase from the largest entry of a.
  let best = -1;
  let br = 0,
    bi = 0;
  for (let c = 0; c < a.length; c++)
    for (let i = 0; i < a[c].length; i += 2) {
      const m = a[c][i] ** 2 + a[c][i + 1] ** 2;
      if (m > best) {
        best = m;
        // phase = b / a at this entry
        const ar = a[c][i],
          ai = a[c][i + 1],
          xr = b[c][i],
          xi = b[c][i + 1];
        br = (xr * ar + xi * ai) / m;
        bi = (xi * ar - xr * ai) / m;
      }
    }
  if (Math.abs(Math.hypot(br, bi) - 1) > 1e-6) return false;
  for (let c = 0; c < a.length; c++)
    for (let i = 0; i < a[c].length; i += 2) {
      const r = a[c][i] * br - a[c][i + 1] * bi;
      const m = a[c][i] * bi + a[c][i + 1] * br;
      if (Math.abs(r - b[c][i]) > tol || Math.abs(m - b[c][i + 1]) > tol) return false;
    }
  return true;
}

/** True when the unitaries are equal entry by entry (global phase included). */
export function equalUnitaries(a: Float64Array[], b: Float64Array[], tol = 1e-9): boolean {
  return a.length === b.length && a.every((col, c) => col.every((v, i) => Math.abs(v - b[c][i]) <= tol));
}
