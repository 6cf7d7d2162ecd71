# Teleportation with dynamic circuits (if_test), built by helper functions.
from qiskit import QuantumCircuit, QuantumRegister, ClassicalRegister


def create_bell_pair(qc, a, b):
    qc.h(a)
    qc.cx(a, b)


def alice_gates(qc, psi, a):
    qc.cx(psi, a)
    qc.h(psi)


def teleport(theta=0.7, phi=1.3):
    qr = QuantumRegister(3, "q")
    m0 = ClassicalRegister(1, "m0")
    m1 = ClassicalRegister(1, "m1")
    out = ClassicalRegister(1, "out")
    qc = QuantumCircuit(qr, m0, m1, out)
    qc.u(theta, phi, 0, 0)
    create_bell_pair(qc, 1, 2)
    alice_gates(qc, 0, 1)
    qc.measure(0, m0)
    qc.measure(1, m1)
    with qc.if_test((m1, 1)):
        qc.x(2)
    with qc.if_test((m0, 1)):
        qc.z(2)
    qc.measure(2, out)
    return qc
