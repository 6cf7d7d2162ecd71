import { CircuitError } from '../errors.js';
import { evalExpr } from '../ir/expr.js';
import type { GateOp } from '../ir/circuit.js';
import { simulate } from '../simulator/simulate.js';
import { circuitUnitary, equalUnitaries } from '../simulator/unitary.js';
import { parseQasm } from './qasm.parser.js';
import { parseQiskit } from './qiskit.parser.js';

const gates = (ops: unknown[]) =>
  (ops as GateOp[])
    .filter((o) => o.kind === 'gate')
    .map(
      (o) =>
        `${o.name}${o.params.length ? `(${o.params.map((p) => +evalExpr(p).toFixed(4)).join(',')})` : ''} ${o.qubits.join(',')}${o.controls ? ` c${o.controls}` : ''}`,
    );

function errorOf(fn: () => unknown): CircuitError {
  try {
    fn();
  } catch (error) {
    if (error instanceof CircuitError) return error;
    throw error;
  }
  throw new Error('expected a CircuitError');
}

describe('parseQiskit', () => {
  it('reads a Bell circuit with the usual imports and execution boilerplate', () => {
    const c = parseQiskit(`
from qiskit import QuantumCircuit, transpile
from qiskit_aer import AerSimulator

qc = QuantumCircuit(2, 2)
qc.h(0)
qc.cx(0, 1)
qc.measure([0, 1], [0, 1])

sim = AerSimulator()
result = sim.run(transpile(qc, sim), shots=1000).result()
print(result.get_counts())
qc.draw()
`);
    expect(gates(c.ops)).toEqual(['h 0', 'cx 0,1']);
    expect(c.ops.filter((o) => o.kind === 'measure')).toHaveLength(2);
    expect(Object.keys(simulate(c, { shots: 200, seed: 1 }).counts).sort()).toEqual(['00', '11']);
  });

  it('supports registers, loops, arithmetic with numpy/math pi and every parameterised gate', () => {
    const c = parseQiskit(`
import numpy as np
import math
from qiskit import QuantumCircuit, QuantumRegister, ClassicalRegister
qr = QuantumRegister(3, 'q')
anc = QuantumRegister(1, 'anc')
cr = ClassicalRegister(3, 'c')
qc = QuantumCircuit(qr, anc, cr)
n = 3
for i in range(n - 1):
    qc.cx(qr[i], qr[i + 1])
qc.rx(np.pi / 2, 0)
qc.u(math.pi, 0, np.pi / 4, anc[0])
qc.cu(0.1, 0.2, 0.3, 0.4, 0, 1)
qc.rzz(2 * np.pi / 3, qr[0], anc)
qc.crz(theta=0.5, control_qubit=1, target_qubit=2)
qc.h(qr)
qc.measure(qr, cr)
`);
    expect(c.qregs.map((r) => `${r.name}[${r.size}]`)).toEqual(['q[3]', 'anc[1]']);
    expect(gates(c.ops)).toEqual([
      'cx 0,1',
      'cx 1,2',
      'rx(1.5708) 0',
      'u(3.1416,0,0.7854) 3',
      'cu(0.1,0.2,0.3,0.4) 0,1',
      'rzz(2.0944) 0,3',
      'crz(0.5) 1,2',
      'h 0',
      'h 1',
      'h 2',
    ]);
  });

  it('matches the equivalent OpenQASM for every gate method', () => {
    const methods = ['h', 'x', 'y', 'z', 's', 'sdg', 't', 'tdg', 'sx', 'sxdg', 'id'].map((g) => [`qc.${g}(0)`, `${g} q[0];`]);
    methods.push(
      ['qc.p(0.3, 1)', 'p(0.3) q[1];'],
      ['qc.u2(0.1, 0.2, 0)', 'u2(0.1,0.2) q[0];'],
      ['qc.ch(0, 2)', 'ch q[0],q[2];'],
      ['qc.ccx(0, 1, 2)', 'ccx q[0],q[1],q[2];'],
      ['qc.cswap(2, 0, 1)', 'cswap q[2],q[0],q[1];'],
      ['qc.cry(0.7, 2, 1)', 'cry(0.7) q[2],q[1];'],
      ['qc.rxx(0.2, 0, 1)', 'rxx(0.2) q[0],q[1];'],
      ['qc.csx(0, 1)', 'csx q[0],q[1];'],
      ['qc.mcx([0, 1], 2)', 'ccx q[0],q[1],q[2];'],
    );
    for (const [py, qasm] of methods) {
      const a = circuitUnitary(parseQiskit(`from qiskit import QuantumCircuit\nqc = QuantumCircuit(3)\n${py}`));
      const b = circuitUnitary(parseQasm(`OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[3];\n${qasm}`).circuit);
      expect([py, equalUnitaries(a, b)]).toEqual([py, true]);
    }
  });

  it('appends standard gate objects, controlled and inverted ones', () => {
    const c = parseQiskit(`
from qiskit import QuantumCircuit
from qiskit.circuit.library import HGate, CXGate, RZGate, XGate, SGate
qc = QuantumCircuit(3)
qc.append(HGate(), [0])
qc.append(CXGate(), [0, 1])
qc.append(RZGate(0.25), [2])
qc.append(XGate().control(2), [0, 1, 2])
qc.append(SGate().inverse(), [1])
`);
    expect(gates(c.ops)).toEqual(['h 0', 'cx 0,1', 'rz(0.25) 2', 'ccx 0,1,2', 'sdg 1']);
  });

  it('composes circuits built in the same source and measure_all adds a meas register', () => {
    const c = parseQiskit(`
from qiskit import QuantumCircuit
bell = QuantumCircuit(2)
bell.h(0)
bell.cx(0, 1)
qc = QuantumCircuit(3)
qc.x(2)
qc.compose(bell, qubits=[1, 2], inplace=True)
qc = qc.compose(bell.inverse(), [1, 2])
qc.measure_all()
`);
    expect(gates(c.ops)).toEqual(['x 2', 'h 1', 'cx 1,2', 'cx 1,2', 'h 1']);
    expect(c.cregs).toEqual([{ name: 'meas', size: 3, offset: 0 }]);
    expect(simulate(c, { shots: 10, seed: 1 }).counts).toEqual({ '100': 10 });
  });

  it('conditions with c_if and with if_test', () => {
    const c = parseQiskit(`
from qiskit import QuantumCircuit, QuantumRegister, ClassicalRegister
q = QuantumRegister(2, 'q')
c = ClassicalRegister(1, 'c')
qc = QuantumCircuit(q, c)
qc.h(0)
qc.measure(0, 0)
qc.x(1).c_if(c, 1)
with qc.if_test((c[0], 1)):
    qc.z(1)
    qc.h(1)
qc.global_phase += 0.5
`);
    const conditional = (c.ops as GateOp[]).filter((o) => o.condition);
    expect(conditional.map((o) => o.name)).toEqual(['x', 'z', 'h']);
    expect(conditional[0].condition).toEqual({ clbits: [0], value: 1 });
    expect(c.globalPhase).toBe(0.5);
  });

  it('accepts comprehensions, enumerate, zip, slices and tuple unpacking', () => {
    const c = parseQiskit(`
from qiskit import QuantumCircuit
qc = QuantumCircuit(4)
angles = [0.1 * k for k in range(4)]
for i, a in enumerate(angles):
    qc.ry(a, i)
for a, b in zip(range(0, 3), range(1, 4)):
    qc.cz(a, b)
qc.h(qc.qubits[1:3])
qc.barrier()
qc.reset(3)
`);
    expect(gates(c.ops)).toEqual(['ry(0) 0', 'ry(0.1) 1', 'ry(0.2) 2', 'ry(0.3) 3', 'cz 0,1', 'cz 1,2', 'cz 2,3', 'h 1', 'h 2']);
  });

  it.each([
    ['from qiskit import QuantumCircuit\ndef build():\n    pass', /builds no QuantumCircuit, at top level or in a function that returns one/],
    ['from qiskit import QuantumCircuit\nclass Builder:\n    pass', /line 2: unsupported construct `class`/],
    ['from qiskit import QuantumCircuit\nqc = QuantumCircuit(2)\nqc.delay(100, [0])', /line 3: unsupported construct `QuantumCircuit.delay`/],
    ['import os\nos.system("rm -rf /")', /line 1: unsupported construct `import os`/],
    ['from qiskit import QuantumCircuit\nqc = QuantumCircuit(2)\nqc.h(5)', /line 3: qubit index 5 is out of range/],
    ['from qiskit import QuantumCircuit\nqc = QuantumCircuit(2)\nqc.cx(0)', /takes 2 qubit argument\(s\); got 1/],
    [
      'from qiskit import QuantumCircuit\nfrom qiskit.circuit import Parameter\ntheta = Parameter("t")\nqc = QuantumCircuit(1)\nqc.rx(theta, 0)',
      /the circuit has unbound parameters \(t\); bind them with assign_parameters/,
    ],
    [
      'from qiskit import QuantumCircuit\nqc = QuantumCircuit(1)\nwhile True:\n    qc.h(0)',
      /line 3: the while loop runs more than 100000 iterations \(the loop iteration limit\)/,
    ],
    ['from qiskit import QuantumCircuit\nqc = QuantumCircuit(1)\nqc.h(undefined_name)', /line 3: name 'undefined_name' is not defined/],
    ['x = 1', /builds no QuantumCircuit/],
    ['from qiskit import QuantumCircuit\nqc = QuantumCircuit(1\nqc.h(0)', /line 3: expected '\)'/],
    ['__import__("os")', /name '__import__' is not defined/],
  ])('reports %s precisely', (source, message) => {
    expect(errorOf(() => parseQiskit(source)).message).toMatch(message);
  });
});
