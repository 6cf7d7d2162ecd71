# QFT then its inverse (cirq.qft and cirq.qft(inverse=True)) on a basis state returns it.
import cirq


def qft_roundtrip(value=9, n=4):
    q = cirq.LineQubit.range(n)
    prep = [cirq.X(q[i]) for i in range(n) if (value >> i) & 1]
    return cirq.Circuit(prep, cirq.qft(*q), cirq.qft(*q, inverse=True), cirq.measure(*q, key="m"))
