# Quantum phase estimation with library gates: controlled powers of a PhaseGate and QFT(inverse=True).
import numpy as np
from qiskit import QuantumCircuit, QuantumRegister, ClassicalRegister
from qiskit.circuit.library import QFT, PhaseGate

n = 4
theta = 2 * np.pi * 13 / 2**n
counting = QuantumRegister(n, "counting")
state = QuantumRegister(1, "state")
readout = ClassicalRegister(n, "readout")
qc = QuantumCircuit(counting, state, readout)
qc.x(state)
qc.h(counting)
for j in range(n):
    qc.append(PhaseGate(theta).power(2**j).control(), [counting[j], state[0]])
qc.append(QFT(n, inverse=True), counting)
qc.measure(counting, readout)
