# Hadamard test of a 2-qubit unitary built as a sub-circuit and controlled with .control().
from qiskit import QuantumCircuit


def unitary_block(theta):
    block = QuantumCircuit(2, name="U")
    block.rzz(theta, 0, 1)
    block.h(1)
    return block.to_gate()


qc = QuantumCircuit(3, 1)
qc.x(1)  # |ψ⟩ = |01⟩ (q1 = 1, q2 = 0)
qc.h(0)
qc.append(unitary_block(0.9).control(1), [0, 1, 2])
qc.h(0)
qc.measure(0, 0)
