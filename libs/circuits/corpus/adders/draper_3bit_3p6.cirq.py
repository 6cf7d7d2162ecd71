# Draper's QFT adder with a hand-written little-endian QFT and cirq.inverse for the inverse.
import math
import cirq


def qft(qubits):
    n = len(qubits)
    ops = []
    for j in reversed(range(n)):
        ops.append(cirq.H(qubits[j]))
        for k in reversed(range(j)):
            ops.append(cirq.CZ(qubits[k], qubits[j]) ** (1 / 2 ** (j - k)))
    for i in range(n // 2):
        ops.append(cirq.SWAP(qubits[i], qubits[n - 1 - i]))
    return ops


def draper_adder(a_val, b_val, n):
    a = cirq.LineQubit.range(n)
    b = cirq.LineQubit.range(n, 2 * n)
    circuit = cirq.Circuit()
    circuit.append(cirq.X(a[i]) for i in range(n) if a_val >> i & 1)
    circuit.append(cirq.X(b[i]) for i in range(n) if b_val >> i & 1)
    circuit.append(qft(b))
    for j in range(n):
        for i in range(n - j):
            circuit.append(cirq.CZPowGate(exponent=2 * 2 ** (i + j) / 2**n).on(a[i], b[j]))
    circuit.append(cirq.inverse(qft(b)))
    circuit.append(cirq.measure(*b, key="sum"))
    return circuit


circuit = draper_adder(3, 6, 3)
