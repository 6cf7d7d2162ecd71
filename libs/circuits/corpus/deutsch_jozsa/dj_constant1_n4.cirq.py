import cirq


def dj_oracle(inputs, output, kind, value):
    if kind == "constant":
        return [cirq.X(output)] if value == 1 else []
    return [cirq.CNOT(q, output) for i, q in enumerate(inputs) if (value >> i) & 1]


def deutsch_jozsa(n=4, kind="constant", value=1):
    inputs = cirq.LineQubit.range(n)
    output = cirq.LineQubit(n)
    circuit = cirq.Circuit()
    circuit.append([cirq.X(output), cirq.H(output)])
    circuit.append(cirq.H.on_each(*inputs))
    circuit.append(dj_oracle(inputs, output, kind, value))
    circuit.append(cirq.H.on_each(*inputs))
    circuit.append(cirq.measure(*inputs, key="result"))
    return circuit
