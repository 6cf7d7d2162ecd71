# Swap test of two 2-qubit states with registers and a controlled-SWAP per qubit pair.
from qiskit import QuantumCircuit, QuantumRegister, ClassicalRegister

anc = QuantumRegister(1, "anc")
psi = QuantumRegister(2, "psi")
phi = QuantumRegister(2, "phi")
out = ClassicalRegister(1, "out")
qc = QuantumCircuit(anc, psi, phi, out)
# |ψ⟩ = Bell state, |φ⟩ = Ry(t)|0⟩ ⊗ |0⟩
qc.h(psi[0])
qc.cx(psi[0], psi[1])
qc.ry(1.2, phi[0])
qc.h(anc)
for a, b in zip(psi, phi):
    qc.cswap(anc[0], a, b)
qc.h(anc)
qc.measure(anc, out)
