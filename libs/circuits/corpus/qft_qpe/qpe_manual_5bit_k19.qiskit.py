# Quantum phase estimation, textbook style: U = P(2πφ) on |1⟩, inverse QFT written by hand.
import math
from qiskit import QuantumCircuit


def qft_dagger(qc, n):
    """n-qubit inverse QFT on the first n qubits (swaps first)."""
    for qubit in range(n // 2):
        qc.swap(qubit, n - qubit - 1)
    for j in range(n):
        for m in range(j):
            qc.cp(-math.pi / float(2 ** (j - m)), m, j)
        qc.h(j)


def qpe(counting=5, phase=19 / 32):
    qc = QuantumCircuit(counting + 1, counting)
    qc.x(counting)  # eigenstate |1⟩ of P(θ)
    for q in range(counting):
        qc.h(q)
    repetitions = 1
    for q in range(counting):
        for _ in range(repetitions):
            qc.cp(2 * math.pi * phase, q, counting)
        repetitions *= 2
    qc.barrier()
    qft_dagger(qc, counting)
    qc.barrier()
    for q in range(counting):
        qc.measure(q, q)
    return qc
