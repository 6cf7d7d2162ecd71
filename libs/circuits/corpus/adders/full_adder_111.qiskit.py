# One-bit full adder with Toffoli and CNOT gates (sum and carry out of a + b + cin).
from qiskit import QuantumCircuit

qc = QuantumCircuit(4, 2)  # q0 = a, q1 = b, q2 = cin → sum, q3 = carry
for qubit, bit in zip([0, 1, 2], [1, 1, 1]):
    if bit:
        qc.x(qubit)
qc.ccx(0, 1, 3)
qc.cx(0, 1)
qc.ccx(1, 2, 3)
qc.cx(1, 2)
qc.cx(0, 1)
qc.measure(2, 0)
qc.measure(3, 1)
