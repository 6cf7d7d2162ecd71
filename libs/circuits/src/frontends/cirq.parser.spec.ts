import { CircuitError } from '../errors.js';
import { evalExpr } from '../ir/expr.js';
import type { GateOp } from '../ir/circuit.js';
import { simulate } from '../simulator/simulate.js';
import { circuitUnitary, equivalentUpToGlobalPhase, equalUnitaries } from '../simulator/unitary.js';
import { parseQasm } from './qasm.parser.js';
import { parseCirq } from './cirq.parser.js';

const gates = (ops: unknown[]) =>
  (ops as GateOp[])
    .filter((o) => o.kind === 'gate')
    .map((o) => `${o.name}${o.params.length ? `(${o.params.map((p) => +evalExpr(p).toFixed(4)).join(',')})` : ''} ${o.qubits.join(',')}`);
const qasmUnitary = (body: string, n: number) => circuitUnitary(parseQasm(`OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[${n}];\n${body}`).circuit);

function errorOf(fn: () => unknown): CircuitError {
  try {
    fn();
  } catch (error) {
    if (error instanceof CircuitError) return error;
    throw error;
  }
  throw new Error('expected a CircuitError');
}

describe('parseCirq', () => {
  it('reads a Bell circuit with measurement keys and simulator boilerplate', () => {
    const c = parseCirq(`
import cirq

q0, q1 = cirq.LineQubit.range(2)
circuit = cirq.Circuit(
    cirq.H(q0),
    cirq.CNOT(q0, q1),
    cirq.measure(q0, q1, key='result'),
)
simulator = cirq.Simulator()
result = simulator.run(circuit, repetitions=1000)
print(result.histogram(key='result'))
`);
    expect(gates(c.ops)).toEqual(['h 0', 'cx 0,1']);
    expect(c.cregs).toEqual([{ name: 'result', size: 2, offset: 0 }]);
    expect(Object.keys(simulate(c, { shots: 100, seed: 1 }).counts).sort()).toEqual(['00', '11']);
  });

  it('numbers qubits in Cirq order and supports GridQubit and NamedQubit', () => {
    const c = parseCirq(`
import cirq
a = cirq.GridQubit(1, 0)
b = cirq.GridQubit(0, 1)
n = cirq.NamedQubit('anc')
circuit = cirq.Circuit()
circuit.append(cirq.X(a))
circuit.append([cirq.H(b), cirq.CZ(a, b)])
circuit += cirq.SWAP(b, n)
`);
    expect(c.numQubits).toBe(3);
    expect(gates(c.ops)).toEqual(['x 1', 'h 0', 'cz 1,0', 'swap 0,2']);
  });

  it('matches OpenQASM for gate powers, PowGates and rotations (exactly, global phase included)', () => {
    const cases: [string, string, boolean][] = [
      ['cirq.X(q[0])**0.5', 'sx q[0];', true],
      ['cirq.X(q[0])**-0.5', 'sxdg q[0];', true],
      ['cirq.Z(q[0])**0.5', 's q[0];', true],
      ['cirq.T(q[0])**-1', 'tdg q[0];', true],
      ['cirq.S(q[0])', 's q[0];', true],
      ['cirq.ZPowGate(exponent=0.3)(q[0])', 'p(0.3*pi) q[0];', true],
      ['cirq.CZPowGate(exponent=0.5)(q[0], q[1])', 'cp(pi/2) q[0],q[1];', true],
      ['cirq.rx(0.4)(q[1])', 'rx(0.4) q[1];', true],
      ['cirq.XPowGate(exponent=0.3)(q[0])', 'rx(0.3*pi) q[0];', false],
      ['(cirq.CNOT**0.5)(q[0], q[1])', 'crx(pi/2) q[0],q[1]; p(pi/4) q[0];', true],
      ['cirq.CCX(q[0], q[1], q[2])', 'ccx q[0],q[1],q[2];', true],
      ['cirq.CSWAP(q[2], q[0], q[1])', 'cswap q[2],q[0],q[1];', true],
      ['cirq.H.controlled(num_controls=1)(q[0], q[1])', 'ch q[0],q[1];', true],
      ['cirq.ry(0.2).on(q[2]).controlled_by(q[0])', 'cry(0.2) q[0],q[2];', true],
      ['cirq.ISWAP(q[0], q[1])**-1', 'h q[1]; cx q[1],q[0]; cx q[0],q[1]; h q[0]; sdg q[1]; sdg q[0];', true],
    ];
    for (const [op, qasm, exact] of cases) {
      const a = circuitUnitary(parseCirq(`import cirq\nq = cirq.LineQubit.range(3)\ncircuit = cirq.Circuit(${op})`));
      const b = qasmUnitary(qasm, 3);
      expect([op, exact ? equalUnitaries(a, b) : equivalentUpToGlobalPhase(a, b)]).toEqual([op, true]);
    }
  });

  it('supports comprehensions, on_each, moments, measure_each, reset and classical controls', () => {
    const c = parseCirq(`
import cirq
import numpy as np
qs = cirq.LineQubit.range(3)
circuit = cirq.Circuit([cirq.H(q) for q in qs])
circuit.append(cirq.Moment([cirq.rz(np.pi / 4)(qs[0]), cirq.Y(qs[1])]))
circuit.append(cirq.X.on_each(qs[1:]))
circuit.append(cirq.measure(qs[0], key='m'))
circuit.append(cirq.X(qs[2]).with_classical_controls('m'))
circuit.append(cirq.reset(qs[0]))
circuit.append(cirq.measure_each(*qs[1:]))
`);
    expect(gates(c.ops)).toEqual(['h 0', 'h 1', 'h 2', 'rz(0.7854) 0', 'y 1', 'x 1', 'x 2', 'x 2']);
    expect((c.ops as GateOp[]).find((o) => o.condition)?.condition).toEqual({ clbits: [0], value: 1 });
    expect(c.cregs.map((r) => r.name)).toEqual(['m', 'q_1_', 'q_2_']);
  });

  it.each([
    ['import cirq\nq = cirq.LineQubit(0)\nc = cirq.Circuit(cirq.PhasedXPowGate(phase_exponent=0.2)(q))', /line 3: unsupported construct `cirq.PhasedXPowGate`/],
    ['import cirq\nq = cirq.LineQubit(0)\nc = cirq.Circuit(cirq.H)', /line 3: gate H is not applied to qubits/],
    ['import cirq\nq = cirq.LineQubit.range(2)\nc = cirq.Circuit(cirq.CNOT(q[0]))', /CNOT acts on 2 qubit\(s\); got 1/],
    ['import cirq\nq = cirq.LineQubit(0)\nc = cirq.Circuit(cirq.H(q)**0.5)', /H\*\*0.5/],
    ['import cirq\nimport subprocess', /line 2: unsupported construct `import subprocess`/],
    ['import cirq\nq = cirq.LineQubit(0)', /builds no cirq.Circuit/],
  ])('reports %s precisely', (source, message) => {
    expect(errorOf(() => parseCirq(source)).message).toMatch(message);
  });
});

