import { compileToDevice, noiselessModel, parseQasm, simulate, simulateNoisy } from '#qdc/circuits';
import { NativeGateIR } from '#qdc/contracts';
import { countsForCircuit, fromNativeGateIR, toNativeGateIR } from './native-gate-ir.js';

const qasm = (body: string) => parseQasm(`OPENQASM 2.0;\ninclude "qelib1.inc";\n${body}`).circuit;
const target = {
  numQubits: 3,
  nativeGates: ['rz', 'sx', 'x', 'cz'],
  couplingMap: [
    [0, 1],
    [1, 2],
  ] as [number, number][],
};

describe(toNativeGateIR.name, () => {
  it('turns a compiled circuit into NativeGateIR whose ideal outcomes are the source circuit’s', () => {
    const source = qasm('qreg q[3];\ncreg c[3];\nh q[0];\ncx q[0],q[2];\nx q[1];\nmeasure q -> c;');
    const compiled = compileToDevice(source, target);
    const sut = toNativeGateIR(compiled.circuit, 1000);
    expect(NativeGateIR.parse(sut)).toEqual(sut);
    expect(sut).toMatchObject({ version: 1, num_qubits: 3, num_clbits: 3, shots: 1000 });
    expect(sut.gates.every((g) => ['rz', 'sx', 'x', 'cz'].includes(g.gate) && g.params.every(Number.isFinite))).toBe(true);
    // Round trip through the IR: same distribution as the source (ideal simulation, 2000 shots).
    const counts = simulate(fromNativeGateIR(sut), { shots: 2000, seed: 7 }).counts;
    expect(Object.keys(counts).sort()).toEqual(['010', '111']);
    expect(Object.keys(simulate(source, { shots: 10, seed: 7 }).counts).sort()).toEqual(['010', '111']);
  });

  it('refuses what a lab device cannot take: gates after a measurement, resets, conditions', () => {
    expect(() => toNativeGateIR(qasm('qreg q[1];\ncreg c[1];\nmeasure q[0] -> c[0];\nx q[0];'), 1)).toThrow(
      'gate x acts on a measured qubit; lab devices measure once, at the end',
    );
    expect(() => toNativeGateIR(qasm('qreg q[1];\nreset q[0];'), 1)).toThrow(/without resets/);
    expect(() => toNativeGateIR(qasm('qreg q[1];\ncreg c[1];\nif (c==1) x q[0];'), 1)).toThrow(/classically conditioned/);
  });
});

describe(fromNativeGateIR.name, () => {
  it('runs on the noisy simulator with a noiseless model to the exact ideal counts of a basis state', () => {
    const ir: NativeGateIR = {
      version: 1,
      num_qubits: 2,
      num_clbits: 2,
      gates: [{ gate: 'x', qubits: [1], params: [] }],
      measurements: [
        { qubit: 1, clbit: 0 },
        { qubit: 0, clbit: 1 },
      ],
      shots: 100,
    };
    expect(simulateNoisy(fromNativeGateIR(ir), noiselessModel(2), { shots: 100, seed: 1 }).counts).toEqual({ '01': 100 });
  });
});

describe(countsForCircuit.name, () => {
  it('re-keys node counts (clbit 0 rightmost) by the circuit’s registers', () => {
    const circuit = qasm('qreg q[3];\ncreg a[1];\ncreg b[2];\nmeasure q[0] -> a[0];\nmeasure q[1] -> b[0];\nmeasure q[2] -> b[1];');
    // clbits: a[0] = clbit 0, b[0] = clbit 1, b[1] = clbit 2 → key "b1b0 a0".
    expect(countsForCircuit({ '110': 3, '001': 7 }, circuit, 10)).toEqual({ '11 0': 3, '00 1': 7 });
  });

  it('names a key of the wrong width, a bad count and a wrong total', () => {
    const circuit = qasm('qreg q[2];\ncreg c[2];\nmeasure q -> c;');
    expect(() => countsForCircuit({ '0': 10 }, circuit, 10)).toThrow("counts key '0' is not a bitstring of 2 classical bit(s)");
    expect(() => countsForCircuit({ '01': 1.5 }, circuit, 10)).toThrow("count of '01' is not a non-negative integer: 1.5");
    expect(() => countsForCircuit({ '01': 4, '10': 5 }, circuit, 10)).toThrow('counts sum to 9, expected 10 shots');
  });
});
