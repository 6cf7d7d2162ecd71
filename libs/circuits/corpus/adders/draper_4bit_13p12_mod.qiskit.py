# Draper's QFT adder (arXiv:quant-ph/0008033): b ← a + b (mod 2^n) by phase rotations in the Fourier basis.
import math
from qiskit import QuantumCircuit, QuantumRegister, ClassicalRegister
from qiskit.circuit.library import QFT


def load(qc, register, value):
    for i, qubit in enumerate(register):
        if (value >> i) & 1:
            qc.x(qubit)


def draper_adder(a_val, b_val, n):
    a = QuantumRegister(n, "a")
    b = QuantumRegister(n, "b")
    out = ClassicalRegister(n, "sum")
    qc = QuantumCircuit(a, b, out)
    load(qc, a, a_val)
    load(qc, b, b_val)
    qc.append(QFT(n, do_swaps=True), b)
    for j in range(n):
        for i in range(n - j):
            qc.cp(2 * math.pi * 2 ** (i + j) / 2**n, a[i], b[j])
    qc.append(QFT(n, do_swaps=True).inverse(), b)
    qc.measure(b, out)
    return qc


circuit = draper_adder(13, 12, 4)
