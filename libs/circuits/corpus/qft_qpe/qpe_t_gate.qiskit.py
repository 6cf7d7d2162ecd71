# QPE of the T gate (φ = 1/8) with its controlled version from TGate().control(1).
from qiskit import QuantumCircuit
from qiskit.circuit.library import TGate, QFTGate


def controlled_t_power(power):
    block = QuantumCircuit(1, name=f"T^{power}")
    for _ in range(power):
        block.t(0)
    return block.to_gate().control(1)


def build():
    qc = QuantumCircuit(4, 3)
    qc.x(3)
    qc.h([0, 1, 2])
    for j in range(3):
        qc.append(controlled_t_power(2**j), [j, 3])
    qc.append(QFTGate(3).inverse(), [0, 1, 2])
    qc.measure([0, 1, 2], [0, 1, 2])
    return qc
