import { num } from './expr.js';
import { addQreg, emptyCircuit, type Circuit, type GateOp } from './circuit.js';
import { decomposeGate, hasDecomposition } from './decompositions.js';
import { STANDARD_GATES } from './gates.js';
import { circuitUnitary, equalUnitaries } from '../simulator/unitary.js';

const PARAMS = [0.7, -1.3, 2.1, 0.4];

function single(op: GateOp, n: number): Circuit {
  const c = emptyCircuit();
  addQreg(c, 'q', n);
  c.ops.push(op);
  return c;
}

describe('decomposeGate', () => {
  const names = [...STANDARD_GATES.keys()].filter((name) => hasDecomposition(name));

  it.each(names)('decomposes %s exactly (global phase included)', (name) => {
    const gate = STANDARD_GATES.get(name)!;
    const op: GateOp = { kind: 'gate', name, qubits: Array.from({ length: gate.qubits }, (_, i) => i), params: PARAMS.slice(0, gate.params).map(num) };
    const n = Math.max(1, gate.qubits);
    const expected = circuitUnitary(single(op, n));
    const steps = decomposeGate(op)!;
    const c = single(op, n);
    c.ops = steps;
    expect(equalUnitaries(circuitUnitary(c), expected)).toBe(true);
  });

  it('keeps extra controls exact', () => {
    const op: GateOp = { kind: 'gate', name: 'h', qubits: [0, 1], params: [], controls: 1 };
    const c = single(op, 2);
    const expected = circuitUnitary(c);
    c.ops = decomposeGate(op)!;
    expect(equalUnitaries(circuitUnitary(c), expected)).toBe(true);
  });
});

describe(equalUnitaries.name, () => {
  it('tells different gates apart, including by global phase', () => {
    const x = circuitUnitary(single({ kind: 'gate', name: 'x', qubits: [0], params: [] }, 1));
    const rx = circuitUnitary(single({ kind: 'gate', name: 'rx', qubits: [0], params: [num(Math.PI)] }, 1));
    const h = circuitUnitary(single({ kind: 'gate', name: 'h', qubits: [0], params: [] }, 1));
    expect(equalUnitaries(x, h)).toBe(false);
    expect(equalUnitaries(x, rx)).toBe(false);
  });
});
