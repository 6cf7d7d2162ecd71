# Hadamard test of U = Z**(φ/π) on |ψ⟩ = Ry(a)|0⟩ (real part).
import math
import cirq

a = 2.4
phi = 0.8
anc, sys = cirq.LineQubit.range(2)
circuit = cirq.Circuit(
    cirq.ry(a)(sys),
    cirq.H(anc),
    (cirq.Z ** (phi / math.pi)).on(sys).controlled_by(anc),
    cirq.H(anc),
    cirq.measure(anc, key="anc"),
)
