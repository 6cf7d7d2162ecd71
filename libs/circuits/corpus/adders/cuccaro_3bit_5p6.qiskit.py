# Ripple-carry adder (Cuccaro, Draper, Kutin, Moulton 2004, arXiv:quant-ph/0410184): MAJ/UMA helpers.
from qiskit import QuantumCircuit, QuantumRegister, ClassicalRegister


def majority(qc, c, b, a):
    qc.cx(a, b)
    qc.cx(a, c)
    qc.ccx(c, b, a)


def unmajority(qc, c, b, a):
    qc.ccx(c, b, a)
    qc.cx(a, c)
    qc.cx(c, b)


def ripple_carry_adder(a_val=5, b_val=6, n=3):
    cin = QuantumRegister(1, "cin")
    a = QuantumRegister(n, "a")
    b = QuantumRegister(n, "b")
    cout = QuantumRegister(1, "cout")
    ans = ClassicalRegister(n + 1, "ans")
    qc = QuantumCircuit(cin, a, b, cout, ans)
    for i in range(n):
        if (a_val >> i) & 1:
            qc.x(a[i])
        if (b_val >> i) & 1:
            qc.x(b[i])
    majority(qc, cin[0], b[0], a[0])
    for i in range(1, n):
        majority(qc, a[i - 1], b[i], a[i])
    qc.cx(a[n - 1], cout[0])
    for i in reversed(range(1, n)):
        unmajority(qc, a[i - 1], b[i], a[i])
    unmajority(qc, cin[0], b[0], a[0])
    for i in range(n):
        qc.measure(b[i], ans[i])
    qc.measure(cout[0], ans[n])
    return qc
