# Simon's algorithm, oracle as a sub-circuit (CircuitOperation) on both registers.
import cirq

secret = "0110"
n = len(secret)
x = cirq.LineQubit.range(n)
fx = cirq.LineQubit.range(n, 2 * n)
pivot = secret[::-1].index("1")
oracle = cirq.Circuit(cirq.CNOT(a, b) for a, b in zip(x, fx))
oracle.append(cirq.CNOT(x[pivot], fx[i]) for i, bit in enumerate(secret[::-1]) if bit == "1")
circuit = cirq.Circuit(
    cirq.H.on_each(*x),
    cirq.CircuitOperation(oracle.freeze()),
    cirq.H.on_each(*x),
    cirq.measure(*x, key="y"),
)
