# QAOA for MaxCut: exp(-iγ Z_i Z_j) = ZZPowGate(exponent=2γ/π) up to global phase, mixer rx(2β).
import numpy as np
import cirq


def qaoa_maxcut(n, edges, gammas, betas):
    q = cirq.LineQubit.range(n)
    circuit = cirq.Circuit(cirq.H.on_each(*q))
    for gamma, beta in zip(gammas, betas):
        circuit.append(cirq.ZZPowGate(exponent=2 * gamma / np.pi).on(q[i], q[j]) for i, j in edges)
        circuit.append(cirq.rx(2 * beta).on_each(*q))
    circuit.append(cirq.measure(*q, key="cut"))
    return circuit


edges = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
circuit = qaoa_maxcut(4, edges, gammas=[0.45], betas=[0.3])
