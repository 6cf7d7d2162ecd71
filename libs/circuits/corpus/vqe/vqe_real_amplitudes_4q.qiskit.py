# A VQE ansatz from the circuit library with its parameters bound to numbers in code.
import numpy as np
from qiskit.circuit.library import RealAmplitudes

n = 4
ansatz = RealAmplitudes(n, entanglement="linear", reps=1)
values = np.linspace(0.1, 2.0, ansatz.num_parameters)
qc = ansatz.assign_parameters(values)
qc.measure_all()
