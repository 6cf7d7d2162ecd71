# A 3-qubit unitary (the DFT matrix built with numpy) as a cirq.MatrixGate, undone by cirq.qft inverse.
import numpy as np
import cirq

N = 8
omega = np.exp(2j * np.pi / N)
F = np.array([[omega ** (j * k) for k in range(N)] for j in range(N)]) / np.sqrt(N)
q = cirq.LineQubit.range(3)
circuit = cirq.Circuit(
    cirq.X(q[0]),
    cirq.X(q[2]),  # |5⟩ big-endian
    cirq.MatrixGate(F).on(*q),
    cirq.qft(*q, inverse=True),
    cirq.measure(*q, key="m"),
)
