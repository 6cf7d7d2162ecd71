/**
 * Library circuits and gates the Python front ends build without running Python, as IR:
 *
 * - QFT exactly as Qiskit's `QFT` (qiskit.circuit.library.basis_change.qft): for j = n−1 … 0,
 *   H on j then CP(π·2^{k−j}) between j and k for k = j−1 … j−m (m reduced by
 *   `approximation_degree`), then swaps (i, n−1−i); |x⟩ ↦ N^{−1/2} Σ_y e^{2πi·xy/N} |y⟩ in
 *   little-endian (Nielsen & Chuang §5.1).
 * - Grover's operator as Qiskit's `GroverOperator`: Q = −A·S₀·A†·S_f with S_f the oracle,
 *   A the state preparation (H on every reflection qubit by default) and S₀ = X·(H·MCX·H)·X
 *   (Grover, STOC 1996; Brassard et al., quant-ph/0005055).
 * - Matrix gates and state preparations as custom gate definitions whose body is the exact
 *   synthesis of unitary-synthesis.ts, so every emitter, the simulator and the QPU compiler read
 *   them as ordinary custom gates.
 */
import { CircuitError, semanticError } from '../errors.js';
import { MAX_EXPANDED_OPERATIONS } from '../limits.js';
import type { BarrierOp, Circuit, GateDefinition, GateOp, Operation } from '../ir/circuit.js';
import { num } from '../ir/expr.js';
import type { Matrix } from '../ir/complex-matrix.js';
import { MAX_SYNTHESIS_QUBITS, checkUnitary, synthesizeStatePreparation, synthesizeUnitary, type Complex } from '../ir/unitary-synthesis.js';

const op = (name: string, qubits: number[], params: number[] = [], line?: number): GateOp => ({ kind: 'gate', name, qubits, params: params.map(num), line });

/** Qiskit's QFT(n) on qubits 0..n−1 (the inverse is left to the caller). */
export function qftOps(n: number, approximationDegree: number, doSwaps: boolean, insertBarriers: boolean, line?: number): Operation[] {
  const count = (n * (n + 1)) / 2 + n;
  if (count > MAX_EXPANDED_OPERATIONS)
    throw new CircuitError('limit', `QFT(${n}) would have about ${count} operations; a circuit may have at most ${MAX_EXPANDED_OPERATIONS}`, line);
  const out: Operation[] = [];
  for (let j = n - 1; j >= 0; j--) {
    out.push(op('h', [j], [], line));
    const entanglements = Math.max(0, j - Math.max(0, approximationDegree - (n - j - 1)));
    for (let k = j - 1; k >= j - entanglements; k--) out.push(op('cp', [j, k], [Math.PI * 2 ** (k - j)], line));
    if (insertBarriers) out.push({ kind: 'barrier', qubits: Array.from({ length: n }, (_, i) => i), line });
  }
  if (doSwaps) for (let i = 0; i < Math.floor(n / 2); i++) out.push(op('swap', [i, n - i - 1], [], line));
  return out;
}

/** Qiskit's zero reflection S₀ on `qubits` (X, then Z or H·MCX·H on the last, then X). */
export function zeroReflectionOps(qubits: number[], line?: number): GateOp[] {
  const xs = qubits.map((q) => op('x', [q], [], line));
  const last = qubits[qubits.length - 1];
  const middle =
    qubits.length === 1
      ? [op('z', [last], [], line)]
      : [op('h', [last], [], line), { ...op('x', [...qubits.slice(0, -1), last], [], line), controls: qubits.length - 1 } as GateOp, op('h', [last], [], line)];
  return [...xs, ...middle, ...xs.map((g) => ({ ...g }))];
}

/** The body of a custom gate from a circuit's unitary part; measurement, reset or conditions are refused. */
export function circuitBody(c: Circuit, what: string, line?: number): (GateOp | BarrierOp)[] {
  const body: (GateOp | BarrierOp)[] = [];
  for (const o of c.ops) {
    if (o.kind === 'measure' || o.kind === 'reset')
      throw semanticError(
        line,
        `${what}: a circuit with ${o.kind === 'measure' ? 'measurements' : 'resets'} cannot become a gate (use to_instruction() and append it, or compose)`,
      );
    if (o.kind === 'gate' && o.condition) throw semanticError(line, `${what}: a circuit with classically conditioned gates cannot become a gate`);
    body.push({ ...o, line: undefined } as GateOp | BarrierOp);
  }
  if (c.globalPhase) body.push(op('gphase', [], [c.globalPhase]));
  return body;
}

