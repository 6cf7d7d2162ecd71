import cirq


def simon_oracle(inputs, outputs, secret_bits):
    ops = [cirq.CNOT(x, y) for x, y in zip(inputs, outputs)]
    ones = [i for i, bit in enumerate(secret_bits) if bit]
    if ones:
        pivot = ones[0]
        ops.extend(cirq.CNOT(inputs[pivot], outputs[i]) for i in ones)
    return ops


def simon(secret_bits=[1, 1]):
    n = len(secret_bits)
    inputs = [cirq.LineQubit(i) for i in range(n)]
    outputs = [cirq.LineQubit(n + i) for i in range(n)]
    circuit = cirq.Circuit()
    circuit.append(cirq.H.on_each(*inputs))
    circuit.append(simon_oracle(inputs, outputs, secret_bits))
    circuit.append(cirq.H.on_each(*inputs))
    circuit.append(cirq.measure(*inputs, key="y"))
    return circuit
