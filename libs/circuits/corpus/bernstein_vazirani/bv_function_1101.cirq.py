import cirq


def bv_oracle(data, anc, secret):
    for q, bit in zip(data, reversed(secret)):
        if bit == "1":
            yield cirq.CNOT(q, anc)


def bernstein_vazirani(secret: str = "1101") -> cirq.Circuit:
    n = len(secret)
    data = cirq.LineQubit.range(n)
    anc = cirq.LineQubit(n)
    circuit = cirq.Circuit([cirq.X(anc), cirq.H(anc)])
    circuit.append(cirq.H.on_each(data))
    circuit.append(bv_oracle(data, anc, secret))
    circuit.append(cirq.H.on_each(data))
    circuit.append(cirq.measure(*data, key="out"))
    return circuit
