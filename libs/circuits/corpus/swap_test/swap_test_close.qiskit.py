# Swap test between Ry(a)|0⟩ and Ry(b)|0⟩.
from qiskit import QuantumCircuit


def swap_test(a=0.4, b=0.9):
    qc = QuantumCircuit(3, 1)
    qc.ry(a, 1)
    qc.ry(b, 2)
    qc.h(0)
    qc.cswap(0, 1, 2)
    qc.h(0)
    qc.measure(0, 0)
    return qc
