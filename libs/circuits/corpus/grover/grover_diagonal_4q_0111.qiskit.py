# Grover with the oracle as a Diagonal gate (±1 entries, index little-endian) and the diffuser
# as the Diagonal of the zero reflection between Hadamard layers.
import math
from qiskit import QuantumCircuit
from qiskit.circuit.library import Diagonal


def oracle(n, marked):
    entries = [1] * 2**n
    entries[int(marked, 2)] = -1
    return Diagonal(entries)


def diffuser(n):
    qc = QuantumCircuit(n, name="diffuser")
    qc.h(range(n))
    qc.append(Diagonal([1] + [-1] * (2**n - 1)), range(n))
    qc.h(range(n))
    return qc


def grover(marked="0111"):
    n = len(marked)
    qc = QuantumCircuit(n)
    qc.h(range(n))
    for _ in range(math.floor(math.pi / 4 * math.sqrt(2**n))):
        qc.append(oracle(n, marked), range(n))
        qc.compose(diffuser(n), inplace=True)
    qc.measure_all()
    return qc
