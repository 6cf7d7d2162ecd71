# A 2-qubit unitary from numpy (np.kron of single-qubit matrices times a CNOT) as a UnitaryGate.
import numpy as np
from qiskit import QuantumCircuit
from qiskit.circuit.library import UnitaryGate


def ry(theta):
    return np.array([[np.cos(theta / 2), -np.sin(theta / 2)], [np.sin(theta / 2), np.cos(theta / 2)]])


CNOT = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]])
S = np.array([[1, 0], [0, 1j]])
M = CNOT @ np.kron(ry(0.8), S @ ry(2.1))

qc = QuantumCircuit(2)
qc.unitary(M, [0, 1], label="M")
qc.measure_all()
