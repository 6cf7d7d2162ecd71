# Arbitrary state preparation with QuantumCircuit.initialize and complex amplitudes.
import math
from qiskit import QuantumCircuit


def prepared(amplitudes):
    norm = math.sqrt(sum(abs(a) ** 2 for a in amplitudes))
    n = (len(amplitudes) - 1).bit_length()
    qc = QuantumCircuit(n, n)
    qc.initialize([a / norm for a in amplitudes], list(range(n)))
    qc.measure(range(n), range(n))
    return qc


circuit = prepared([1, 0, 1.0j, 0, 0.5, 0, 0, -0.5 - 0.5j])
