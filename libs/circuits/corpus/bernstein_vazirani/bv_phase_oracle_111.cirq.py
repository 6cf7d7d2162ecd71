# Phase-oracle Bernstein–Vazirani with Z**1 on the secret's qubits.
import cirq

SECRET = "111"


def phase_oracle(qubits, secret):
    return [cirq.Z(q) ** 1 for q, bit in zip(qubits, secret[::-1]) if bit == "1"]


def build(secret=SECRET):
    qubits = cirq.LineQubit.range(len(secret))
    return cirq.Circuit(
        cirq.H.on_each(*qubits),
        phase_oracle(qubits, secret),
        cirq.H.on_each(*qubits),
        cirq.measure(*qubits, key="m"),
    )


circuit = build()
