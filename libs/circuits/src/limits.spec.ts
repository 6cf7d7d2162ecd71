import { CircuitError, MAX_CIRCUIT_QUBITS, MAX_EXPRESSION_DEPTH, emitCircuit, estimateResources, parseCircuit, targetFramework } from './index.js';

/** Hostile but well-formed programs: each must be a `limit` CircuitError (422), never a heap or stack overflow. */
const hostile: [string, string, RegExp][] = [
  ['QuantumCircuit(2**31)', 'from qiskit import QuantumCircuit\nqc = QuantumCircuit(2**31)\nqc.h(0)\n', /at most 65536 qubits; this one asks for 2147483648/],
  ['QuantumRegister(2**31)', 'from qiskit import QuantumCircuit, QuantumRegister\nq = QuantumRegister(2**31)\nqc = QuantumCircuit(q)\n', /at most 65536 qubits/],
  ['ClassicalRegister(2**31)', 'from qiskit import QuantumCircuit, ClassicalRegister\nc = ClassicalRegister(2**31)\nqc = QuantumCircuit(c)\n', /at most 65536 clbits/],
  ['QuantumCircuit(2, 2**31)', 'from qiskit import QuantumCircuit\nqc = QuantumCircuit(2, 2**31)\n', /at most 65536 clbits/],
  ['cirq.LineQubit.range(2**31)', 'import cirq\nq = cirq.LineQubit.range(2**31)\nc = cirq.Circuit()\n', /line 2: a circuit may have at most 65536 qubits/],
  ['cirq.GridQubit.rect(10**5, 10**5)', 'import cirq\nq = cirq.GridQubit.rect(10**5, 10**5)\nc = cirq.Circuit()\n', /at most 65536 qubits/],
  ['qreg q[1000000]', 'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[1000000];\nh q[0];\n', /at most 65536 qubits; this one asks for 1000000/],
  ['[0] * 10**10', 'from qiskit import QuantumCircuit\nx = [0] * 10**10\nqc = QuantumCircuit(1)\n', /line 2: a list may have at most 2000000 elements/],
  ['5 000 nested parentheses (Python)', `from qiskit import QuantumCircuit\nqc = QuantumCircuit(${'('.repeat(5000)}1${')'.repeat(5000)})\n`, /nested at most 200 deep/],
  ['5 000 unary minus signs (Python)', `from qiskit import QuantumCircuit\nqc = QuantumCircuit(1)\nqc.rx(${'-'.repeat(5000)}1, 0)\n`, /nested at most 200 deep/],
  [
    '64 nested gate definitions, each calling the previous twice (2^63 operations)',
    `OPENQASM 2.0;\ninclude "qelib1.inc";\n${Array.from({ length: 64 }, (_, i) => (i === 0 ? 'gate g0 a { h a; }' : `gate g${i} a { g${i - 1} a; g${i - 1} a; }`)).join('\n')}\nqreg q[1];\ng63 q[0];\n`,
    /line 68: a circuit may have at most 2000000 operations once its custom gates are inlined; this one has more/,
  ],
  ['5 000 nested parentheses (OpenQASM 3)', `OPENQASM 3.0;\ninclude "stdgates.inc";\nqubit[1] q;\nrx(${'('.repeat(5000)}1${')'.repeat(5000)}) q[0];\n`, /line 4: expressions may be nested at most 200 deep/],
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
