# Swap test between Ry(a)|0⟩ and Ry(b)|0⟩ with cirq.FREDKIN.
import cirq


def swap_test(a=0.4, b=0.9):
    anc, psi, phi = cirq.LineQubit.range(3)
    return cirq.Circuit(
        cirq.ry(a).on(psi),
        cirq.ry(b).on(phi),
        cirq.H(anc),
        cirq.FREDKIN(anc, psi, phi),
        cirq.H(anc),
        cirq.measure(anc, key="anc"),
    )
