# Hadamard test of U = Z**(φ/π) on |ψ⟩ = Ry(a)|0⟩ (real part).
import math
import cirq

a = 1.0
phi = 2.0
anc, sys = cirq.LineQubit.range(2)
circuit = cirq.Circuit(
    cirq.ry(a)(sys),
    cirq.H(anc),
    (cirq.Z ** (phi / math.pi)).on(sys).controlled_by(anc),
    cirq.H(anc),
    cirq.measure(anc, key="anc"),
)
