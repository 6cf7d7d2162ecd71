# Teleportation built by helper functions; corrections conditioned on measurement keys.
import cirq


def bell_pair(a, b):
    return [cirq.H(a), cirq.CNOT(a, b)]


def teleport(theta=0.7, phi=1.3):
    psi, a, b = cirq.LineQubit.range(3)
    # U(θ, φ, 0) = Rz(φ)·Ry(θ) up to a global phase
    prepare = [cirq.ry(theta)(psi), cirq.rz(phi)(psi)]
    circuit = cirq.Circuit(prepare, bell_pair(a, b))
    circuit.append([cirq.CNOT(psi, a), cirq.H(psi)])
    circuit.append([cirq.measure(psi, key="m0"), cirq.measure(a, key="m1")])
    circuit.append(cirq.X(b).with_classical_controls("m1"))
    circuit.append(cirq.Z(b).with_classical_controls("m0"))
    circuit.append(cirq.measure(b, key="out"))
    return circuit
