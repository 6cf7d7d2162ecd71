import { parseCircuit } from '../convert.js';
import { circuitUnitary, equivalentUpToGlobalPhase } from '../simulator/unitary.js';

/**
 * The same HHL program (Harrow, Hassidim & Lloyd, PRL 103, 150502 (2009)) written in Qiskit and in Cirq, as a user
 * writes each: library QFT / cirq.qft (most significant qubit first, so reversed), controlled matrix gates of
 * expm(iAt), eigenvalues from numpy.linalg. Both front ends must build the same unitary, and it must solve A x = b:
 * with the ancilla 1 and the clock back at |00>, b's amplitudes are ∝ A⁻¹ b.
 */
const QISKIT = `import numpy as np
from scipy.linalg import expm
from qiskit import QuantumCircuit
from qiskit.circuit.library import QFT, UnitaryGate
A = np.array([[1, -1/3], [-1/3, 1]])
lam = np.linalg.eigvalsh(A)  # 2/3 and 4/3
t = np.pi / (2 * lam[0])  # phases 1/4 and 1/2 of a turn: clock states |01> and |10>
C = 0.5
THETAS = [2 * np.arcsin(C * lam[0] / l) for l in lam]
def hhl():
    qc = QuantumCircuit(4)
    b, c0, c1, anc = 0, 1, 2, 3
    qc.ry(2 * np.arcsin(0.6), b)
    qc.h([c0, c1])
    for k, ctrl in enumerate([c0, c1]):
        qc.append(UnitaryGate(expm(1j * A * t * 2**k)).control(1), [ctrl, b])
    qc.append(QFT(2, inverse=True), [c0, c1])
    # The clock holds j = 1 (c0) or j = 2 (c1) only: one control each. Ancilla amplitude C·λ0/λ_j.
    qc.cry(THETAS[0], c0, anc)
    qc.cry(THETAS[1], c1, anc)
    qc.append(QFT(2), [c0, c1])
    for k, ctrl in reversed(list(enumerate([c0, c1]))):
        qc.append(UnitaryGate(expm(-1j * A * t * 2**k)).control(1), [ctrl, b])
    qc.h([c0, c1])
    return qc
`;

const CIRQ = `import numpy as np
import cirq
from scipy.linalg import expm
A = np.array([[1, -1/3], [-1/3, 1]])
lam = np.linalg.eigvalsh(A)  # 2/3 and 4/3
t = np.pi / (2 * lam[0])  # phases 1/4 and 1/2 of a turn: clock states |01> and |10>
C = 0.5
THETAS = [2 * np.arcsin(C * lam[0] / l) for l in lam]
def hhl():
    b, c0, c1, anc = cirq.LineQubit.range(4)
    circuit = cirq.Circuit()
    circuit.append(cirq.ry(2 * np.arcsin(0.6))(b))
    circuit.append(cirq.H.on_each(c0, c1))
    for k, ctrl in enumerate([c0, c1]):
        circuit.append(cirq.MatrixGate(expm(1j * A * t * 2**k)).controlled(1)(ctrl, b))
    # Cirq's qft takes the most significant qubit first: c1, c0 is Qiskit's QFT on [c0, c1].
    circuit.append(cirq.qft(c1, c0, inverse=True))
    # The clock holds j = 1 (c0) or j = 2 (c1) only: one control each. Ancilla amplitude C·λ0/λ_j.
    circuit.append(cirq.ry(THETAS[0]).controlled()(c0, anc))
    circuit.append(cirq.ry(THETAS[1]).controlled()(c1, anc))
    circuit.append(cirq.qft(c1, c0))
    for k, ctrl in reversed(list(enumerate([c0, c1]))):
        circuit.append(cirq.MatrixGate(expm(-1j * A * t * 2**k)).controlled(1)(ctrl, b))
    circuit.append(cirq.H.on_each(c0, c1))
    return circuit
`;

describe('HHL: one program, Qiskit and Cirq', () => {
  const qiskit = parseCircuit(QISKIT, { entryPoint: 'hhl' }).circuit;
  const cirq = parseCircuit(CIRQ, { entryPoint: 'hhl' }).circuit;

  it('both front ends build the same unitary (up to global phase)', () => {
    expect(equivalentUpToGlobalPhase(circuitUnitary(qiskit), circuitUnitary(cirq))).toBe(true);
  });

  it.each([
    ['Qiskit', qiskit],
    ['Cirq', cirq],
  ])('%s: ancilla 1, clock |00>: b ∝ A⁻¹ b = (1, 13/15)', (_, circuit) => {
    // U|0000>, qubit 0 (b) least significant: |anc=1, c1=0, c0=0, b> are rows 8 and 9.
    const state = circuitUnitary(circuit)[0]!;
    const amplitude = (row: number) => Math.hypot(state[2 * row]!, state[2 * row + 1]!);
    // A⁻¹ (0.8, 0.6) = 9/8 · (0.8 + 0.2, 0.8/3 + 0.6) ∝ (1, 13/15).
    expect(amplitude(9) / amplitude(8)).toBeCloseTo(13 / 15, 10);
    // The success probability C²·‖A⁻¹b‖²·λ₀² (C = 0.5, λ₀ = 2/3).
    expect(amplitude(8) ** 2 + amplitude(9) ** 2).toBeCloseTo(0.25 * (4 / 9) * (81 / 64) * (1 + (13 / 15) ** 2), 10);
  });
});
