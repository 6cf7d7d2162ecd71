# Deutsch–Jozsa with the oracle as a CircuitOperation.
import cirq

n = 4
mask = "0110"  # qubit i flips when mask[-1 - i] == "1" (Qiskit's string order)

qubits = cirq.LineQubit.range(n + 1)
inputs, output = qubits[:n], qubits[n]
flips = [q for i, q in enumerate(inputs) if mask[n - 1 - i] == "1"]
oracle = cirq.FrozenCircuit(
    cirq.X.on_each(*flips),
    [cirq.CNOT(q, output) for q in inputs],
    cirq.X.on_each(*flips),
)
circuit = cirq.Circuit(
    cirq.X(output),
    cirq.H.on_each(*qubits),
    cirq.CircuitOperation(oracle),
    cirq.H.on_each(*inputs),
    cirq.measure(*inputs, key="m"),
)
