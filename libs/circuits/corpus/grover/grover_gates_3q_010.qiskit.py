# Grover with the oracle as ZGate().control(n-1) and the diffuser as a sub-circuit gate.
import numpy as np
from qiskit import QuantumCircuit
from qiskit.circuit.library import ZGate, MCXGate

marked_states = ['010']
n = 3


def oracle(n, marked_states):
    qc = QuantumCircuit(n, name="oracle")
    for target in marked_states:
        rev = target[::-1]
        zero_inds = [i for i in range(n) if rev[i] == "0"]
        if zero_inds:
            qc.x(zero_inds)
        qc.append(ZGate().control(n - 1), list(range(n)))
        if zero_inds:
            qc.x(zero_inds)
    return qc.to_gate()


def diffuser(n):
    qc = QuantumCircuit(n, name="diffuser")
    qc.h(range(n))
    qc.x(range(n))
    qc.h(n - 1)
    qc.append(MCXGate(n - 1), list(range(n)))
    qc.h(n - 1)
    qc.x(range(n))
    qc.h(range(n))
    return qc.to_gate()


iterations = int(np.floor(np.pi / 4 * np.sqrt(2**n / len(marked_states))))
grover = QuantumCircuit(n, n)
grover.h(range(n))
for _ in range(iterations):
    grover.append(oracle(n, marked_states), range(n))
    grover.append(diffuser(n), range(n))
grover.measure(range(n), range(n))
