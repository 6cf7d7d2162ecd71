# Hadamard test of U = P(φ) on |ψ⟩ = Ry(a)|0⟩ (real part).
import math
from qiskit import QuantumCircuit

a = 1.0
phi = 2.0
qc = QuantumCircuit(2, 1)
qc.ry(a, 1)
qc.h(0)
qc.cp(phi, 0, 1)
qc.h(0)
qc.measure(0, 0)
