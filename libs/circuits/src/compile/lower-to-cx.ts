/**
 * First compilation stage: every gate of an expanded circuit becomes one-qubit unitaries (2×2
 * matrices) and CX, exactly (global phase tracked). Named gates use the exact decompositions of
 * ir/decompositions.ts; a multi-controlled one-qubit gate C^k(U) without one uses Barenco et al.
 * (1995, Phys. Rev. A 52 3457) Lemma 7.5: C^k(U) = C(V)·C^{k−1}X·C(V†)·C^{k−1}X·C^{k−1}(V), V² = U.
 */
import { CircuitError, unsupported } from '../errors.js';
import { canonicalizeControls, paramValues, type Circuit, type GateOp } from '../ir/circuit.js';
import { adjoint, type Matrix } from '../ir/complex-matrix.js';
import { decomposeGate, hasDecomposition } from '../ir/decompositions.js';
import { num } from '../ir/expr.js';
import { eulerAngles, STANDARD_GATES } from '../ir/gates.js';

/** Operations of the compiler's working circuit (qubits logical or physical depending on the stage). */
export type WorkOp =
  | { k: 'u'; q: number; m: Matrix }
  | { k: 'g1'; q: number; name: string; params: number[] }
  | { k: 'g2'; name: string; a: number; b: number; params: number[] }
  | { k: 'measure'; q: number; c: number }
  | { k: 'reset'; q: number }
  | { k: 'barrier'; qubits: number[] };

export interface WorkCircuit {
  numQubits: number;
  ops: WorkOp[];
  globalPhase: number;
}

export const opQubits = (op: WorkOp): number[] => (op.k === 'g2' ? [op.a, op.b] : op.k === 'barrier' ? op.qubits : [op.q]);

const MAX_DEPTH = 40;

/** The circuit (custom gates already expanded, no classical conditions) over {u, cx}. */
export function lowerToCx(circuit: Circuit): WorkCircuit {
  const out: WorkCircuit = { numQubits: circuit.numQubits, ops: [], globalPhase: circuit.globalPhase };
  for (const op of circuit.ops) {
    switch (op.kind) {
      case 'gate':
        if (op.condition)
          throw unsupported(op.line, 'if', 'classically conditioned gates cannot be compiled for a device (the simulated devices run without feed-forward)');
        lowerGate(canonicalizeControls(op), out, 0);
        break;
      case 'measure':
        if (op.condition) throw unsupported(op.line, 'if', 'classically conditioned measurements cannot be compiled for a device');
        out.ops.push({ k: 'measure', q: op.qubit, c: op.clbit });
        break;
      case 'reset':
        if (op.condition) throw unsupported(op.line, 'if', 'classically conditioned resets cannot be compiled for a device');
        out.ops.push({ k: 'reset', q: op.qubit });
        break;
      case 'barrier':
        out.ops.push({ k: 'barrier', qubits: [...op.qubits] });
        break;
    }
  }
  return out;
}

function lowerGate(op: GateOp, out: WorkCircuit, depth: number): void {
  if (depth > MAX_DEPTH) throw new CircuitError('unsupported', `gate ${op.name} decomposes too deeply to compile`, op.line);
  const gate = STANDARD_GATES.get(op.name);
  if (!gate) throw new CircuitError('unsupported', `gate ${op.name} is not a standard gate and has no definition`, op.line);
  const extra = op.controls ?? 0;
  const params = paramValues(op);
  if (new Set(op.qubits).size !== op.qubits.length)
    throw new CircuitError('semantic', `gate ${op.name} is applied to the same qubit twice (${op.qubits.join(', ')})`, op.line);
  if (op.name === 'gphase' && extra === 0) {
    out.globalPhase += params[0];
    return;
  }
  if (op.name === 'id' && extra === 0) return;
  if (gate.qubits === 1 && extra === 0) {
    out.ops.push({ k: 'u', q: op.qubits[0], m: gate.base(params) });
    return;
  }
  if (op.name === 'cx' && extra === 0) {
    out.ops.push({ k: 'g2', name: 'cx', a: op.qubits[0], b: op.qubits[1], params: [] });
    return;
  }
  if (extra === 0 && hasDecomposition(op.name)) {
    for (const step of decomposeGate(op)!) lowerGate(canonicalizeControls(step), out, depth + 1);
    return;
  }
  const controls = extra + gate.controls;
  if (gate.qubits - gate.controls === 1 && controls >= 1) {
    controlledUnitary(op.qubits.slice(0, controls), op.qubits[controls], gate.base(params), out, depth, op.line);
    return;
  }
  if (hasDecomposition(op.name)) {
    for (const step of decomposeGate(op)!) lowerGate(canonicalizeControls(step), out, depth + 1);
    return;
  }
  throw new CircuitError('unsupported', `gate ${op.name}${extra ? ` with ${extra} extra control(s)` : ''} cannot be compiled to a device gate set`, op.line);
}

