import { CircuitError, MAX_CIRCUIT_QUBITS, MAX_EXPRESSION_DEPTH, emitCircuit, estimateResources, parseCircuit, targetFramework } from './index.js';

/** Hostile but well-formed programs: each must be a `limit` CircuitError (422), never a heap or stack overflow. */
const hostile: [string, string, RegExp][] = [
  ['QuantumCircuit(2**31)', 'from qiskit import QuantumCircuit\nqc = QuantumCircuit(2**31)\nqc.h(0)\n', /at most 65536 qubits; this one asks for 2147483648/],
  [
    'QuantumRegister(2**31)',
    'from qiskit import QuantumCircuit, QuantumRegister\nq = QuantumRegister(2**31)\nqc = QuantumCircuit(q)\n',
    /at most 65536 qubits/,
  ],
  [
    'ClassicalRegister(2**31)',
    'from qiskit import QuantumCircuit, ClassicalRegister\nc = ClassicalRegister(2**31)\nqc = QuantumCircuit(c)\n',
    /at most 65536 clbits/,
  ],
  ['QuantumCircuit(2, 2**31)', 'from qiskit import QuantumCircuit\nqc = QuantumCircuit(2, 2**31)\n', /at most 65536 clbits/],
  ['cirq.LineQubit.range(2**31)', 'import cirq\nq = cirq.LineQubit.range(2**31)\nc = cirq.Circuit()\n', /line 2: a circuit may have at most 65536 qubits/],
  ['cirq.GridQubit.rect(10**5, 10**5)', 'import cirq\nq = cirq.GridQubit.rect(10**5, 10**5)\nc = cirq.Circuit()\n', /at most 65536 qubits/],
  ['qreg q[1000000]', 'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[1000000];\nh q[0];\n', /at most 65536 qubits; this one asks for 1000000/],
  ['[0] * 10**10', 'from qiskit import QuantumCircuit\nx = [0] * 10**10\nqc = QuantumCircuit(1)\n', /line 2: a list may have at most 2000000 elements/],
  [
    '5 000 nested parentheses (Python)',
    `from qiskit import QuantumCircuit\nqc = QuantumCircuit(${'('.repeat(5000)}1${')'.repeat(5000)})\n`,
    /nested at most 200 deep/,
  ],
  [
    '5 000 unary minus signs (Python)',
    `from qiskit import QuantumCircuit\nqc = QuantumCircuit(1)\nqc.rx(${'-'.repeat(5000)}1, 0)\n`,
    /nested at most 200 deep/,
  ],
  [
    '64 nested gate definitions, each calling the previous twice (2^63 operations)',
    `OPENQASM 2.0;\ninclude "qelib1.inc";\n${Array.from({ length: 64 }, (_, i) => (i === 0 ? 'gate g0 a { h a; }' : `gate g${i} a { g${i - 1} a; g${i - 1} a; }`)).join('\n')}\nqreg q[1];\ng63 q[0];\n`,
    /line 68: a circuit may have at most 2000000 operations once its custom gates are inlined; this one has more/,
  ],
  // Self-composition doubles the circuit each time: refused at the first step past 2 000 000 operations (2^21), before copying.
  [
    'qc.compose(qc, inplace=True) × 60',
    'from qiskit import QuantumCircuit\nqc = QuantumCircuit(2)\nqc.h(0)\nfor i in range(60):\n    qc.compose(qc, inplace=True)\n',
    /line 5: a circuit may have at most 2000000 operations; this one would have 2097152/,
  ],
  [
    'qc = qc.compose(qc) × 60',
    'from qiskit import QuantumCircuit\nqc = QuantumCircuit(2)\nqc.h(0)\nfor i in range(60):\n    qc = qc.compose(qc)\n',
    /line 5: a circuit may have at most 2000000 operations; this one would have 2097152/,
  ],
  [
    'qc.append(qc, [0, 1]) × 60',
    'from qiskit import QuantumCircuit\nqc = QuantumCircuit(2)\nqc.h(0)\nfor i in range(60):\n    qc.append(qc, [0, 1])\n',
    /line 5: a circuit may have at most 2000000 operations; this one would have 2097152/,
  ],
  [
    'cirq c += c × 60',
    'import cirq\nq = cirq.LineQubit.range(2)\nc = cirq.Circuit([cirq.H(q[0])])\nfor i in range(60):\n    c += c\n',
    /line 5: a circuit may have at most 2000000 operations; this one would have 2097152/,
  ],
  [
    'cirq c.append(c) × 60',
    'import cirq\nq = cirq.LineQubit.range(2)\nc = cirq.Circuit([cirq.H(q[0])])\nfor i in range(60):\n    c.append(c)\n',
    /line 5: a circuit may have at most 2000000 operations; this one would have 2097152/,
  ],
  [
    'x += x × 60 (Python list)',
    'from qiskit import QuantumCircuit\nx = [0]\nfor i in range(60):\n    x += x\nqc = QuantumCircuit(1)\n',
    /line 4: a list may have at most 2000000 elements; this one would have 2097152/,
  ],
  [
    '5 000 nested parentheses (OpenQASM 3)',
    `OPENQASM 3.0;\ninclude "stdgates.inc";\nqubit[1] q;\nrx(${'('.repeat(5000)}1${')'.repeat(5000)}) q[0];\n`,
    /line 4: expressions may be nested at most 200 deep/,
  ],
];

