# A 2-qubit unitary from numpy (np.kron of single-qubit matrices times a CNOT) as a cirq.MatrixGate.
import numpy as np
import cirq


def ry(theta):
    return np.array([[np.cos(theta / 2), -np.sin(theta / 2)], [np.sin(theta / 2), np.cos(theta / 2)]])


CNOT = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]])
S = np.array([[1, 0], [0, 1j]])
M = CNOT @ np.kron(ry(0.8), S @ ry(2.1))
q = cirq.LineQubit.range(2)
circuit = cirq.Circuit(cirq.MatrixGate(M).on(*q), cirq.measure(*q, key="m"))