const gateOp = (name: string, qubits: number[], params: number[] = [], line?: number): GateOp => ({
  kind: 'gate',
  name,
  qubits,
  params: params.map(num),
  line,
});

/** C^k(U) on `target` under `controls` (k ≥ 1). */
function controlledUnitary(controls: number[], target: number, m: Matrix, out: WorkCircuit, depth: number, line?: number): void {
  const k = controls.length;
  const isX =
    Math.abs(m[2] - 1) < 1e-15 &&
    Math.abs(m[4] - 1) < 1e-15 &&
    Math.abs(m[0]) + Math.abs(m[1]) + Math.abs(m[3]) + Math.abs(m[5]) + Math.abs(m[6]) + Math.abs(m[7]) < 1e-15;
  if (k === 1) {
    if (isX) return void lowerGate(gateOp('cx', [controls[0], target], [], line), out, depth + 1);
    const { theta, phi, lambda, gamma } = eulerAngles(m);
    return void lowerGate(gateOp('cu', [controls[0], target], [theta, phi, lambda, gamma], line), out, depth + 1);
  }
  if (k === 2 && isX) return void lowerGate(gateOp('ccx', [controls[0], controls[1], target], [], line), out, depth + 1);
  const v = sqrtUnitary(m);
  const last = controls[k - 1];
  const rest = controls.slice(0, k - 1);
  const X = STANDARD_GATES.get('x')!.base([]);
  controlledUnitary([last], target, v, out, depth + 1, line);
  controlledUnitary(rest, last, X, out, depth + 1, line);
  controlledUnitary([last], target, adjoint(v), out, depth + 1, line);
  controlledUnitary(rest, last, X, out, depth + 1, line);
  controlledUnitary(rest, target, v, out, depth + 1, line);
}

/** A square root of a 2×2 unitary: V = (U + s·I)/t with s = ±√det U, t = √(tr U + 2s). */
export function sqrtUnitary(m: Matrix): Matrix {
  const [ar, ai, br, bi, cr, ci, dr, di] = m;
  const detR = ar * dr - ai * di - (br * cr - bi * ci);
  const detI = ar * di + ai * dr - (br * ci + bi * cr);
  const sqrtC = (re: number, im: number): [number, number] => {
    const r = Math.sqrt(Math.hypot(re, im));
    const t = Math.atan2(im, re) / 2;
    return [r * Math.cos(t), r * Math.sin(t)];
  };
  for (const sign of [1, -1]) {
    const [sr0, si0] = sqrtC(detR, detI);
    const sr = sign * sr0,
      si = sign * si0;
    const [tr, ti] = sqrtC(ar + dr + 2 * sr, ai + di + 2 * si);
    const t2 = tr * tr + ti * ti;
    if (t2 < 1e-12) continue;
    // (x + iy)/(tr + i ti)
    const div = (x: number, y: number): [number, number] => [(x * tr + y * ti) / t2, (y * tr - x * ti) / t2];
    const [a0, a1] = div(ar + sr, ai + si);
    const [b0, b1] = div(br, bi);
    const [c0, c1] = div(cr, ci);
    const [d0, d1] = div(dr + sr, di + si);
    return new Float64Array([a0, a1, b0, b1, c0, c1, d0, d1]);
  }
  throw new Error('internal: no square root found');
}
