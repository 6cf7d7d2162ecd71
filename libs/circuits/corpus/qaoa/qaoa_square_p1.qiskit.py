# QAOA for MaxCut with angles fixed in code: cost layer of RZZ(2γ) per edge, mixer RX(2β).
from qiskit import QuantumCircuit


def qaoa_maxcut(n, edges, gammas, betas):
    qc = QuantumCircuit(n)
    qc.h(range(n))
    for gamma, beta in zip(gammas, betas):
        for i, j in edges:
            qc.rzz(2 * gamma, i, j)
        qc.rx(2 * beta, range(n))
    qc.measure_all()
    return qc


edges = [(0, 1), (1, 2), (2, 3), (3, 0)]
circuit = qaoa_maxcut(4, edges, gammas=[0.39], betas=[0.4])
