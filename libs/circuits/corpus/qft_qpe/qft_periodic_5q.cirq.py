# Uniform superposition over the multiples of 2^(n-m), then the inverse QFT → peaks.
import cirq

n = 5
q = cirq.LineQubit.range(n)
c = cirq.Circuit()
# big-endian: the multiples of 2^(n-m) are the states with only the first m qubits set
c.append(cirq.H(q[i]) for i in range(2))
c.append(cirq.qft(*q, inverse=True))
c.append(cirq.measure(*q, key="m"))
