import cirq


def ghz(n: int = 3) -> cirq.Circuit:
    qubits = cirq.LineQubit.range(n)
    circuit = cirq.Circuit(cirq.H(qubits[0]))
    circuit.append(cirq.CNOT(qubits[i], qubits[i + 1]) for i in range(n - 1))
    circuit.append(cirq.measure(*qubits, key="ghz"))
    return circuit
