# Phase estimation of U = e^{iAt} (cirq.MatrixGate) on the eigenvector |−⟩ of A; big-endian clock.
import numpy as np
import cirq

t = np.pi / 2
plus = np.array([1, 1]) / np.sqrt(2)
minus = np.array([1, -1]) / np.sqrt(2)
U = np.exp(1j * t) * np.outer(plus, plus) + np.exp(2j * t) * np.outer(minus, minus)
U2 = U @ U
clock = cirq.LineQubit.range(2)
target = cirq.LineQubit(2)
circuit = cirq.Circuit(
    cirq.X(target),
    cirq.H(target),
    cirq.H.on_each(*clock),
    cirq.MatrixGate(U2).controlled().on(clock[0], target),
    cirq.MatrixGate(U).controlled().on(clock[1], target),
    cirq.qft(*clock, inverse=True),
    cirq.measure(*clock, key="meas"),
)