describe('circuit limits', () => {
  it.each(hostile)('%s is refused as a limit before it is built', (_name, code, message) => {
    let error: unknown;
    try {
      estimateResources(parseCircuit(code).circuit);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CircuitError);
    expect((error as CircuitError).kind).toBe('limit');
    expect((error as CircuitError).message).toMatch(message);
  });

  it('still accepts circuits at the limits', () => {
    const wide = parseCircuit(`OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[${MAX_CIRCUIT_QUBITS}];\nh q[0];\ncx q[0],q[${MAX_CIRCUIT_QUBITS - 1}];\n`).circuit;
    expect(estimateResources(wide).qubitCount).toBe(MAX_CIRCUIT_QUBITS);
    const deep = `from qiskit import QuantumCircuit\nqc = QuantumCircuit(${'('.repeat(MAX_EXPRESSION_DEPTH - 10)}2${')'.repeat(MAX_EXPRESSION_DEPTH - 10)})\n`;
    expect(parseCircuit(deep).circuit.numQubits).toBe(2);
  });

  it('composing a circuit onto itself doubles it (Qiskit, Cirq, Python lists)', () => {
    const qiskit = parseCircuit(
      'from qiskit import QuantumCircuit\nqc = QuantumCircuit(2)\nqc.h(0)\nqc.cx(0, 1)\nfor i in range(3):\n    qc.compose(qc, inplace=True)\nqc.append(qc, [1, 0])\n',
    ).circuit;
    expect(qiskit.ops.map((op) => (op.kind === 'gate' ? `${op.name}${op.qubits.join('')}` : op.kind)).join(' ')).toBe(
      `${'h0 cx01 '.repeat(8)}${'h1 cx10 '.repeat(8)}`.trim(),
    );
    const cirq = parseCircuit(
      'import cirq\nq = cirq.LineQubit.range(2)\nc = cirq.Circuit([cirq.H(q[0])])\nfor i in range(4):\n    c += c\nc.append(c)\n',
    ).circuit;
    expect(cirq.ops).toHaveLength(32);
    const list = parseCircuit('from qiskit import QuantumCircuit\nx = [0, 1]\nfor i in range(3):\n    x += x\nqc = QuantumCircuit(len(x))\n').circuit;
    expect(list.numQubits).toBe(16);
  });
});

describe('parameters beyond a double', () => {
  it.each(['openqasm3', 'qiskit', 'openqasm2'])('rx(1e999) is a semantic CircuitError when written as %s, not a crash', (target) => {
    const { circuit } = parseCircuit('OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[1];\nrx(1e999) q[0];\n');
    let error: unknown;
    try {
      emitCircuit(circuit, targetFramework(target));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CircuitError);
    expect((error as CircuitError).kind).toBe('semantic');
    expect((error as CircuitError).message).toBe('expected finite gate parameters; got Infinity (a literal beyond ±1.8e308?)');
  });
});
