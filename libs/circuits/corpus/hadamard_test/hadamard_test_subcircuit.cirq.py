# Hadamard test of a 2-qubit unitary built as a FrozenCircuit and controlled.
import cirq

theta = 0.9
anc, a, b = cirq.LineQubit.range(3)
block = cirq.FrozenCircuit(cirq.ZZPowGate(exponent=theta / 3.141592653589793, global_shift=-0.5).on(a, b), cirq.H(b))
circuit = cirq.Circuit(
    cirq.X(a),
    cirq.H(anc),
    cirq.CircuitOperation(block).controlled_by(anc),
    cirq.H(anc),
    cirq.measure(anc, key="anc"),
)
