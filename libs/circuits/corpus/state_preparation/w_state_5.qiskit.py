# W state by a cascade of controlled-Ry rotations and CNOTs.
import numpy as np
from qiskit import QuantumCircuit


def w_state(n=5):
    qc = QuantumCircuit(n)
    qc.x(0)
    for k in range(n - 1):
        theta = 2 * np.arccos(np.sqrt(1 / (n - k)))
        qc.cry(theta, k, k + 1)
        qc.cx(k + 1, k)
    qc.measure_all()
    return qc
