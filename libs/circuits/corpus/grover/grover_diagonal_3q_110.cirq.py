# Grover with the oracle as cirq.DiagonalGate (angles π on the marked index; Cirq's index is
# big-endian: qubit 0 is the most significant bit).
import math
import numpy as np
import cirq


def grover(marked_big_endian="011"):
    n = len(marked_big_endian)
    q = cirq.LineQubit.range(n)
    angles = [0.0] * 2**n
    angles[int(marked_big_endian, 2)] = np.pi
    zero_reflection = [np.pi] * 2**n
    zero_reflection[0] = 0.0
    circuit = cirq.Circuit(cirq.H.on_each(*q))
    for _ in range(math.floor(math.pi / 4 * math.sqrt(2**n))):
        circuit.append(cirq.DiagonalGate(angles).on(*q))
        circuit.append([cirq.H.on_each(*q), cirq.DiagonalGate(zero_reflection).on(*q), cirq.H.on_each(*q)])
    circuit.append(cirq.measure(*q, key="m"))
    return circuit
