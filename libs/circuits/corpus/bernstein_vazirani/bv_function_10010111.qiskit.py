from qiskit import QuantumCircuit, QuantumRegister, ClassicalRegister


def bv_oracle(secret: str) -> QuantumCircuit:
    n = len(secret)
    oracle = QuantumCircuit(n + 1, name="oracle")
    for i, bit in enumerate(reversed(secret)):
        if bit == "1":
            oracle.cx(i, n)
    return oracle


def bernstein_vazirani(secret: str = "10010111") -> QuantumCircuit:
    n = len(secret)
    data = QuantumRegister(n, "data")
    anc = QuantumRegister(1, "anc")
    out = ClassicalRegister(n, "out")
    qc = QuantumCircuit(data, anc, out)
    qc.x(anc)
    qc.h(anc)
    qc.h(data)
    qc.compose(bv_oracle(secret), qubits=[*data, anc[0]], inplace=True)
    qc.h(data)
    qc.measure(data, out)
    return qc
