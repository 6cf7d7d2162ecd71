# Grover with a reusable iteration as a CircuitOperation repeated r times.
import cirq


def oracle_for(qubits, marked):
    n = len(qubits)
    flips = [qubits[q] for q in range(n) if marked[n - 1 - q] == "0"]
    return cirq.Circuit(
        cirq.X.on_each(*flips),
        cirq.ControlledGate(cirq.Z, num_controls=n - 1).on(*qubits),
        cirq.X.on_each(*flips),
    )


def diffusion(qubits):
    n = len(qubits)
    return cirq.Circuit(
        cirq.H.on_each(*qubits),
        cirq.X.on_each(*qubits),
        cirq.ControlledGate(cirq.Z, num_controls=n - 1).on(*qubits),
        cirq.X.on_each(*qubits),
        cirq.H.on_each(*qubits),
    )


def search(marked="110", iterations=2):
    qubits = cirq.LineQubit.range(len(marked))
    step = (oracle_for(qubits, marked) + diffusion(qubits)).freeze()
    return cirq.Circuit(
        cirq.H.on_each(*qubits),
        cirq.CircuitOperation(step, repetitions=iterations),
        cirq.measure(*qubits, key="result"),
    )
