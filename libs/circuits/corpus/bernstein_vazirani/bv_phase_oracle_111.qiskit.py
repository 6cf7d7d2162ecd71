# Phase-oracle Bernstein–Vazirani: (−1)^(s·x) = Z on every qubit where s has a 1, no ancilla.
from qiskit import QuantumCircuit
from qiskit.circuit.library import ZGate


def phase_oracle(secret):
    n = len(secret)
    oracle = QuantumCircuit(n, name="Z_s")
    for qubit, bit in enumerate(secret[::-1]):
        if bit == "1":
            oracle.append(ZGate(), [qubit])
    return oracle.to_instruction()


def build(secret="111"):
    n = len(secret)
    qc = QuantumCircuit(n, n)
    qc.h(range(n))
    qc.append(phase_oracle(secret), list(range(n)))
    qc.h(range(n))
    qc.measure(list(range(n)), list(range(n)))
    return qc


circuit = build()
