# Swap test of two 2-qubit states; the controlled swaps from cirq.SWAP.controlled().
import cirq

anc = cirq.NamedQubit("anc")
psi = [cirq.NamedQubit(f"psi{i}") for i in range(2)]
phi = [cirq.NamedQubit(f"phi{i}") for i in range(2)]
cswap = cirq.SWAP.controlled(num_controls=1)
circuit = cirq.Circuit(
    cirq.H(psi[0]),
    cirq.CNOT(psi[0], psi[1]),
    cirq.ry(1.2).on(phi[0]),
    cirq.H(anc),
    [cswap.on(anc, a, b) for a, b in zip(psi, phi)],
    cirq.H(anc),
    cirq.measure(anc, key="out"),
)
