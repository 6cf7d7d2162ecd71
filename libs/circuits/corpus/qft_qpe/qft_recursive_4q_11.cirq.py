# A recursive QFT (little-endian like Qiskit's), inverted with cirq.inverse, reading a number
# written in the Fourier basis.
import numpy as np
import cirq


def qft_rotations(qubits):
    if len(qubits) == 0:
        return []
    last, rest = qubits[-1], qubits[:-1]
    ops = [cirq.H(last)]
    ops += [cirq.CZ(q, last) ** (1 / 2 ** (len(rest) - i)) for i, q in enumerate(rest)]
    return ops + qft_rotations(rest)


def qft(qubits):
    n = len(qubits)
    return qft_rotations(qubits) + [cirq.SWAP(qubits[i], qubits[n - i - 1]) for i in range(n // 2)]


nqubits = 4
number = 11
q = cirq.LineQubit.range(nqubits)
circuit = cirq.Circuit(cirq.H.on_each(*q))
circuit.append(cirq.ZPowGate(exponent=number / 2 ** (nqubits - 1 - i)).on(q[i]) for i in range(nqubits))
circuit.append(cirq.inverse(qft(q)))
circuit.append(cirq.measure(*q, key="m"))
