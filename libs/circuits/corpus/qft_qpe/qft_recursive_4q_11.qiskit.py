# The Qiskit textbook's recursive QFT, used to read a number written in the Fourier basis.
from numpy import pi
from qiskit import QuantumCircuit


def qft_rotations(circuit, n):
    if n == 0:  # exit the function if the circuit is empty
        return circuit
    n -= 1  # indexes start from 0
    circuit.h(n)  # apply the H-gate to the most significant qubit
    for qubit in range(n):
        circuit.cp(pi / 2 ** (n - qubit), qubit, n)
    qft_rotations(circuit, n)


def swap_registers(circuit, n):
    for qubit in range(n // 2):
        circuit.swap(qubit, n - qubit - 1)
    return circuit


def qft(circuit, n):
    qft_rotations(circuit, n)
    swap_registers(circuit, n)
    return circuit


def inverse_qft(circuit, n):
    qft_circ = qft(QuantumCircuit(n), n)
    invqft_circ = qft_circ.inverse()
    circuit.append(invqft_circ, circuit.qubits[:n])
    return circuit.decompose()


nqubits = 4
number = 11
qc = QuantumCircuit(nqubits)
for qubit in range(nqubits):
    qc.h(qubit)
for qubit in range(nqubits):
    qc.p(number * pi / 2 ** (nqubits - 1 - qubit), qubit)
qc = inverse_qft(qc, nqubits)
qc.measure_all()