describe('an entry point that returns a gate or a unitary (wrapped on LineQubit.range(k))', () => {
  const same = (a: string, entryPoint: string, b: string) =>
    equivalentUpToGlobalPhase(circuitUnitary(parseCirq(a, { entryPoint })), circuitUnitary(parseCirq(b)));

  it.each([
    ['cirq.CNOT', 'circuit = cirq.Circuit(cirq.CNOT(q[0], q[1]))'],
    ['cirq.rx(0.3).controlled(1)', 'circuit = cirq.Circuit(cirq.rx(0.3).controlled(1)(q[0], q[1]))'],
    ['cirq.MatrixGate(np.array([[0, 1], [1, 0]]))', 'circuit = cirq.Circuit(cirq.X(q[0]))'],
    // Cirq's matrices are big-endian: the first factor of the Kronecker product acts on q[0].
    ['np.kron(np.array([[1, 0], [0, 1j]]), np.array([[0, 1], [1, 0]]))', 'circuit = cirq.Circuit(cirq.S(q[0]), cirq.X(q[1]))'],
  ])('def g(): return %s', (value, expected) => {
    const source = `import cirq\nimport numpy as np\ndef g():\n    return ${value}\n`;
    const width = expected.includes('q[1]') ? 2 : 1;
    expect(same(source, 'g', `import cirq\nq = cirq.LineQubit.range(${width})\n${expected}\n`)).toBe(true);
  });

  it('refuses any other value, naming its type', () => {
    expect(errorOf(() => parseCirq('import cirq\ndef g():\n    return 3\n', { entryPoint: 'g' })).message).toBe(
      'line 2: entry_point g() returns int, not a cirq.Circuit',
    );
  });
});
