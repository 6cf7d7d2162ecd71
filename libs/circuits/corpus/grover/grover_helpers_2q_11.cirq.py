import math
import cirq


def phase_oracle(qubits, marked):
    """Flip the phase of |marked⟩; marked[-1 - i] is the bit of qubit i (Qiskit's string order)."""
    flips = [q for i, q in enumerate(qubits) if marked[len(marked) - 1 - i] == "0"]
    yield cirq.X.on_each(*flips)
    yield cirq.Z.controlled(num_controls=len(qubits) - 1).on(*qubits)
    yield cirq.X.on_each(*flips)


def diffuser(qubits):
    yield cirq.H.on_each(*qubits)
    yield cirq.X.on_each(*qubits)
    yield cirq.Z.controlled(num_controls=len(qubits) - 1).on(*qubits)
    yield cirq.X.on_each(*qubits)
    yield cirq.H.on_each(*qubits)


def grover(marked="11"):
    n = len(marked)
    qubits = cirq.LineQubit.range(n)
    iterations = math.floor(math.pi / 4 * math.sqrt(2 ** n))
    circuit = cirq.Circuit(cirq.H.on_each(*qubits))
    for _ in range(iterations):
        circuit.append(phase_oracle(qubits, marked))
        circuit.append(diffuser(qubits))
    circuit.append(cirq.measure(*qubits, key="result"))
    return circuit
