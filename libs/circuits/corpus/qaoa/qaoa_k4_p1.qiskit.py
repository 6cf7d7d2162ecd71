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


edges = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
circuit = qaoa_maxcut(4, edges, gammas=[0.45], betas=[0.3])
