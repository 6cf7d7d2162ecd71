# Arbitrary state preparation with cirq.StatePreparationChannel (Cirq's big-endian amplitude order:
# qubit 0 is the most significant bit of the index).
import numpy as np
import cirq

amplitudes = np.array([0.5, -0.5, 0.5j, 0.3 + 0.4j])
amplitudes = amplitudes / np.linalg.norm(amplitudes)
n = int(np.log2(len(amplitudes)))
q = cirq.LineQubit.range(n)
circuit = cirq.Circuit(
    cirq.StatePreparationChannel(amplitudes).on(*q),
    cirq.measure(*q, key="m"),
)
