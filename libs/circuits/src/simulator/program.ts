/**
 * Compiles an expanded circuit into simulator instructions: adjacent single-qubit gates on a
 * qubit are fused into one 2×2 matrix, diagonal gates become phase kernels, controlled gates
 * keep their controls (the kernel only visits amplitudes whose controls are 1).
 */
import { multiply, isDiagonal, type Matrix } from '../ir/complex-matrix.js';
import { STANDARD_GATES } from '../ir/gates.js';
import { paramValues, type Circuit, type Condition, type GateOp } from '../ir/circuit.js';
import { semanticError } from '../errors.js';

export type Instruction =
  | { t: 'dense1'; q: number; m: Matrix; cond?: Condition }
  | { t: 'diag1'; q: number; d: Float64Array; cond?: Condition }
  | { t: 'phase'; qubits: number[]; re: number; im: number; cond?: Condition }
  | { t: 'ctrl1'; controls: number[]; q: number; m: Matrix; cond?: Condition }
  | { t: 'diagk'; controls: number[]; qubits: number[]; d: Float64Array; cond?: Condition }
  | { t: 'densek'; controls: number[]; qubits: number[]; m: Matrix; cond?: Condition }
  | { t: 'measure'; q: number; c: number; cond?: Condition }
  | { t: 'reset'; q: number; cond?: Condition };

export interface Program {
  numQubits: number;
  numClbits: number;
  instructions: Instruction[];
}

const IDENTITY2 = new Float64Array([1, 0, 0, 0, 0, 0, 1, 0]);

/** Diagonal of a diagonal matrix, interleaved. */
function diagonalOf(m: Matrix): Float64Array {
  const n = Math.round(Math.sqrt(m.length / 2));
  const d = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    d[2 * i] = m[2 * (i * n + i)];
    d[2 * i + 1] = m[2 * (i * n + i) + 1];
  }
  return d;
}

const isOne = (re: number, im: number): boolean => Math.abs(re - 1) < 1e-15 && Math.abs(im) < 1e-15;

/** The cheapest instruction for a unitary `m` on `targets` under `controls`. */
function gateInstruction(controls: number[], targets: number[], m: Matrix, diagonal: boolean, cond?: Condition): Instruction | null {
  if (diagonal || isDiagonal(m)) {
    const d = diagonalOf(m);
    let identityExceptLast = true;
    for (let j = 0; j < d.length / 2 - 1; j++) if (!isOne(d[2 * j], d[2 * j + 1])) identityExceptLast = false;
    const last = d.length - 2;
    if (identityExceptLast) {
      if (isOne(d[last], d[last + 1])) return null; // identity
      return { t: 'phase', qubits: [...controls, ...targets], re: d[last], im: d[last + 1], cond };
    }
    if (controls.length === 0 && targets.length === 1) return { t: 'diag1', q: targets[0], d, cond };
    return { t: 'diagk', controls, qubits: targets, d, cond };
  }
  if (targets.length === 1) return controls.length === 0 ? { t: 'dense1', q: targets[0], m, cond } : { t: 'ctrl1', controls, q: targets[0], m, cond };
  return { t: 'densek', controls, qubits: targets, m, cond };
}

/** Compiles a circuit without custom gates (see expandCircuit). */
export function compileProgram(circuit: Circuit, options: { fuse?: boolean } = {}): Program {
  const fuse = options.fuse ?? true;
  const out: Instruction[] = [];
  const pending = new Map<number, Matrix>();
  const flush = (q: number): void => {
    const m = pending.get(q);
    if (!m) return;
    pending.delete(q);
    const ins = gateInstruction([], [q], m, false);
    if (ins) out.push(ins);
  };
  for (const op of circuit.ops) {
    if (op.kind === 'barrier') continue;
    if (op.kind === 'measure' || op.kind === 'reset') {
      flush(op.qubit);
      out.push(op.kind === 'measure' ? { t: 'measure', q: op.qubit, c: op.clbit, cond: op.condition } : { t: 'reset', q: op.qubit, cond: op.condition });
      continue;
    }
    const { controls, targets, m, diagonal } = unitaryOf(op);
    if (fuse && controls.length === 0 && targets.length === 1 && !op.condition) {
      const q = targets[0];
      const prev = pending.get(q);
      pending.set(q, prev ? multiply(m, prev) : m);
      continue;
    }
    for (const q of op.qubits) flush(q);
    const ins = gateInstruction(controls, targets, m, diagonal, op.condition);
    if (ins) out.push(ins);
  }
  for (const q of [...pending.keys()]) flush(q);
  return { numQubits: circuit.numQubits, numClbits: circuit.numClbits, instructions: out };
}

function unitaryOf(op: GateOp): { controls: number[]; targets: number[]; m: Matrix; diagonal: boolean } {
  const gate = STANDARD_GATES.get(op.name);
  if (!gate) throw semanticError(op.line, `gate ${op.name} must be expanded before simulation`);
  const extra = op.controls ?? 0;
  const nControls = extra + gate.controls;
  const controls = op.qubits.slice(0, nControls);
  const targets = op.qubits.slice(nControls);
  if (new Set(op.qubits).size !== op.qubits.length)
    throw semanticError(op.line, `gate ${op.name} is applied to the same qubit twice (${op.qubits.join(', ')})`);
  return { controls, targets, m: gate.name === 'id' ? IDENTITY2 : gate.base(paramValues(op)), diagonal: !!gate.diagonal };
}