/** A custom gate definition: the synthesized ops of a unitary matrix (checked unitary first). */
export function matrixDefinition(name: string, m: Matrix, what: string, line?: number): GateDefinition {
  const n = Math.round(Math.log2(Math.sqrt(m.length / 2)));
  // Before the O(d³) unitarity check: a matrix too large to synthesize is refused by its size.
  if (n > MAX_SYNTHESIS_QUBITS)
    throw new CircuitError(
      'limit',
      `${what}: matrices are synthesized up to ${MAX_SYNTHESIS_QUBITS} qubits (${2 ** MAX_SYNTHESIS_QUBITS}×${2 ** MAX_SYNTHESIS_QUBITS}); this one is ${Math.round(Math.sqrt(m.length / 2))}×${Math.round(Math.sqrt(m.length / 2))}`,
      line,
    );
  try {
    checkUnitary(m, what);
    const { ops, globalPhase } = synthesizeUnitary(m);
    return { name, params: [], qubits: n, body: withPhase(ops, globalPhase), line };
  } catch (error) {
    throw withLine(error, line);
  }
}

/** A custom gate definition preparing `amplitudes` from |0…0⟩ (normalised first when `normalize`). */
export function statePreparationDefinition(name: string, amplitudes: Complex[], normalize: boolean, what: string, line?: number): GateDefinition {
  const norm = Math.sqrt(amplitudes.reduce((s, [re, im]) => s + re * re + im * im, 0));
  if (!(norm > 0)) throw semanticError(line, `${what}: the state vector is zero`);
  if (!normalize && Math.abs(norm - 1) > 1e-8)
    throw semanticError(
      line,
      `${what}: the amplitudes are not normalised (sum of |a|² = ${(norm * norm).toPrecision(10)}); divide by the norm or pass normalize=True`,
    );
  const n = Math.log2(amplitudes.length);
  if (!Number.isInteger(n) || n < 1) throw semanticError(line, `${what}: a state vector needs a power-of-two length ≥ 2; got ${amplitudes.length}`);
  try {
    const { ops, globalPhase } = synthesizeStatePreparation(amplitudes.map(([re, im]) => [re / norm, im / norm] as Complex));
    return { name, params: [], qubits: n, body: withPhase(ops, globalPhase), line };
  } catch (error) {
    throw withLine(error, line);
  }
}

/** Ops preparing a Statevector label ('01+-rl', rightmost character = qubit 0) from |0…0⟩. */
export function labelStateOps(label: string, line?: number): GateOp[] {
  const out: GateOp[] = [];
  const n = label.length;
  for (let i = 0; i < n; i++) {
    const q = n - 1 - i;
    const ch = label[i];
    if (ch === '0') continue;
    else if (ch === '1') out.push(op('x', [q], [], line));
    else if (ch === '+') out.push(op('h', [q], [], line));
    else if (ch === '-') out.push(op('x', [q], [], line), op('h', [q], [], line));
    else if (ch === 'r') out.push(op('h', [q], [], line), op('s', [q], [], line));
    else if (ch === 'l') out.push(op('h', [q], [], line), op('sdg', [q], [], line));
    else throw semanticError(line, `a state label uses the characters 0 1 + - r l; got '${ch}' in '${label}'`);
  }
  return out;
}

function withPhase(ops: GateOp[], globalPhase: number): (GateOp | BarrierOp)[] {
  const body: (GateOp | BarrierOp)[] = ops.map((g) => ({ ...g, line: undefined }));
  if (Math.abs(globalPhase) > 1e-15) body.push(op('gphase', [], [globalPhase]));
  return body;
}

function withLine(error: unknown, line?: number): unknown {
  if (error instanceof CircuitError && line !== undefined && error.line === undefined)
    return new CircuitError(error.kind, error.message, line, error.construct);
  return error;
}
