# Several circuit-returning functions in one file: the request names the entry point.
import cirq


def bell() -> cirq.Circuit:
    a, b = cirq.LineQubit.range(2)
    return cirq.Circuit(cirq.H(a), cirq.CNOT(a, b), cirq.measure(a, b, key="m"))


def bv(secret="100110") -> cirq.Circuit:
    n = len(secret)
    qs = cirq.LineQubit.range(n + 1)
    ops = [cirq.X(qs[n]), cirq.H.on_each(*qs)]
    ops += [cirq.CNOT(qs[i], qs[n]) for i, bit in enumerate(reversed(secret)) if bit == "1"]
    ops += [cirq.H.on_each(*qs[:n]), cirq.measure(*qs[:n], key="m")]
    return cirq.Circuit(ops)
