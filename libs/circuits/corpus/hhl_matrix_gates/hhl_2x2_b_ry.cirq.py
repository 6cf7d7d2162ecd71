# HHL for a 2×2 system with cirq.MatrixGate(...).controlled() and cirq.qft on the clock.
import numpy as np
import cirq

t = np.pi / 2
V = np.array([[1, 1], [1, -1]]) / np.sqrt(2)


def evolution(power):
    d = np.array([[np.exp(1j * t * power), 0], [0, np.exp(2j * t * power)]])
    return V @ d @ V.conj().T


def hhl(b_angle=1.2, C=0.9):
    b, c0, c1, anc = cirq.LineQubit.range(4)
    clock_be = [c1, c0]  # cirq.qft reads its first qubit as the most significant bit
    cu1 = cirq.MatrixGate(evolution(1)).controlled()
    cu2 = cirq.MatrixGate(evolution(2)).controlled()
    circuit = cirq.Circuit(cirq.ry(b_angle)(b), cirq.H(c0), cirq.H(c1))
    circuit.append([cu1.on(c0, b), cu2.on(c1, b)])
    circuit.append(cirq.qft(*clock_be, inverse=True))
    circuit.append(cirq.ry(2 * np.arcsin(C / 1)).on(anc).controlled_by(c0))
    circuit.append(cirq.ry(2 * np.arcsin(C / 2)).on(anc).controlled_by(c1))
    circuit.append(cirq.qft(*clock_be))
    circuit.append([cirq.MatrixGate(evolution(-2)).controlled().on(c1, b), cirq.MatrixGate(evolution(-1)).controlled().on(c0, b)])
    circuit.append(cirq.H.on_each(c0, c1))
    circuit.append(cirq.measure(anc, key="anc"))
    circuit.append(cirq.measure(b, key="x"))
    return circuit
