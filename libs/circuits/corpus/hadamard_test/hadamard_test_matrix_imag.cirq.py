# Hadamard test (imaginary part) of a 1-qubit unitary given as a numpy matrix.
import numpy as np
import cirq


def hadamard_test(U, prep_angle, imaginary=True):
    anc, sys = cirq.LineQubit.range(2)
    ops = [cirq.ry(prep_angle).on(sys), cirq.H(anc)]
    if imaginary:
        ops.append(cirq.S(anc) ** -1)
    ops.append(cirq.MatrixGate(U).controlled().on(anc, sys))
    ops += [cirq.H(anc), cirq.measure(anc, key="anc")]
    return cirq.Circuit(ops)


alpha = 0.6
U = np.array([[np.cos(alpha), -1j * np.sin(alpha)], [-1j * np.sin(alpha), np.cos(alpha)]])  # Rx(2α)
circuit = hadamard_test(U, 0.3)
