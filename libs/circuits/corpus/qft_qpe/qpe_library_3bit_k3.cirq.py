# Quantum phase estimation the Cirq way: cirq.qft(inverse=True), qubit 0 the most significant bit.
import numpy as np
import cirq

n = 3
theta = 2 * np.pi * 3 / 2**n
counting = cirq.LineQubit.range(n)
state = cirq.LineQubit(n)
U = cirq.ZPowGate(exponent=theta / np.pi)
circuit = cirq.Circuit(cirq.X(state), cirq.H.on_each(*counting))
for i, q in enumerate(counting):
    circuit.append((U ** (2 ** (n - 1 - i))).controlled().on(q, state))
circuit.append(cirq.qft(*counting, inverse=True))
circuit.append(cirq.measure(*counting, key="phase"))
