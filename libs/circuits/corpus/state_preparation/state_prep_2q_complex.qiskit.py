# Arbitrary state preparation from a complex amplitude vector (index little-endian in qubit number).
import numpy as np
from qiskit import QuantumCircuit
from qiskit.circuit.library import StatePreparation

amplitudes = np.array([0.5, 0.5j, -0.5, 0.3 + 0.4j])
amplitudes = amplitudes / np.linalg.norm(amplitudes)
n = int(np.log2(len(amplitudes)))
qc = QuantumCircuit(n)
qc.append(StatePreparation(amplitudes), range(n))
qc.measure_all()
