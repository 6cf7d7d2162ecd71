from qiskit import QuantumCircuit


def dj_oracle(qc, n, kind, value=0):
    """Constant oracles write `value` into the output; balanced ones compute value·x (mod 2)."""
    if kind == "constant":
        if value == 1:
            qc.x(n)
    else:
        for i in range(n):
            if (value >> i) & 1:
                qc.cx(i, n)


def deutsch_jozsa(n=4, kind="balanced", value=11):
    qc = QuantumCircuit(n + 1, n)
    qc.x(n)
    qc.h(range(n + 1))
    qc.barrier()
    dj_oracle(qc, n, kind, value)
    qc.barrier()
    qc.h(range(n))
    qc.measure(range(n), range(n))
    return qc
