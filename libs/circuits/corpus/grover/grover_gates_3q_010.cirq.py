# Grover with the oracle as cirq.Z.controlled(n-1) per marked state and a diffuser helper.
import numpy as np
import cirq

marked_states = ['010']
n = 3
q = cirq.LineQubit.range(n)


def oracle(marked_states):
    for target in marked_states:
        zeros = [q[i] for i, bit in enumerate(target[::-1]) if bit == "0"]
        yield [cirq.X(z) for z in zeros]
        yield cirq.Z(q[-1]).controlled_by(*q[:-1])
        yield [cirq.X(z) for z in zeros]


def diffuser():
    yield cirq.H.on_each(*q)
    yield cirq.X.on_each(*q)
    yield cirq.H(q[-1])
    yield cirq.X(q[-1]).controlled_by(*q[:-1])
    yield cirq.H(q[-1])
    yield cirq.X.on_each(*q)
    yield cirq.H.on_each(*q)


iterations = int(np.floor(np.pi / 4 * np.sqrt(2**n / len(marked_states))))
circuit = cirq.Circuit(cirq.H.on_each(*q))
for _ in range(iterations):
    circuit += oracle(marked_states)
    circuit += diffuser()
circuit += cirq.measure(*q, key="m")
