# Deutsch–Jozsa with the oracle wrapped as a gate (top-level script, textbook style).
from qiskit import QuantumCircuit

n = 3
mask = "101"  # balanced: f(x) = mask · x, qubit 0 is the rightmost character


def balanced_oracle(n, mask):
    oracle = QuantumCircuit(n + 1, name="U_f")
    for qubit, bit in enumerate(reversed(mask)):
        if bit == "1":
            oracle.x(qubit)
    for qubit in range(n):
        oracle.cx(qubit, n)
    for qubit, bit in enumerate(reversed(mask)):
        if bit == "1":
            oracle.x(qubit)
    oracle_gate = oracle.to_gate()
    oracle_gate.name = "Balanced Oracle"
    return oracle_gate


dj = QuantumCircuit(n + 1, n)
for qubit in range(n):
    dj.h(qubit)
dj.x(n)
dj.h(n)
dj.append(balanced_oracle(n, mask), range(n + 1))
for qubit in range(n):
    dj.h(qubit)
for i in range(n):
    dj.measure(i, i)
