# QAOA written with Parameters, bound in code with assign_parameters before running.
from qiskit import QuantumCircuit
from qiskit.circuit import Parameter

edges = [(0, 1), (1, 2), (2, 3)]
n = 4
gamma = Parameter("gamma")
beta = Parameter("beta")


def cost_layer(qc, gamma):
    for i, j in edges:
        qc.cx(i, j)
        qc.rz(2 * gamma, j)
        qc.cx(i, j)


ansatz = QuantumCircuit(n)
ansatz.h(range(n))
cost_layer(ansatz, gamma)
for q in range(n):
    ansatz.rx(2 * beta, q)
ansatz.measure_all()
bound = ansatz.assign_parameters({gamma: 0.7, beta: 0.45})
