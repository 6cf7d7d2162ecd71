# The RealAmplitudes-shaped ansatz (Ry layers, linear CNOT entanglers) with numeric angles.
import numpy as np
import cirq

n, reps = 3, 2
q = cirq.LineQubit.range(n)
values = iter(np.linspace(0.1, 2.0, n * (reps + 1)))
circuit = cirq.Circuit()
for layer in range(reps + 1):
    circuit.append(cirq.ry(next(values)).on(qubit) for qubit in q)
    if layer < reps:
        circuit.append(cirq.CNOT(q[i], q[i + 1]) for i in range(n - 1))
circuit.append(cirq.measure(*q, key="m"))
