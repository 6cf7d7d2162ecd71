# Bernstein–Vazirani as in Cirq's examples: secret bits per qubit (qubit i ↔ secret_bits[i]).
import cirq

secret_bits = [1, 0, 1, 0, 1, 1]
n = len(secret_bits)
input_qubits = [cirq.GridQubit(i, 0) for i in range(n)]
output_qubit = cirq.GridQubit(n, 0)

c = cirq.Circuit()
c.append([cirq.X(output_qubit), cirq.H(output_qubit), cirq.H.on_each(*input_qubits)])
oracle = [cirq.CNOT(input_qubits[i], output_qubit) for i, bit in enumerate(secret_bits) if bit]
c.append(oracle)
c.append(cirq.H.on_each(*input_qubits))
c.append(cirq.measure(*input_qubits, key="result"))
