from qiskit import QuantumCircuit


def simon_oracle(s: str) -> QuantumCircuit:
    """Copy the input to the output, then XOR in s whenever the first set bit of s is 1."""
    n = len(s)
    qc = QuantumCircuit(2 * n, name="simon")
    for i in range(n):
        qc.cx(i, n + i)
    ones = [i for i, bit in enumerate(reversed(s)) if bit == "1"]
    if ones:
        pivot = ones[0]
        for i in ones:
            qc.cx(pivot, n + i)
    return qc


def simon(s: str = "11") -> QuantumCircuit:
    n = len(s)
    qc = QuantumCircuit(2 * n, n)
    qc.h(range(n))
    qc.barrier()
    qc = qc.compose(simon_oracle(s))
    qc.barrier()
    qc.h(range(n))
    qc.measure(range(n), range(n))
    return qc
