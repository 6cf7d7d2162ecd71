# A 3-qubit unitary (the DFT matrix built with numpy) as a UnitaryGate, undone by the library QFT†.
import numpy as np
from qiskit import QuantumCircuit
from qiskit.circuit.library import QFT, UnitaryGate

N = 8
omega = np.exp(2j * np.pi / N)
F = np.array([[omega ** (j * k) for k in range(N)] for j in range(N)]) / np.sqrt(N)

qc = QuantumCircuit(3)
qc.x([0, 2])  # |5⟩
qc.append(UnitaryGate(F), [0, 1, 2])
qc.compose(QFT(3, inverse=True), inplace=True)
qc.measure_all()
