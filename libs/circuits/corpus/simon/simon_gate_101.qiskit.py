# Simon's algorithm, oracle as a gate appended onto both registers.
from qiskit import QuantumCircuit, QuantumRegister, ClassicalRegister

secret = "101"
n = len(secret)
x = QuantumRegister(n, "x")
fx = QuantumRegister(n, "fx")
y = ClassicalRegister(n, "y")

oracle = QuantumCircuit(2 * n, name="Uf")
oracle.cx(range(n), range(n, 2 * n))
pivot = secret[::-1].index("1")
for i, bit in enumerate(secret[::-1]):
    if bit == "1":
        oracle.cx(pivot, n + i)

circuit = QuantumCircuit(x, fx, y)
circuit.h(x)
circuit.append(oracle.to_gate(), [*x, *fx])
circuit.h(x)
circuit.measure(x, y)
