# Superdense coding, textbook style: helpers for the Bell pair, the encoding and the decoding.
from qiskit import QuantumCircuit


def create_bell_pair():
    qc = QuantumCircuit(2)
    qc.h(1)
    qc.cx(1, 0)
    return qc


def encode_message(qc, qubit, msg):
    if len(msg) != 2:
        raise ValueError(f"message '{msg}' is invalid")
    if msg[1] == "1":
        qc.x(qubit)
    if msg[0] == "1":
        qc.z(qubit)
    return qc


def decode_message(qc):
    qc.cx(1, 0)
    qc.h(1)
    return qc


qc = create_bell_pair()
qc.barrier()
message = "00"
qc = encode_message(qc, 0, message)
qc.barrier()
qc = decode_message(qc)
qc.measure_all()
