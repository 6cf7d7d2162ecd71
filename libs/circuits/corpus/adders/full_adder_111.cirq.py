# One-bit full adder: sum on the carry-in qubit, carry on an extra qubit.
import cirq

a, b, cin, carry = cirq.LineQubit.range(4)
inputs = [1, 1, 1]
circuit = cirq.Circuit([cirq.X(q) for q, bit in zip([a, b, cin], inputs) if bit])
circuit += [cirq.CCX(a, b, carry), cirq.CX(a, b), cirq.CCX(b, cin, carry), cirq.CX(b, cin), cirq.CX(a, b)]
circuit += [cirq.measure(cin, carry, key="sc")]
