# Arbitrary state preparation: a unitary whose first column is the target state (a Householder
# reflection built with numpy), applied with cirq.MatrixGate; cirq's big-endian index order.
import numpy as np
import cirq


def prepared(amplitudes):
    psi = np.array(amplitudes, dtype=complex)
    psi = psi / np.linalg.norm(psi)
    dim = len(psi)
    e0 = np.zeros(dim, dtype=complex)
    e0[0] = 1
    phase = psi[0] / abs(psi[0])
    v = e0 - psi / phase
    U = (np.eye(dim) - 2 * np.outer(v, v.conj()) / np.vdot(v, v)) * phase  # U|0⟩ = ψ
    n = int(np.log2(dim))
    q = cirq.LineQubit.range(n)
    return cirq.Circuit(cirq.MatrixGate(U).on(*q), cirq.measure(*q, key="m"))


circuit = prepared([1, 0.5, 1.0j, 0, 0, 0, 0, -0.5 - 0.5j])
