# A UCC-flavoured 2-qubit ansatz with sympy symbols, resolved with a ParamResolver.
import sympy
import cirq

t0, t1, t2 = sympy.symbols("t0:3")
a, b = cirq.LineQubit.range(2)
ansatz = cirq.Circuit(cirq.X(a), cirq.ry(t0).on(b), cirq.CNOT(b, a), cirq.rz(t1).on(a), cirq.ry(t2).on(b), cirq.measure(a, b, key="m"))
resolver = cirq.ParamResolver({t0: 0.9, t1: 0.4, t2: 1.7})
circuit = cirq.resolve_parameters(ansatz, resolver)
