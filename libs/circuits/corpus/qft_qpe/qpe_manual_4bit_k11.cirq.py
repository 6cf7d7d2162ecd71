# Quantum phase estimation with an inverse QFT written by hand (little-endian like Qiskit's).
import math
import cirq


def qft_dagger(qubits):
    n = len(qubits)
    for i in range(n // 2):
        yield cirq.SWAP(qubits[i], qubits[n - i - 1])
    for j in range(n):
        for m in range(j):
            yield cirq.CZPowGate(exponent=-1 / 2 ** (j - m)).on(qubits[m], qubits[j])
        yield cirq.H(qubits[j])


def qpe(counting=4, phase=11 / 16):
    qs = cirq.LineQubit.range(counting)
    target = cirq.LineQubit(counting)
    circuit = cirq.Circuit(cirq.X(target), cirq.H.on_each(*qs))
    for i, q in enumerate(qs):
        # controlled P(2πφ)^(2^i) = CZ^(2φ·2^i)
        circuit.append(cirq.CZ(q, target) ** (2 * phase * 2**i))
    circuit.append(qft_dagger(qs))
    circuit.append(cirq.measure(*qs, key="phase"))
    return circuit
