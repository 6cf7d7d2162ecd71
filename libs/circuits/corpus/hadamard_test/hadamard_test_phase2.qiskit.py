# Hadamard test of U = P(φ) on |ψ⟩ = Ry(a)|0⟩ (real part).
import math
from qiskit import QuantumCircuit

a = 2.4
phi = 0.8
qc = QuantumCircuit(2, 1)
qc.ry(a, 1)
qc.h(0)
qc.cp(phi, 0, 1)
qc.h(0)
qc.measure(0, 0)
