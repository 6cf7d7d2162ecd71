# W state by a cascade of controlled-Ry rotations (cirq.ControlledGate) and CNOTs.
import numpy as np
import cirq


def w_state(n=3):
    q = cirq.LineQubit.range(n)
    circuit = cirq.Circuit(cirq.X(q[0]))
    for k in range(n - 1):
        theta = 2 * np.arccos(np.sqrt(1 / (n - k)))
        circuit.append(cirq.ControlledGate(cirq.ry(theta)).on(q[k], q[k + 1]))
        circuit.append(cirq.CNOT(q[k + 1], q[k]))
    circuit.append(cirq.measure(*q, key="w"))
    return circuit
