# Grover with qiskit.circuit.library: an oracle circuit built by a helper, GroverOperator, MCMT.
from qiskit import QuantumCircuit
from qiskit.circuit.library import GroverOperator, MCMT, ZGate


def oracle_for(marked: str) -> QuantumCircuit:
    n = len(marked)
    oracle = QuantumCircuit(n)
    flips = [q for q in range(n) if marked[n - 1 - q] == "0"]
    if flips:
        oracle.x(flips)
    oracle.compose(MCMT(ZGate(), n - 1, 1), inplace=True)
    if flips:
        oracle.x(flips)
    return oracle


def search(marked: str = "1101", iterations: int = 3) -> QuantumCircuit:
    n = len(marked)
    grover_op = GroverOperator(oracle_for(marked))
    qc = QuantumCircuit(n)
    qc.h(range(n))
    for _ in range(iterations):
        qc.compose(grover_op, inplace=True)
    qc.measure_all()
    return qc
