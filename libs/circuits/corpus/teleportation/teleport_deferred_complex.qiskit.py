# Teleportation with the principle of deferred measurement: controlled corrections, then measure.
import numpy as np
from qiskit import QuantumCircuit


def teleport_deferred(amplitudes):
    qc = QuantumCircuit(3, 3)
    qc.initialize(amplitudes, 0)
    qc.h(1)
    qc.cx(1, 2)
    qc.cx(0, 1)
    qc.h(0)
    qc.cx(1, 2)
    qc.cz(0, 2)
    qc.measure([0, 1, 2], [0, 1, 2])
    return qc


state = np.array([0.6, 0.8j])
state = state / np.linalg.norm(state)
circuit = teleport_deferred(state)
