# Log-depth GHZ preparation: every qubit already in the state fans out in each round.
from qiskit import QuantumCircuit, QuantumRegister, ClassicalRegister


def ghz_log_depth(n):
    q = QuantumRegister(n, "q")
    c = ClassicalRegister(n, "c")
    qc = QuantumCircuit(q, c)
    qc.h(q[0])
    filled = 1
    while filled < n:
        for i in range(min(filled, n - filled)):
            qc.cx(q[i], q[filled + i])
        filled *= 2
    qc.measure(q, c)
    return qc


circuit = ghz_log_depth(7)
