# Bernstein–Vazirani, textbook script: the secret is a bitstring, qubit 0 = rightmost character.
from qiskit import QuantumCircuit

s = "1011"
n = len(s)

bv_circuit = QuantumCircuit(n + 1, n)
bv_circuit.h(n)
bv_circuit.z(n)
for i in range(n):
    bv_circuit.h(i)
bv_circuit.barrier()
s = s[::-1]  # reverse s to fit qiskit's qubit ordering
for q in range(n):
    if s[q] == "0":
        bv_circuit.i(q)
    else:
        bv_circuit.cx(q, n)
bv_circuit.barrier()
for i in range(n):
    bv_circuit.h(i)
for i in range(n):
    bv_circuit.measure(i, i)
