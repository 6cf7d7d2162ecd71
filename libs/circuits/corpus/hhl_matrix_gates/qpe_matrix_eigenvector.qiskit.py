# Phase estimation of U = e^{iAt} (a UnitaryGate from numpy) on the eigenvector |−⟩ of A.
import numpy as np
from qiskit import QuantumCircuit, QuantumRegister, ClassicalRegister
from qiskit.circuit.library import UnitaryGate, QFTGate

A = np.array([[1.5, -0.5], [-0.5, 1.5]])
t = np.pi / 2
plus = np.array([1, 1]) / np.sqrt(2)
minus = np.array([1, -1]) / np.sqrt(2)
U = np.exp(1j * 1 * t) * np.outer(plus, plus) + np.exp(1j * 2 * t) * np.outer(minus, minus)

clock = QuantumRegister(2, "clock")
target = QuantumRegister(1, "target")
meas = ClassicalRegister(2, "meas")
qc = QuantumCircuit(clock, target, meas)
qc.x(target)
qc.h(target)  # |−⟩, eigenvalue λ = 2
qc.h(clock)
qc.append(UnitaryGate(U, label="U").control(), [clock[0], target[0]])
qc.append(UnitaryGate(U @ U, label="U^2").control(), [clock[1], target[0]])
qc.append(QFTGate(2).inverse(), clock)
qc.measure(clock, meas)
