# QFT then inverse QFT on a basis state returns it: a check of both library directions.
from qiskit import QuantumCircuit
from qiskit.circuit.library import QFT


def qft_roundtrip(value=22, n=5):
    qc = QuantumCircuit(n)
    for i in range(n):
        if (value >> i) & 1:
            qc.x(i)
    qc.compose(QFT(n), inplace=True)
    qc.barrier()
    qc.compose(QFT(n).inverse(), inplace=True)
    qc.measure_all()
    return qc
