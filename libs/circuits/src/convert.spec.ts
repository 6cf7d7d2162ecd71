import { CircuitError } from './errors.js';
import { parseCircuit, emitCircuit, transpile, targetFramework } from './convert.js';
import { detectFramework } from './frontends/detect.js';
import { parseQasm } from './frontends/qasm.parser.js';
import { randomCircuit } from './random-circuit.js';
import { circuitUnitary, equivalentUpToGlobalPhase } from './simulator/unitary.js';
import { simulate } from './simulator/simulate.js';

const READABLE = ['qiskit', 'cirq', 'openqasm2', 'openqasm3'] as const;

describe('round trips', () => {
  const corpus = Array.from({ length: 12 }, (_, seed) => randomCircuit({ qubits: 2 + (seed % 4), depth: 6, seed: 1000 + seed }));

  it.each(READABLE)('emitting %s and parsing it back keeps the unitary (up to global phase) on random circuits', (target) => {
    for (const [i, circuit] of corpus.entries()) {
      const code = emitCircuit(circuit, target);
      const back = parseCircuit(code);
      expect(back.framework).toBe(target);
      const same = equivalentUpToGlobalPhase(circuitUnitary(circuit), circuitUnitary(back.circuit));
      expect([i, target, same]).toEqual([i, target, true]);
    }
  });

  it('chains conversions through every readable language', () => {
    const start = randomCircuit({ qubits: 3, depth: 8, seed: 77 });
    let code = emitCircuit(start, 'openqasm3');
    for (const target of ['qiskit', 'cirq', 'openqasm2', 'qiskit', 'openqasm3'] as const) code = transpile(code, target).code;
    expect(equivalentUpToGlobalPhase(circuitUnitary(start), circuitUnitary(parseCircuit(code).circuit))).toBe(true);
  });

  it('keeps custom gate definitions in OpenQASM output', () => {
    const src = 'OPENQASM 2.0;\ninclude "qelib1.inc";\ngate bell a, b { h a; cx a, b; }\nqreg q[2];\nbell q[0], q[1];\n';
    expect(transpile(src, 'openqasm3').code).toContain('gate bell a0, a1 {');
    expect(transpile(src, 'openqasm2').code).toContain('bell q[0], q[1];');
  });

  it('keeps measurements, resets and conditions through the QASM and Qiskit round trips', () => {
    const src =
      'OPENQASM 3.0;\ninclude "stdgates.inc";\nqubit[2] q;\nbit[1] m;\nbit[2] c;\nh q[0];\nm[0] = measure q[0];\nif (m == 1) { x q[1]; }\nreset q[0];\nc = measure q;\n';
    const reference = simulate(parseCircuit(src).circuit, { shots: 2000, seed: 3 }).counts;
    for (const target of ['openqasm2', 'openqasm3', 'qiskit'] as const) {
      const back = parseCircuit(transpile(src, target).code).circuit;
      expect([target, simulate(back, { shots: 2000, seed: 3 }).counts]).toEqual([target, reference]);
    }
  });

  it('writes PennyLane and Braket programs with the right gates and bit order', () => {
    const src = 'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[2];\ncreg c[2];\nh q[0];\ncx q[0],q[1];\nrz(pi/4) q[1];\nsdg q[0];\nmeasure q -> c;\n';
    const pl = transpile(src, 'pennylane').code;
    expect(pl).toContain('qml.Hadamard(wires=0)');
    expect(pl).toContain('qml.CNOT(wires=[0, 1])');
    expect(pl).toContain('qml.RZ(np.pi/4, wires=1)');
    expect(pl).toContain('qml.adjoint(qml.S(wires=0))');
    expect(pl).toContain('return qml.counts(wires=[1, 0])');
    const bk = transpile(src, 'braket').code;
    expect(bk).toContain('circ.h(0)');
    expect(bk).toContain('circ.cnot(0, 1)');
    expect(bk).toContain('circ.rz(1, np.pi/4)');
    expect(bk).toContain('circ.si(0)');
    expect(bk).toContain('circ.measure([0, 1])');
  });

  it('refuses what a target cannot express, saying why', () => {
    const mid = 'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[1];\ncreg c[1];\nmeasure q[0] -> c[0];\nif (c==1) x q[0];\n';
    expect(() => transpile(mid, 'braket')).toThrow(/Braket circuits measure at the end only/);
  });
});

describe(detectFramework.name, () => {
  it.each([
    ['OPENQASM 2.0;\nqreg q[1];', 'openqasm2'],
    ['// comment\nOPENQASM 3;\nqubit q;', 'openqasm3'],
    ['qubit[2] q;\nh q[0];', 'openqasm3'],
    ['include "qelib1.inc";\nqreg q[1];', 'openqasm2'],
    ['import cirq\nq = cirq.LineQubit(0)', 'cirq'],
    ['from qiskit import QuantumCircuit\nqc = QuantumCircuit(1)', 'qiskit'],
  ])('detects %j as %s', (source, framework) => {
    expect(detectFramework(source)).toBe(framework);
  });

  it('refuses what it cannot recognise', () => {
    expect(() => detectFramework('hello world')).toThrow(CircuitError);
    expect(() => detectFramework('import pennylane as qml')).toThrow(/PennyLane source can be produced/);
  });

  it('names the targets on a wrong target', () => {
    expect(() => targetFramework('quil')).toThrow(/expected one of qiskit, cirq, openqasm2, openqasm3, pennylane, braket/);
    expect(targetFramework('QASM3')).toBe('openqasm3');
  });
});

describe('headerless OpenQASM', () => {
  it('parses with the detected version', () => {
    expect(parseQasm('include "qelib1.inc";\nqreg q[1];\nh q[0];').circuit.ops).toHaveLength(1);
  });
});
