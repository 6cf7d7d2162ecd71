# Hadamard test (imaginary part) of a 1-qubit unitary given as a numpy matrix.
import numpy as np
from qiskit import QuantumCircuit
from qiskit.circuit.library import UnitaryGate


def hadamard_test(U, prep_angle, imaginary=True):
    qc = QuantumCircuit(2, 1)
    qc.ry(prep_angle, 1)
    qc.h(0)
    if imaginary:
        qc.sdg(0)
    qc.append(UnitaryGate(U).control(1), [0, 1])
    qc.h(0)
    qc.measure(0, 0)
    return qc


alpha = 0.6
U = np.array([[np.cos(alpha), -1j * np.sin(alpha)], [-1j * np.sin(alpha), np.cos(alpha)]])  # Rx(2α)
circuit = hadamard_test(U, 0.3)
