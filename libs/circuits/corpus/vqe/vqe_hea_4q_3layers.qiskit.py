# Hardware-efficient ansatz: Ry·Rz on every qubit, a CZ ladder between layers, angles from a list.
from qiskit import QuantumCircuit


def hardware_efficient(n, layers, thetas):
    qc = QuantumCircuit(n, n)
    k = 0
    for layer in range(layers):
        for q in range(n):
            qc.ry(thetas[k], q)
            qc.rz(thetas[k + 1], q)
            k += 2
        for q in range(n - 1):
            qc.cz(q, q + 1)
    qc.measure(range(n), range(n))
    return qc


thetas = [round(0.3 * k - 0.7, 3) for k in range(24)]
circuit = hardware_efficient(4, 3, thetas)
