# Teleportation with deferred measurement; the input state from a 2×2 matrix whose first column
# is the (normalised) state, applied with cirq.MatrixGate.
import numpy as np
import cirq

a, b = 1 + 1j, 2 - 0.5j
norm = np.sqrt(abs(a) ** 2 + abs(b) ** 2)
a, b = a / norm, b / norm
prep = np.array([[a, -np.conj(b)], [b, np.conj(a)]])  # unitary with prep|0⟩ = a|0⟩ + b|1⟩
q0, q1, q2 = cirq.LineQubit.range(3)
circuit = cirq.Circuit(
    cirq.MatrixGate(prep).on(q0),
    cirq.H(q1),
    cirq.CNOT(q1, q2),
    cirq.CNOT(q0, q1),
    cirq.H(q0),
    cirq.CNOT(q1, q2),
    cirq.CZ(q0, q2),
    cirq.measure(q0, q1, q2, key="m"),
)
