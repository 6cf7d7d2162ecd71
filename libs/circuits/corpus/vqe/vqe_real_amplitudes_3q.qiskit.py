# A VQE ansatz from the circuit library with its parameters bound to numbers in code.
import numpy as np
from qiskit.circuit.library import RealAmplitudes

n = 3
ansatz = RealAmplitudes(n, entanglement="linear", reps=2)
values = np.linspace(0.1, 2.0, ansatz.num_parameters)
qc = ansatz.assign_parameters(values)
qc.measure_all()
