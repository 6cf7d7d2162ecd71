#!/usr/bin/env python3
"""Example lab-node executor: reads a NativeGateIR job on stdin, writes counts JSON on stdout.

Replace `run_on_hardware` with calls into your control stack (QCoDeS, Qblox, Zurich Instruments, ...).
This stand-in runs the circuit on an ideal statevector (numpy) so the whole path can be tried
without a chip. Contract (docs/lab-integration.md):
  stdin : {"version": 1, "num_qubits", "num_clbits", "gates": [{"gate", "qubits", "params"}],
           "measurements": [{"qubit", "clbit"}], "shots"}
  stdout: {"counts": {"<bitstring over clbits, clbit 0 rightmost>": n, ...}}  (sums to shots)
  exit code != 0 with a message on stderr = the job failed (reported with that message).
"""
import json
import os
import sys

import numpy as np

S = 1 / np.sqrt(2)
FIXED = {
    "x": np.array([[0, 1], [1, 0]], dtype=complex),
    "y": np.array([[0, -1j], [1j, 0]], dtype=complex),
    "z": np.diag([1, -1]).astype(complex),
    "h": S * np.array([[1, 1], [1, -1]], dtype=complex),
    "sx": 0.5 * np.array([[1 + 1j, 1 - 1j], [1 - 1j, 1 + 1j]], dtype=complex),
    "id": np.eye(2, dtype=complex),
}


def one_qubit(gate, params):
    if gate in FIXED:
        return FIXED[gate]
    (t,) = params
    if gate == "rz":
        return np.diag([np.exp(-0.5j * t), np.exp(0.5j * t)])
    if gate == "rx":
        return np.array([[np.cos(t / 2), -1j * np.sin(t / 2)], [-1j * np.sin(t / 2), np.cos(t / 2)]])
    if gate == "ry":
        return np.array([[np.cos(t / 2), -np.sin(t / 2)], [np.sin(t / 2), np.cos(t / 2)]], dtype=complex)
    raise ValueError(f"gate {gate} is not supported by this executor")


def run_on_hardware(job, rng):
    n = job["num_qubits"]
    state = np.zeros([2] * n, dtype=complex)  # axis k = qubit k
    state[(0,) * n] = 1
    for g in job["gates"]:
        q = g["qubits"]
        if g["gate"] == "cz":
            idx = [slice(None)] * n
            idx[q[0]] = 1
            idx[q[1]] = 1
            state[tuple(idx)] *= -1
        elif g["gate"] == "cx":
            idx = [slice(None)] * n
            idx[q[0]] = 1
            sub = state[tuple(idx)]
            axis = q[1] - (1 if q[1] > q[0] else 0)
            state[tuple(idx)] = np.flip(sub, axis=axis)
        else:
            state = np.moveaxis(np.tensordot(one_qubit(g["gate"], g["params"]), state, axes=([1], [q[0]])), 0, q[0])
    probs = np.abs(state.reshape(-1)) ** 2  # index bits: qubit 0 is the most significant
    outcomes = rng.choice(len(probs), size=job["shots"], p=probs / probs.sum())
    counts = {}
    for index in outcomes:
        clbits = ["0"] * job["num_clbits"]
        for m in job["measurements"]:
            clbits[m["clbit"]] = str((index >> (n - 1 - m["qubit"])) & 1)
        key = "".join(reversed(clbits))  # clbit 0 rightmost
        counts[key] = counts.get(key, 0) + 1
    return counts


if __name__ == "__main__":
    job = json.load(sys.stdin)
    try:
        counts = run_on_hardware(job, np.random.default_rng(abs(hash(os.environ.get("QDC_JOB_ID", ""))) % 2**32))
    except ValueError as error:
        print(str(error), file=sys.stderr)
        sys.exit(1)
    json.dump({"counts": counts}, sys.stdout)
