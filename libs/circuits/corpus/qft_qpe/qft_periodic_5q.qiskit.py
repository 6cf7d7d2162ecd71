# A periodic state under the inverse QFT: the superposition of the multiples of 2^(n-m) → peaks.
from qiskit import QuantumCircuit
from qiskit.circuit.library import QFT

n = 5
qc = QuantumCircuit(n)
# uniform superposition over multiples of 2^(n-2): H on the top 2 qubits only
for q in range(n - 2, n):
    qc.h(q)
qc.append(QFT(n, inverse=True, do_swaps=True), range(n))
qc.measure_all()
