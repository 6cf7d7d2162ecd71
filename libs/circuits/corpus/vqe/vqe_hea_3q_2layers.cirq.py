# Hardware-efficient ansatz: Ry·Rz on every qubit, a CZ ladder between layers.
import cirq


def hardware_efficient(n, layers, thetas):
    q = cirq.LineQubit.range(n)
    c = cirq.Circuit()
    k = 0
    for _ in range(layers):
        for qubit in q:
            c.append([cirq.ry(thetas[k])(qubit), cirq.rz(thetas[k + 1])(qubit)])
            k += 2
        c.append(cirq.CZ(q[i], q[i + 1]) for i in range(n - 1))
    c.append(cirq.measure(*q, key="m"))
    return c


thetas = [round(0.3 * k - 0.7, 3) for k in range(12)]
circuit = hardware_efficient(3, 2, thetas)
