# Teleportation as in the (pre-1.0) Qiskit textbook: classical registers and c_if corrections.
from qiskit import QuantumCircuit, QuantumRegister, ClassicalRegister

theta = 2.5
qr = QuantumRegister(3, name="q")
crz = ClassicalRegister(1, name="crz")
crx = ClassicalRegister(1, name="crx")
result = ClassicalRegister(1, name="result")
teleportation_circuit = QuantumCircuit(qr, crz, crx, result)

# the state to send: Ry(θ)|0⟩
teleportation_circuit.ry(theta, 0)
teleportation_circuit.barrier()
# shared Bell pair
teleportation_circuit.h(1)
teleportation_circuit.cx(1, 2)
teleportation_circuit.barrier()
# Alice
teleportation_circuit.cx(0, 1)
teleportation_circuit.h(0)
teleportation_circuit.barrier()
teleportation_circuit.measure(0, 0)
teleportation_circuit.measure(1, 1)
# Bob
teleportation_circuit.x(2).c_if(crx, 1)
teleportation_circuit.z(2).c_if(crz, 1)
teleportation_circuit.measure(2, 2)
