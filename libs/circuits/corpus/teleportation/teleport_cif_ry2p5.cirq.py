# Teleportation with measurement keys and classically controlled corrections.
import cirq

theta = 2.5
msg, alice, bob = cirq.LineQubit.range(3)
circuit = cirq.Circuit(
    cirq.ry(theta).on(msg),
    cirq.H(alice),
    cirq.CNOT(alice, bob),
    cirq.CNOT(msg, alice),
    cirq.H(msg),
    cirq.measure(msg, key="crz"),
    cirq.measure(alice, key="crx"),
    cirq.X(bob).with_classical_controls("crx"),
    cirq.Z(bob).with_classical_controls("crz"),
    cirq.measure(bob, key="result"),
)
