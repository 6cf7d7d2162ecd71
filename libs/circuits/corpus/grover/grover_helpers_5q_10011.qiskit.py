import math
from qiskit import QuantumCircuit


def phase_oracle(qc, marked):
    """Flip the phase of |marked⟩ (marked is a bitstring, qubit 0 = rightmost character)."""
    n = qc.num_qubits
    zeros = [i for i, b in enumerate(reversed(marked)) if b == "0"]
    if zeros:
        qc.x(zeros)
    qc.h(n - 1)
    qc.mcx(list(range(n - 1)), n - 1)
    qc.h(n - 1)
    if zeros:
        qc.x(zeros)


def diffuser(qc):
    n = qc.num_qubits
    qc.h(range(n))
    qc.x(range(n))
    qc.h(n - 1)
    qc.mcx(list(range(n - 1)), n - 1)
    qc.h(n - 1)
    qc.x(range(n))
    qc.h(range(n))


def grover(marked="10011"):
    n = len(marked)
    iterations = math.floor(math.pi / 4 * math.sqrt(2 ** n))
    qc = QuantumCircuit(n)
    qc.h(range(n))
    for _ in range(iterations):
        phase_oracle(qc, marked)
        diffuser(qc)
    qc.measure_all()
    return qc
