# QPE of the T gate (φ = 1/8) with controlled powers of cirq.T and cirq.inverse(cirq.qft(...)).
import cirq


def build():
    counting = cirq.LineQubit.range(3)
    target = cirq.LineQubit(3)
    ops = [cirq.X(target), cirq.H.on_each(*counting)]
    for i, q in enumerate(counting):
        ops.append(cirq.ControlledGate(cirq.T ** (2 ** (2 - i))).on(q, target))
    ops.append(cirq.inverse(cirq.qft(*counting)))
    ops.append(cirq.measure(*counting, key="m"))
    return cirq.Circuit(ops)
