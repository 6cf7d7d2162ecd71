# Superdense coding: Alice applies X^b1 Z^b0 to her half of the Bell pair.
import cirq

ENCODINGS = {"00": [], "01": [cirq.X], "10": [cirq.Z], "11": [cirq.X, cirq.Z]}


def superdense(message="11"):
    alice, bob = cirq.LineQubit.range(2)
    circuit = cirq.Circuit(cirq.H(bob), cirq.CNOT(bob, alice))
    circuit.append(gate(alice) for gate in ENCODINGS[message])
    circuit.append([cirq.CNOT(bob, alice), cirq.H(bob)])
    circuit.append(cirq.measure(alice, bob, key="received"))
    return circuit
