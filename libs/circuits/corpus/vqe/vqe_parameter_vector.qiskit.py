# A UCC-flavoured 2-qubit ansatz written with a ParameterVector, bound by a dict in code.
from qiskit import QuantumCircuit
from qiskit.circuit import ParameterVector

theta = ParameterVector("θ", 3)
ansatz = QuantumCircuit(2)
ansatz.x(0)
ansatz.ry(theta[0], 1)
ansatz.cx(1, 0)
ansatz.rz(theta[1], 0)
ansatz.ry(theta[2], 1)
ansatz.measure_all()
circuit = ansatz.assign_parameters({theta[0]: 0.9, theta[1]: 0.4, theta[2]: 1.7})
