# QAOA written with sympy symbols, resolved in code with cirq.resolve_parameters.
import sympy
import cirq

edges = [(0, 1), (1, 2), (2, 3)]
n = 4
gamma, beta = sympy.symbols("gamma beta")
q = cirq.LineQubit.range(n)


def cost_layer(gamma):
    for i, j in edges:
        yield cirq.CNOT(q[i], q[j])
        yield cirq.rz(2 * gamma).on(q[j])
        yield cirq.CNOT(q[i], q[j])


ansatz = cirq.Circuit(cirq.H.on_each(*q), cost_layer(gamma), cirq.rx(2 * beta).on_each(*q), cirq.measure(*q, key="m"))
circuit = cirq.resolve_parameters(ansatz, {"gamma": 0.7, "beta": 0.45})
