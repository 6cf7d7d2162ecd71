import { CircuitError } from './errors.js';
import { parseCircuit, transpile } from './convert.js';
import { estimateResources } from './resources/resources.js';
import { circuitUnitary, equivalentUpToGlobalPhase } from './simulator/unitary.js';

/** Free parameters (Circuit.inputs): kept by conversion and resource counting, refused by simulation, named. */

const QISKIT = `from qiskit import QuantumCircuit
from qiskit.circuit import Parameter, ParameterVector
theta = Parameter('theta')
v = ParameterVector('v', 2)
qc = QuantumCircuit(2)
qc.ry(theta, 0)
qc.rz(2*theta + 1, 1)
qc.rx(v[1] - v[0], 0)
qc.cx(0, 1)
qc.p(theta/2, 1)
qc.crz(v[0] * 3, 1, 0)
`;
const VALUES = { theta: 0.7, v_0: -0.4, v_1: 1.9 };
const BOUND = `${QISKIT}qc = qc.assign_parameters({theta: ${VALUES.theta}, v: [${VALUES.v_0}, ${VALUES.v_1}]})\n`;

/** The OpenQASM 3 program with each `input float[64] x;` replaced by the constant it is given. */
const bind = (qasm3: string, values: Record<string, number>): string =>
  qasm3.replace(/^input float\[64\] (\w+);$/gm, (_, name: string) => `const float ${name} = ${values[name]};`);

const free = { freeParameters: true };

describe('free parameters through conversion', () => {
  it('Qiskit Parameters become OpenQASM 3 inputs, named after them, and survive Qiskit → Cirq → OpenQASM 3 with the same meaning', () => {
    const qasm = transpile(QISKIT, 'openqasm3', free).code;
    expect(qasm.match(/^input .*$/gm)).toEqual(['input float[64] theta;', 'input float[64] v_0;', 'input float[64] v_1;']);
    expect(qasm).toContain('rz(2*theta + 1) q[1];');
    const reference = circuitUnitary(parseCircuit(BOUND).circuit);
    let code = QISKIT;
    for (const target of ['cirq', 'qiskit', 'openqasm3'] as const) code = transpile(code, target, free).code;
    const rebound = parseCircuit(bind(code, VALUES)).circuit;
    expect(rebound.inputs).toBeUndefined();
    expect(equivalentUpToGlobalPhase(reference, circuitUnitary(rebound))).toBe(true);
  });

  it("an entry point called without arguments gets free parameters of its arguments' names", () => {
    const source = `import cirq
def ansatz(theta, phi):
    q = cirq.LineQubit.range(2)
    return cirq.Circuit([cirq.ry(theta)(q[0]), cirq.CNOT(q[0], q[1]), cirq.ZPowGate(exponent=phi)(q[1])])
`;
    const { circuit } = parseCircuit(source, { entryPoint: 'ansatz', ...free });
    expect(circuit.inputs).toEqual(['theta', 'phi']);
    const qasm = transpile(source, 'openqasm3', { entryPoint: 'ansatz', ...free }).code;
    // ZPowGate(exponent=φ) is the phase gate p(π·φ).
    const withValues = parseCircuit(bind(qasm, { theta: 0.3, phi: 0.25 })).circuit;
    const called = parseCircuit(source, { entryPoint: 'ansatz', entryPointArgs: [0.3, 0.25] }).circuit;
    expect(equivalentUpToGlobalPhase(circuitUnitary(called), circuitUnitary(withValues))).toBe(true);
  });

  it('cirq.resolve_parameters gives a symbolic ZPowGate exponent its value', () => {
    const source = `import cirq
import sympy
t = sympy.Symbol('t')
q = cirq.LineQubit.range(1)
circuit = cirq.Circuit([cirq.H(q[0]), cirq.ZPowGate(exponent=t)(q[0])])
circuit = cirq.resolve_parameters(circuit, {'t': 0.5})
`;
    const s = `import cirq
q = cirq.LineQubit.range(1)
circuit = cirq.Circuit([cirq.H(q[0]), cirq.S(q[0])])
`;
    expect(equivalentUpToGlobalPhase(circuitUnitary(parseCircuit(source).circuit), circuitUnitary(parseCircuit(s).circuit))).toBe(true);
  });

  it('resource counts do not need values', () => {
    const counts = estimateResources(parseCircuit(QISKIT, free).circuit);
    expect(counts).toMatchObject({ qubitCount: 2, gateCount: 6, twoQubitGateCount: 2, gateCounts: { ry: 1, rz: 1, rx: 1, cx: 1, p: 1, crz: 1 } });
  });

  it.each([
    ['openqasm2', 'OpenQASM 2 has no free parameters (theta, v_0, v_1); give their values with entry_point_args, or convert to OpenQASM 3 (input float)'],
    [
      'braket',
      'Amazon Braket output takes numeric parameters; unbound: theta, v_0, v_1 (give their values with entry_point_args, or convert to Qiskit, Cirq or OpenQASM 3, which keep them free)',
    ],
    [
      'pennylane',
      'PennyLane output takes numeric parameters; unbound: theta, v_0, v_1 (give their values with entry_point_args, or convert to Qiskit, Cirq or OpenQASM 3, which keep them free)',
    ],
  ])('%s output, which has no free parameters, refuses them by name', (target, message) => {
    expect(() => transpile(QISKIT, target, free)).toThrow(new CircuitError('unsupported', message));
  });
});

describe('without freeParameters (simulation)', () => {
  const refusal = (source: string, options = {}): string => {
    try {
      parseCircuit(source, options);
    } catch (error) {
      expect(error).toBeInstanceOf(CircuitError);
      return (error as Error).message;
    }
    throw new Error('expected a refusal');
  };

  it('names the unbound parameters of every language', () => {
    expect(refusal(QISKIT)).toBe(
      "the circuit has unbound parameters (theta, v[0], v[1]); bind them with assign_parameters(...) in the code, or give the entry point's arguments with entry_point_args",
    );
    expect(refusal('OPENQASM 3.0;\ninclude "stdgates.inc";\ninput angle[32] gamma;\nqubit[1] q;\nrx(gamma) q[0];\n')).toBe(
      'line 3: input gamma has no value: simulation needs numbers (declare it as const angle gamma = …; or give the value in its place)',
    );
    expect(
      refusal('import cirq\nimport sympy\nq = cirq.LineQubit.range(1)\ncircuit = cirq.Circuit([cirq.ZPowGate(exponent=sympy.Symbol("s"))(q[0])])\n'),
    ).toMatch(/ZPowGate has the unresolved symbolic exponent s; resolve it with cirq.resolve_parameters/);
    expect(refusal('from qiskit import QuantumCircuit\ndef f(a):\n    qc = QuantumCircuit(1)\n    qc.rx(a, 0)\n    return qc\n', { entryPoint: 'f' })).toBe(
      'line 2: entry_point f() needs arguments (a); give them with entry_point_args (a JSON list, or an object by name) or give them defaults',
    );
  });

  it('an OpenQASM 3 input is refused in conversion only where it is not declared free, and may not shadow a register', () => {
    expect(refusal('OPENQASM 3.0;\ninput float q;\nqubit[1] q;\n', free)).toBe("line 3: 'q' is already declared");
    expect(refusal('OPENQASM 3.0;\ninput int n;\nqubit[1] q;\n', free)).toMatch(/inputs of type float or angle \(gate parameters\) are supported/);
  });
});
