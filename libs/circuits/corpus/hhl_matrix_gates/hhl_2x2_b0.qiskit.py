# HHL for a 2×2 system (Harrow, Hassidim, Lloyd 2009, arXiv:0811.3171): QPE of U = e^{iAt} built
# from numpy matrices, eigenvalue inversion by controlled Ry, uncomputation, measure ancilla + |x⟩.
import numpy as np
from qiskit import QuantumCircuit
from qiskit.circuit.library import UnitaryGate, QFT

t = np.pi / 2
V = np.array([[1, 1], [1, -1]]) / np.sqrt(2)  # eigenvectors of A = [[1.5, -0.5], [-0.5, 1.5]]


def evolution(power):
    """e^{iA t·power} = V diag(e^{i·1·t·power}, e^{i·2·t·power}) V†."""
    d = np.array([[np.exp(1j * 1 * t * power), 0], [0, np.exp(1j * 2 * t * power)]])
    return V @ d @ V.conj().T


def hhl(b_angle=0.0, C=0.5):
    qc = QuantumCircuit(4, 2)  # q0 = |b⟩, q1 q2 = clock, q3 = ancilla
    qc.ry(b_angle, 0)
    qc.h([1, 2])
    qc.append(UnitaryGate(evolution(1)).control(1), [1, 0])
    qc.append(UnitaryGate(evolution(2)).control(1), [2, 0])
    qc.append(QFT(2, inverse=True), [1, 2])
    # clock reads k = λ: rotate the ancilla by 2·asin(C/λ)
    qc.cry(2 * np.arcsin(C / 1), 1, 3)
    qc.cry(2 * np.arcsin(C / 2), 2, 3)
    qc.append(QFT(2), [1, 2])
    qc.append(UnitaryGate(evolution(-2)).control(1), [2, 0])
    qc.append(UnitaryGate(evolution(-1)).control(1), [1, 0])
    qc.h([1, 2])
    qc.measure(3, 0)
    qc.measure(0, 1)
    return qc
