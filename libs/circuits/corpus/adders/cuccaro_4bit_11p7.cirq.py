# Ripple-carry adder (Cuccaro et al. 2004) with MAJ/UMA helpers returning operation lists.
import cirq


def majority(c, b, a):
    return [cirq.CNOT(a, b), cirq.CNOT(a, c), cirq.TOFFOLI(c, b, a)]


def unmajority(c, b, a):
    return [cirq.TOFFOLI(c, b, a), cirq.CNOT(a, c), cirq.CNOT(c, b)]


def ripple_carry_adder(a_val=11, b_val=7, n=4):
    cin = cirq.NamedQubit("cin")
    a = [cirq.NamedQubit(f"a{i}") for i in range(n)]
    b = [cirq.NamedQubit(f"b{i}") for i in range(n)]
    cout = cirq.NamedQubit("cout")
    circuit = cirq.Circuit()
    circuit.append(cirq.X(a[i]) for i in range(n) if (a_val >> i) & 1)
    circuit.append(cirq.X(b[i]) for i in range(n) if (b_val >> i) & 1)
    circuit.append(majority(cin, b[0], a[0]))
    for i in range(1, n):
        circuit.append(majority(a[i - 1], b[i], a[i]))
    circuit.append(cirq.CNOT(a[n - 1], cout))
    for i in reversed(range(1, n)):
        circuit.append(unmajority(a[i - 1], b[i], a[i]))
    circuit.append(unmajority(cin, b[0], a[0]))
    circuit.append(cirq.measure(*b, cout, key="ans"))
    return circuit
