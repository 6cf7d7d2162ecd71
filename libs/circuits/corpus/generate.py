"""
Writes the circuit corpus of issue #20: for every entry a Qiskit program, a Cirq program and
`<name>.expected.json` with the distribution both must produce and how it was derived.

The expectations are computed here WITHOUT any circuit simulator: closed forms (Bernstein–Vazirani
→ the secret, Grover → sin²((2r+1)θ), QPE of k/2^n → k, swap test → (1+|⟨ψ|φ⟩|²)/2, …), small
linear algebra on the problem data (⟨ψ|U|ψ⟩ of a 2×2 matrix, A⁻¹b for HHL), or, where a closed form
is impractical (QAOA and VQE with bound angles), a hand-written OpenQASM 2 reference next to the
programs (`<name>.reference.qasm`), which the corpus spec simulates. Bit order: every distribution
key is Qiskit's (classical bit 0 rightmost, registers concatenated, first register rightmost). A
Cirq program measures its qubits with keys in the same order (key register k = clbits in qubit
order), so its bitstring is the same, except where `cirq_bits` is "reversed": those Cirq programs
read the result big-endian as Cirq users do (cirq.qft convention, qubit 0 most significant), and
their bitstring is the Qiskit one reversed.

Run: python3 libs/circuits/corpus/generate.py   (needs numpy only; rewrites the corpus files)
"""
import cmath
import json
import math
import os
import textwrap
from string import Template

import numpy as np

ROOT = os.path.dirname(os.path.abspath(__file__))
COUNT = 0


def clean(dist):
    return {k: round(v, 10) for k, v in sorted(dist.items()) if v > 1e-12}


def write(algorithm, name, qiskit, cirq, derivation, distribution=None, reference=None, entry_point=None, cirq_bits="same", note=None, **subst):
    global COUNT
    folder = os.path.join(ROOT, algorithm)
    os.makedirs(folder, exist_ok=True)
    for ext, text in (("qiskit.py", qiskit), ("cirq.py", cirq)):
        body = Template(textwrap.dedent(text).lstrip("\n")).substitute(**subst)
        with open(os.path.join(folder, f"{name}.{ext}"), "w") as f:
            f.write(body)
        COUNT += 1
    expected = {"derivation": derivation, "cirq_bits": cirq_bits}
    if entry_point:
        expected["entry_point"] = entry_point
    if distribution is not None:
        expected["distribution"] = clean(distribution)
        assert abs(sum(expected["distribution"].values()) - 1) < 1e-6, (name, sum(distribution.values()))
    if reference is not None:
        expected["reference_qasm"] = f"{name}.reference.qasm"
        with open(os.path.join(folder, f"{name}.reference.qasm"), "w") as f:
            f.write(reference)
    if note:
        expected["note"] = note
    with open(os.path.join(folder, f"{name}.expected.json"), "w") as f:
        json.dump(expected, f, indent=2, ensure_ascii=False)
        f.write("\n")


def bits(value, n):
    return format(value, f"0{n}b")


def point(key):
    return {key: 1.0}


# ---------------------------------------------------------------- Deutsch–Jozsa
# Constant f → the input register returns to |0…0⟩ (p = 1); balanced f(x) = mask·x → |mask⟩ (p = 1).
DJ_Q_FUNC = '''
from qiskit import QuantumCircuit


def dj_oracle(qc, n, kind, value=0):
    """Constant oracles write `value` into the output; balanced ones compute value·x (mod 2)."""
    if kind == "constant":
        if value == 1:
            qc.x(n)
    else:
        for i in range(n):
            if (value >> i) & 1:
                qc.cx(i, n)


def deutsch_jozsa(n=$n, kind="$kind", value=$value):
    qc = QuantumCircuit(n + 1, n)
    qc.x(n)
    qc.h(range(n + 1))
    qc.barrier()
    dj_oracle(qc, n, kind, value)
    qc.barrier()
    qc.h(range(n))
    qc.measure(range(n), range(n))
    return qc
'''
DJ_C_FUNC = '''
import cirq


def dj_oracle(inputs, output, kind, value):
    if kind == "constant":
        return [cirq.X(output)] if value == 1 else []
    return [cirq.CNOT(q, output) for i, q in enumerate(inputs) if (value >> i) & 1]


def deutsch_jozsa(n=$n, kind="$kind", value=$value):
    inputs = cirq.LineQubit.range(n)
    output = cirq.LineQubit(n)
    circuit = cirq.Circuit()
    circuit.append([cirq.X(output), cirq.H(output)])
    circuit.append(cirq.H.on_each(*inputs))
    circuit.append(dj_oracle(inputs, output, kind, value))
    circuit.append(cirq.H.on_each(*inputs))
    circuit.append(cirq.measure(*inputs, key="result"))
    return circuit
'''
DJ_Q_GATE = '''
# Deutsch–Jozsa with the oracle wrapped as a gate (top-level script, textbook style).
from qiskit import QuantumCircuit

n = $n
mask = "$mask"  # balanced: f(x) = mask · x, qubit 0 is the rightmost character


def balanced_oracle(n, mask):
    oracle = QuantumCircuit(n + 1, name="U_f")
    for qubit, bit in enumerate(reversed(mask)):
        if bit == "1":
            oracle.x(qubit)
    for qubit in range(n):
        oracle.cx(qubit, n)
    for qubit, bit in enumerate(reversed(mask)):
        if bit == "1":
            oracle.x(qubit)
    oracle_gate = oracle.to_gate()
    oracle_gate.name = "Balanced Oracle"
    return oracle_gate


dj = QuantumCircuit(n + 1, n)
for qubit in range(n):
    dj.h(qubit)
dj.x(n)
dj.h(n)
dj.append(balanced_oracle(n, mask), range(n + 1))
for qubit in range(n):
    dj.h(qubit)
for i in range(n):
    dj.measure(i, i)
'''
DJ_C_GATE = '''
# Deutsch–Jozsa with the oracle as a CircuitOperation.
import cirq

n = $n
mask = "$mask"  # qubit i flips when mask[-1 - i] == "1" (Qiskit's string order)

qubits = cirq.LineQubit.range(n + 1)
inputs, output = qubits[:n], qubits[n]
flips = [q for i, q in enumerate(inputs) if mask[n - 1 - i] == "1"]
oracle = cirq.FrozenCircuit(
    cirq.X.on_each(*flips),
    [cirq.CNOT(q, output) for q in inputs],
    cirq.X.on_each(*flips),
)
circuit = cirq.Circuit(
    cirq.X(output),
    cirq.H.on_each(*qubits),
    cirq.CircuitOperation(oracle),
    cirq.H.on_each(*inputs),
    cirq.measure(*inputs, key="m"),
)
'''
# balanced_oracle with X-sandwiches computes f(x) = parity(x) (the X's cancel on the controls):
# the result is |1…1⟩ whatever the mask — as in the Qiskit textbook's version.
for name, n, kind, value in (("dj_constant0_n3", 3, "constant", 0), ("dj_constant1_n4", 4, "constant", 1), ("dj_balanced_n4", 4, "balanced", 0b1011), ("dj_balanced_n5", 5, "balanced", 0b10110)):
    out = "0" * n if kind == "constant" else bits(value, n)
    write("deutsch_jozsa", name, DJ_Q_FUNC, DJ_C_FUNC, f"analytic: {kind} oracle → {'|0…0⟩' if kind == 'constant' else '|value⟩'} with p = 1", point(out), n=n, kind=kind, value=value)
for name, n, mask in (("dj_gate_oracle_n3", 3, "101"), ("dj_gate_oracle_n4", 4, "0110")):
    write("deutsch_jozsa", name, DJ_Q_GATE, DJ_C_GATE, "analytic: the X-sandwiched oracle computes f(x) = x0⊕…⊕x(n−1) (the mask's X gates cancel), balanced, so the inputs read |1…1⟩ with p = 1", point("1" * n), n=n, mask=mask)


# ---------------------------------------------------------------- Bernstein–Vazirani
# f(x) = s·x: the input register reads the secret s with p = 1.
BV_Q_TEXTBOOK = '''
# Bernstein–Vazirani, textbook script: the secret is a bitstring, qubit 0 = rightmost character.
from qiskit import QuantumCircuit

s = "$secret"
n = len(s)

bv_circuit = QuantumCircuit(n + 1, n)
bv_circuit.h(n)
bv_circuit.z(n)
for i in range(n):
    bv_circuit.h(i)
bv_circuit.barrier()
s = s[::-1]  # reverse s to fit qiskit's qubit ordering
for q in range(n):
    if s[q] == "0":
        bv_circuit.i(q)
    else:
        bv_circuit.cx(q, n)
bv_circuit.barrier()
for i in range(n):
    bv_circuit.h(i)
for i in range(n):
    bv_circuit.measure(i, i)
'''
BV_C_TEXTBOOK = '''
# Bernstein–Vazirani as in Cirq's examples: secret bits per qubit (qubit i ↔ secret_bits[i]).
import cirq

secret_bits = $secret_bits
n = len(secret_bits)
input_qubits = [cirq.GridQubit(i, 0) for i in range(n)]
output_qubit = cirq.GridQubit(n, 0)

c = cirq.Circuit()
c.append([cirq.X(output_qubit), cirq.H(output_qubit), cirq.H.on_each(*input_qubits)])
oracle = [cirq.CNOT(input_qubits[i], output_qubit) for i, bit in enumerate(secret_bits) if bit]
c.append(oracle)
c.append(cirq.H.on_each(*input_qubits))
c.append(cirq.measure(*input_qubits, key="result"))
'''
BV_Q_FUNC = '''
from qiskit import QuantumCircuit, QuantumRegister, ClassicalRegister


def bv_oracle(secret: str) -> QuantumCircuit:
    n = len(secret)
    oracle = QuantumCircuit(n + 1, name="oracle")
    for i, bit in enumerate(reversed(secret)):
        if bit == "1":
            oracle.cx(i, n)
    return oracle


def bernstein_vazirani(secret: str = "$secret") -> QuantumCircuit:
    n = len(secret)
    data = QuantumRegister(n, "data")
    anc = QuantumRegister(1, "anc")
    out = ClassicalRegister(n, "out")
    qc = QuantumCircuit(data, anc, out)
    qc.x(anc)
    qc.h(anc)
    qc.h(data)
    qc.compose(bv_oracle(secret), qubits=[*data, anc[0]], inplace=True)
    qc.h(data)
    qc.measure(data, out)
    return qc
'''
BV_C_FUNC = '''
import cirq


def bv_oracle(data, anc, secret):
    for q, bit in zip(data, reversed(secret)):
        if bit == "1":
            yield cirq.CNOT(q, anc)


def bernstein_vazirani(secret: str = "$secret") -> cirq.Circuit:
    n = len(secret)
    data = cirq.LineQubit.range(n)
    anc = cirq.LineQubit(n)
    circuit = cirq.Circuit([cirq.X(anc), cirq.H(anc)])
    circuit.append(cirq.H.on_each(data))
    circuit.append(bv_oracle(data, anc, secret))
    circuit.append(cirq.H.on_each(data))
    circuit.append(cirq.measure(*data, key="out"))
    return circuit
'''
BV_Q_PHASE = '''
# Phase-oracle Bernstein–Vazirani: (−1)^(s·x) = Z on every qubit where s has a 1, no ancilla.
from qiskit import QuantumCircuit
from qiskit.circuit.library import ZGate


def phase_oracle(secret):
    n = len(secret)
    oracle = QuantumCircuit(n, name="Z_s")
    for qubit, bit in enumerate(secret[::-1]):
        if bit == "1":
            oracle.append(ZGate(), [qubit])
    return oracle.to_instruction()


def build(secret="$secret"):
    n = len(secret)
    qc = QuantumCircuit(n, n)
    qc.h(range(n))
    qc.append(phase_oracle(secret), list(range(n)))
    qc.h(range(n))
    qc.measure(list(range(n)), list(range(n)))
    return qc


circuit = build()
'''
BV_C_PHASE = '''
# Phase-oracle Bernstein–Vazirani with Z**1 on the secret's qubits.
import cirq

SECRET = "$secret"


def phase_oracle(qubits, secret):
    return [cirq.Z(q) ** 1 for q, bit in zip(qubits, secret[::-1]) if bit == "1"]


def build(secret=SECRET):
    qubits = cirq.LineQubit.range(len(secret))
    return cirq.Circuit(
        cirq.H.on_each(*qubits),
        phase_oracle(qubits, secret),
        cirq.H.on_each(*qubits),
        cirq.measure(*qubits, key="m"),
    )


circuit = build()
'''
BV_Q_ENTRY = '''
# Several circuit-returning functions in one file: the request names the entry point.
from qiskit import QuantumCircuit


def bell() -> QuantumCircuit:
    qc = QuantumCircuit(2)
    qc.h(0)
    qc.cx(0, 1)
    qc.measure_all()
    return qc


def bv(secret="$secret") -> QuantumCircuit:
    n = len(secret)
    qc = QuantumCircuit(n + 1, n)
    qc.x(n)
    qc.h(range(n + 1))
    for i, bit in enumerate(reversed(secret)):
        if bit == "1":
            qc.cx(i, n)
    qc.h(range(n))
    qc.measure(range(n), range(n))
    return qc
'''
BV_C_ENTRY = '''
# Several circuit-returning functions in one file: the request names the entry point.
import cirq


def bell() -> cirq.Circuit:
    a, b = cirq.LineQubit.range(2)
    return cirq.Circuit(cirq.H(a), cirq.CNOT(a, b), cirq.measure(a, b, key="m"))


def bv(secret="$secret") -> cirq.Circuit:
    n = len(secret)
    qs = cirq.LineQubit.range(n + 1)
    ops = [cirq.X(qs[n]), cirq.H.on_each(*qs)]
    ops += [cirq.CNOT(qs[i], qs[n]) for i, bit in enumerate(reversed(secret)) if bit == "1"]
    ops += [cirq.H.on_each(*qs[:n]), cirq.measure(*qs[:n], key="m")]
    return cirq.Circuit(ops)
'''
for name, secret in (("bv_textbook_1011", "1011"), ("bv_textbook_110101", "110101")):
    write("bernstein_vazirani", name, BV_Q_TEXTBOOK, BV_C_TEXTBOOK, "analytic: H^n·(−1)^(s·x)·H^n|0⟩ = |s⟩ with p = 1", point(secret), secret=secret, secret_bits=str([int(b) for b in reversed(secret)]))
for name, secret in (("bv_function_1101", "1101"), ("bv_function_10010111", "10010111")):
    write("bernstein_vazirani", name, BV_Q_FUNC, BV_C_FUNC, "analytic: the input register reads the secret with p = 1", point(secret), secret=secret)
for name, secret in (("bv_phase_oracle_111", "111"), ("bv_phase_oracle_01101", "01101")):
    write("bernstein_vazirani", name, BV_Q_PHASE, BV_C_PHASE, "analytic: H^n Z^s H^n |0⟩ = |s⟩ with p = 1", point(secret), secret=secret)
write("bernstein_vazirani", "bv_entry_point_100110", BV_Q_ENTRY, BV_C_ENTRY, "analytic: the entry point bv() returns the BV circuit for the default secret → |secret⟩ with p = 1", point("100110"), entry_point="bv", secret="100110")


# ---------------------------------------------------------------- Simon
# f(x) = x ⊕ x_p·s (p the lowest set bit of s) is 2-to-1 with period s: the first register reads
# a uniformly random y with y·s = 0 (mod 2), p = 1/2^(n−1) each.
SIMON_Q = '''
from qiskit import QuantumCircuit


def simon_oracle(s: str) -> QuantumCircuit:
    """Copy the input to the output, then XOR in s whenever the first set bit of s is 1."""
    n = len(s)
    qc = QuantumCircuit(2 * n, name="simon")
    for i in range(n):
        qc.cx(i, n + i)
    ones = [i for i, bit in enumerate(reversed(s)) if bit == "1"]
    if ones:
        pivot = ones[0]
        for i in ones:
            qc.cx(pivot, n + i)
    return qc


def simon(s: str = "$secret") -> QuantumCircuit:
    n = len(s)
    qc = QuantumCircuit(2 * n, n)
    qc.h(range(n))
    qc.barrier()
    qc = qc.compose(simon_oracle(s))
    qc.barrier()
    qc.h(range(n))
    qc.measure(range(n), range(n))
    return qc
'''
SIMON_C = '''
import cirq


def simon_oracle(inputs, outputs, secret_bits):
    ops = [cirq.CNOT(x, y) for x, y in zip(inputs, outputs)]
    ones = [i for i, bit in enumerate(secret_bits) if bit]
    if ones:
        pivot = ones[0]
        ops.extend(cirq.CNOT(inputs[pivot], outputs[i]) for i in ones)
    return ops


def simon(secret_bits=$secret_bits):
    n = len(secret_bits)
    inputs = [cirq.LineQubit(i) for i in range(n)]
    outputs = [cirq.LineQubit(n + i) for i in range(n)]
    circuit = cirq.Circuit()
    circuit.append(cirq.H.on_each(*inputs))
    circuit.append(simon_oracle(inputs, outputs, secret_bits))
    circuit.append(cirq.H.on_each(*inputs))
    circuit.append(cirq.measure(*inputs, key="y"))
    return circuit
'''
SIMON_Q_GATE = '''
# Simon's algorithm, oracle as a gate appended onto both registers.
from qiskit import QuantumCircuit, QuantumRegister, ClassicalRegister

secret = "$secret"
n = len(secret)
x = QuantumRegister(n, "x")
fx = QuantumRegister(n, "fx")
y = ClassicalRegister(n, "y")

oracle = QuantumCircuit(2 * n, name="Uf")
oracle.cx(range(n), range(n, 2 * n))
pivot = secret[::-1].index("1")
for i, bit in enumerate(secret[::-1]):
    if bit == "1":
        oracle.cx(pivot, n + i)

circuit = QuantumCircuit(x, fx, y)
circuit.h(x)
circuit.append(oracle.to_gate(), [*x, *fx])
circuit.h(x)
circuit.measure(x, y)
'''
SIMON_C_GATE = '''
# Simon's algorithm, oracle as a sub-circuit (CircuitOperation) on both registers.
import cirq

secret = "$secret"
n = len(secret)
x = cirq.LineQubit.range(n)
fx = cirq.LineQubit.range(n, 2 * n)
pivot = secret[::-1].index("1")
oracle = cirq.Circuit(cirq.CNOT(a, b) for a, b in zip(x, fx))
oracle.append(cirq.CNOT(x[pivot], fx[i]) for i, bit in enumerate(secret[::-1]) if bit == "1")
circuit = cirq.Circuit(
    cirq.H.on_each(*x),
    cirq.CircuitOperation(oracle.freeze()),
    cirq.H.on_each(*x),
    cirq.measure(*x, key="y"),
)
'''


def simon_dist(secret):
    n = len(secret)
    s = int(secret, 2)
    ys = [y for y in range(2 ** n) if bin(y & s).count("1") % 2 == 0]
    return {bits(y, n): 1 / len(ys) for y in ys}


for name, secret in (("simon_11", "11"), ("simon_110", "110"), ("simon_1011", "1011")):
    write("simon", name, SIMON_Q, SIMON_C, "analytic: 2-to-1 f with period s → uniform over {y : y·s = 0 mod 2}", simon_dist(secret), secret=secret, secret_bits=str([int(b) for b in reversed(secret)]))
for name, secret in (("simon_gate_101", "101"), ("simon_gate_0110", "0110")):
    write("simon", name, SIMON_Q_GATE, SIMON_C_GATE, "analytic: 2-to-1 f with period s → uniform over {y : y·s = 0 mod 2}", simon_dist(secret), secret=secret)


# ---------------------------------------------------------------- Grover
# M marked items among N = 2^n, r iterations: p(marked, total) = sin²((2r+1)θ), sin θ = √(M/N),
# shared equally by the marked items; the rest shared equally by the unmarked ones.
def grover_dist(n, marked, r):
    N = 2 ** n
    theta = math.asin(math.sqrt(len(marked) / N))
    p = math.sin((2 * r + 1) * theta) ** 2
    return {bits(x, n): (p / len(marked) if bits(x, n) in marked else (1 - p) / (N - len(marked))) for x in range(N)}


GROVER_Q_HELPERS = '''
import math
from qiskit import QuantumCircuit


def phase_oracle(qc, marked):
    """Flip the phase of |marked⟩ (marked is a bitstring, qubit 0 = rightmost character)."""
    n = qc.num_qubits
    zeros = [i for i, b in enumerate(reversed(marked)) if b == "0"]
    if zeros:
        qc.x(zeros)
    qc.h(n - 1)
    qc.mcx(list(range(n - 1)), n - 1)
    qc.h(n - 1)
    if zeros:
        qc.x(zeros)


def diffuser(qc):
    n = qc.num_qubits
    qc.h(range(n))
    qc.x(range(n))
    qc.h(n - 1)
    qc.mcx(list(range(n - 1)), n - 1)
    qc.h(n - 1)
    qc.x(range(n))
    qc.h(range(n))


def grover(marked="$marked"):
    n = len(marked)
    iterations = math.floor(math.pi / 4 * math.sqrt(2 ** n))
    qc = QuantumCircuit(n)
    qc.h(range(n))
    for _ in range(iterations):
        phase_oracle(qc, marked)
        diffuser(qc)
    qc.measure_all()
    return qc
'''
GROVER_C_HELPERS = '''
import math
import cirq


def phase_oracle(qubits, marked):
    """Flip the phase of |marked⟩; marked[-1 - i] is the bit of qubit i (Qiskit's string order)."""
    flips = [q for i, q in enumerate(qubits) if marked[len(marked) - 1 - i] == "0"]
    yield cirq.X.on_each(*flips)
    yield cirq.Z.controlled(num_controls=len(qubits) - 1).on(*qubits)
    yield cirq.X.on_each(*flips)


def diffuser(qubits):
    yield cirq.H.on_each(*qubits)
    yield cirq.X.on_each(*qubits)
    yield cirq.Z.controlled(num_controls=len(qubits) - 1).on(*qubits)
    yield cirq.X.on_each(*qubits)
    yield cirq.H.on_each(*qubits)


def grover(marked="$marked"):
    n = len(marked)
    qubits = cirq.LineQubit.range(n)
    iterations = math.floor(math.pi / 4 * math.sqrt(2 ** n))
    circuit = cirq.Circuit(cirq.H.on_each(*qubits))
    for _ in range(iterations):
        circuit.append(phase_oracle(qubits, marked))
        circuit.append(diffuser(qubits))
    circuit.append(cirq.measure(*qubits, key="result"))
    return circuit
'''
GROVER_Q_LIBRARY = '''
# Grover with qiskit.circuit.library: an oracle circuit built by a helper, GroverOperator, MCMT.
from qiskit import QuantumCircuit
from qiskit.circuit.library import GroverOperator, MCMT, ZGate


def oracle_for(marked: str) -> QuantumCircuit:
    n = len(marked)
    oracle = QuantumCircuit(n)
    flips = [q for q in range(n) if marked[n - 1 - q] == "0"]
    if flips:
        oracle.x(flips)
    oracle.compose(MCMT(ZGate(), n - 1, 1), inplace=True)
    if flips:
        oracle.x(flips)
    return oracle


def search(marked: str = "$marked", iterations: int = $r) -> QuantumCircuit:
    n = len(marked)
    grover_op = GroverOperator(oracle_for(marked))
    qc = QuantumCircuit(n)
    qc.h(range(n))
    for _ in range(iterations):
        qc.compose(grover_op, inplace=True)
    qc.measure_all()
    return qc
'''
GROVER_C_LIBRARY = '''
# Grover with a reusable iteration as a CircuitOperation repeated r times.
import cirq


def oracle_for(qubits, marked):
    n = len(qubits)
    flips = [qubits[q] for q in range(n) if marked[n - 1 - q] == "0"]
    return cirq.Circuit(
        cirq.X.on_each(*flips),
        cirq.ControlledGate(cirq.Z, num_controls=n - 1).on(*qubits),
        cirq.X.on_each(*flips),
    )


def diffusion(qubits):
    n = len(qubits)
    return cirq.Circuit(
        cirq.H.on_each(*qubits),
        cirq.X.on_each(*qubits),
        cirq.ControlledGate(cirq.Z, num_controls=n - 1).on(*qubits),
        cirq.X.on_each(*qubits),
        cirq.H.on_each(*qubits),
    )


def search(marked="$marked", iterations=$r):
    qubits = cirq.LineQubit.range(len(marked))
    step = (oracle_for(qubits, marked) + diffusion(qubits)).freeze()
    return cirq.Circuit(
        cirq.H.on_each(*qubits),
        cirq.CircuitOperation(step, repetitions=iterations),
        cirq.measure(*qubits, key="result"),
    )
'''
GROVER_Q_GATES = '''
# Grover with the oracle as ZGate().control(n-1) and the diffuser as a sub-circuit gate.
import numpy as np
from qiskit import QuantumCircuit
from qiskit.circuit.library import ZGate, MCXGate

marked_states = $marked_list
n = $n


def oracle(n, marked_states):
    qc = QuantumCircuit(n, name="oracle")
    for target in marked_states:
        rev = target[::-1]
        zero_inds = [i for i in range(n) if rev[i] == "0"]
        if zero_inds:
            qc.x(zero_inds)
        qc.append(ZGate().control(n - 1), list(range(n)))
        if zero_inds:
            qc.x(zero_inds)
    return qc.to_gate()


def diffuser(n):
    qc = QuantumCircuit(n, name="diffuser")
    qc.h(range(n))
    qc.x(range(n))
    qc.h(n - 1)
    qc.append(MCXGate(n - 1), list(range(n)))
    qc.h(n - 1)
    qc.x(range(n))
    qc.h(range(n))
    return qc.to_gate()


iterations = int(np.floor(np.pi / 4 * np.sqrt(2**n / len(marked_states))))
grover = QuantumCircuit(n, n)
grover.h(range(n))
for _ in range(iterations):
    grover.append(oracle(n, marked_states), range(n))
    grover.append(diffuser(n), range(n))
grover.measure(range(n), range(n))
'''
GROVER_C_GATES = '''
# Grover with the oracle as cirq.Z.controlled(n-1) per marked state and a diffuser helper.
import numpy as np
import cirq

marked_states = $marked_list
n = $n
q = cirq.LineQubit.range(n)


def oracle(marked_states):
    for target in marked_states:
        zeros = [q[i] for i, bit in enumerate(target[::-1]) if bit == "0"]
        yield [cirq.X(z) for z in zeros]
        yield cirq.Z(q[-1]).controlled_by(*q[:-1])
        yield [cirq.X(z) for z in zeros]


def diffuser():
    yield cirq.H.on_each(*q)
    yield cirq.X.on_each(*q)
    yield cirq.H(q[-1])
    yield cirq.X(q[-1]).controlled_by(*q[:-1])
    yield cirq.H(q[-1])
    yield cirq.X.on_each(*q)
    yield cirq.H.on_each(*q)


iterations = int(np.floor(np.pi / 4 * np.sqrt(2**n / len(marked_states))))
circuit = cirq.Circuit(cirq.H.on_each(*q))
for _ in range(iterations):
    circuit += oracle(marked_states)
    circuit += diffuser()
circuit += cirq.measure(*q, key="m")
'''
for name, marked in (("grover_helpers_2q_11", "11"), ("grover_helpers_3q_101", "101"), ("grover_helpers_4q_0110", "0110"), ("grover_helpers_5q_10011", "10011")):
    n = len(marked)
    r = math.floor(math.pi / 4 * math.sqrt(2 ** n))
    write("grover", name, GROVER_Q_HELPERS, GROVER_C_HELPERS, f"analytic: one marked item of N = 2^{n}, r = ⌊π/4·√N⌋ = {r}: p(marked) = sin²((2r+1)θ), sin θ = 1/√N; the rest uniform", grover_dist(n, {marked}, r), marked=marked)
for name, marked, r in (("grover_library_3q_110", "110", 2), ("grover_library_4q_1101", "1101", 3)):
    n = len(marked)
    write("grover", name, GROVER_Q_LIBRARY, GROVER_C_LIBRARY, f"analytic: one marked item of N = 2^{n}, r = {r}: p(marked) = sin²((2r+1)θ), sin θ = 1/√N; the rest uniform", grover_dist(n, {marked}, r), marked=marked, r=r)
for name, marked in (("grover_gates_3q_010", ["010"]), ("grover_gates_3q_two_marked", ["011", "110"]), ("grover_gates_4q_two_marked", ["0001", "1110"])):
    n = len(marked[0])
    r = math.floor(math.pi / 4 * math.sqrt(2 ** n / len(marked)))
    write("grover", name, GROVER_Q_GATES, GROVER_C_GATES, f"analytic: M = {len(marked)} marked of N = 2^{n}, r = ⌊π/4·√(N/M)⌋ = {r}: p(marked) = sin²((2r+1)θ)/M each, sin θ = √(M/N); the rest uniform", grover_dist(n, set(marked), r), marked_list=str(marked), n=n)


# ---------------------------------------------------------------- QFT / QPE
# QPE of an eigenphase φ = k/2^n with n counting qubits reads k exactly (p = 1).
QPE_Q_MANUAL = '''
# Quantum phase estimation, textbook style: U = P(2πφ) on |1⟩, inverse QFT written by hand.
import math
from qiskit import QuantumCircuit


def qft_dagger(qc, n):
    """n-qubit inverse QFT on the first n qubits (swaps first)."""
    for qubit in range(n // 2):
        qc.swap(qubit, n - qubit - 1)
    for j in range(n):
        for m in range(j):
            qc.cp(-math.pi / float(2 ** (j - m)), m, j)
        qc.h(j)


def qpe(counting=$n, phase=$k / $den):
    qc = QuantumCircuit(counting + 1, counting)
    qc.x(counting)  # eigenstate |1⟩ of P(θ)
    for q in range(counting):
        qc.h(q)
    repetitions = 1
    for q in range(counting):
        for _ in range(repetitions):
            qc.cp(2 * math.pi * phase, q, counting)
        repetitions *= 2
    qc.barrier()
    qft_dagger(qc, counting)
    qc.barrier()
    for q in range(counting):
        qc.measure(q, q)
    return qc
'''
QPE_C_MANUAL = '''
# Quantum phase estimation with an inverse QFT written by hand (little-endian like Qiskit's).
import math
import cirq


def qft_dagger(qubits):
    n = len(qubits)
    for i in range(n // 2):
        yield cirq.SWAP(qubits[i], qubits[n - i - 1])
    for j in range(n):
        for m in range(j):
            yield cirq.CZPowGate(exponent=-1 / 2 ** (j - m)).on(qubits[m], qubits[j])
        yield cirq.H(qubits[j])


def qpe(counting=$n, phase=$k / $den):
    qs = cirq.LineQubit.range(counting)
    target = cirq.LineQubit(counting)
    circuit = cirq.Circuit(cirq.X(target), cirq.H.on_each(*qs))
    for i, q in enumerate(qs):
        # controlled P(2πφ)^(2^i) = CZ^(2φ·2^i)
        circuit.append(cirq.CZ(q, target) ** (2 * phase * 2**i))
    circuit.append(qft_dagger(qs))
    circuit.append(cirq.measure(*qs, key="phase"))
    return circuit
'''
QPE_Q_LIBRARY = '''
# Quantum phase estimation with library gates: controlled powers of a PhaseGate and QFT(inverse=True).
import numpy as np
from qiskit import QuantumCircuit, QuantumRegister, ClassicalRegister
from qiskit.circuit.library import QFT, PhaseGate

n = $n
theta = 2 * np.pi * $k / 2**n
counting = QuantumRegister(n, "counting")
state = QuantumRegister(1, "state")
readout = ClassicalRegister(n, "readout")
qc = QuantumCircuit(counting, state, readout)
qc.x(state)
qc.h(counting)
for j in range(n):
    qc.append(PhaseGate(theta).power(2**j).control(), [counting[j], state[0]])
qc.append(QFT(n, inverse=True), counting)
qc.measure(counting, readout)
'''
QPE_C_LIBRARY = '''
# Quantum phase estimation the Cirq way: cirq.qft(inverse=True), qubit 0 the most significant bit.
import numpy as np
import cirq

n = $n
theta = 2 * np.pi * $k / 2**n
counting = cirq.LineQubit.range(n)
state = cirq.LineQubit(n)
U = cirq.ZPowGate(exponent=theta / np.pi)
circuit = cirq.Circuit(cirq.X(state), cirq.H.on_each(*counting))
for i, q in enumerate(counting):
    circuit.append((U ** (2 ** (n - 1 - i))).controlled().on(q, state))
circuit.append(cirq.qft(*counting, inverse=True))
circuit.append(cirq.measure(*counting, key="phase"))
'''
QPE_Q_TGATE = '''
# QPE of the T gate (φ = 1/8) with its controlled version from TGate().control(1).
from qiskit import QuantumCircuit
from qiskit.circuit.library import TGate, QFTGate


def controlled_t_power(power):
    block = QuantumCircuit(1, name=f"T^{power}")
    for _ in range(power):
        block.t(0)
    return block.to_gate().control(1)


def build():
    qc = QuantumCircuit(4, 3)
    qc.x(3)
    qc.h([0, 1, 2])
    for j in range(3):
        qc.append(controlled_t_power(2**j), [j, 3])
    qc.append(QFTGate(3).inverse(), [0, 1, 2])
    qc.measure([0, 1, 2], [0, 1, 2])
    return qc
'''
QPE_C_TGATE = '''
# QPE of the T gate (φ = 1/8) with controlled powers of cirq.T and cirq.inverse(cirq.qft(...)).
import cirq


def build():
    counting = cirq.LineQubit.range(3)
    target = cirq.LineQubit(3)
    ops = [cirq.X(target), cirq.H.on_each(*counting)]
    for i, q in enumerate(counting):
        ops.append(cirq.ControlledGate(cirq.T ** (2 ** (2 - i))).on(q, target))
    ops.append(cirq.inverse(cirq.qft(*counting)))
    ops.append(cirq.measure(*counting, key="m"))
    return cirq.Circuit(ops)
'''
for name, n, k in (("qpe_manual_3bit_k5", 3, 5), ("qpe_manual_4bit_k11", 4, 11), ("qpe_manual_5bit_k19", 5, 19)):
    write("qft_qpe", name, QPE_Q_MANUAL, QPE_C_MANUAL, f"analytic: eigenphase φ = {k}/2^{n} is exact in {n} bits → the counting register reads k = {k} with p = 1", point(bits(k, n)), n=n, k=k, den=2 ** n)
for name, n, k in (("qpe_library_3bit_k3", 3, 3), ("qpe_library_4bit_k13", 4, 13)):
    write("qft_qpe", name, QPE_Q_LIBRARY, QPE_C_LIBRARY, f"analytic: φ = {k}/2^{n} exact → k = {k} with p = 1. The Cirq version reads k big-endian (cirq.qft convention, counting[0] most significant)", point(bits(k, n)), cirq_bits="reversed", n=n, k=k)
write("qft_qpe", "qpe_t_gate", QPE_Q_TGATE, QPE_C_TGATE, "analytic: T = P(π/4) has eigenphase 1/8 on |1⟩ → 3 counting bits read k = 1 with p = 1. The Cirq version reads k big-endian (cirq.qft convention)", point("001"), cirq_bits="reversed")

QFT_Q_ROUNDTRIP = '''
# QFT then inverse QFT on a basis state returns it: a check of both library directions.
from qiskit import QuantumCircuit
from qiskit.circuit.library import QFT


def qft_roundtrip(value=$value, n=$n):
    qc = QuantumCircuit(n)
    for i in range(n):
        if (value >> i) & 1:
            qc.x(i)
    qc.compose(QFT(n), inplace=True)
    qc.barrier()
    qc.compose(QFT(n).inverse(), inplace=True)
    qc.measure_all()
    return qc
'''
QFT_C_ROUNDTRIP = '''
# QFT then its inverse (cirq.qft and cirq.qft(inverse=True)) on a basis state returns it.
import cirq


def qft_roundtrip(value=$value, n=$n):
    q = cirq.LineQubit.range(n)
    prep = [cirq.X(q[i]) for i in range(n) if (value >> i) & 1]
    return cirq.Circuit(prep, cirq.qft(*q), cirq.qft(*q, inverse=True), cirq.measure(*q, key="m"))
'''
QFT_Q_PERIODIC = '''
# A periodic state under the inverse QFT: the superposition of the multiples of 2^(n-m) → peaks.
from qiskit import QuantumCircuit
from qiskit.circuit.library import QFT

n = $n
qc = QuantumCircuit(n)
# uniform superposition over multiples of 2^(n-$m): H on the top $m qubits only
for q in range(n - $m, n):
    qc.h(q)
qc.append(QFT(n, inverse=True, do_swaps=True), range(n))
qc.measure_all()
'''
QFT_C_PERIODIC = '''
# Uniform superposition over the multiples of 2^(n-m), then the inverse QFT → peaks.
import cirq

n = $n
q = cirq.LineQubit.range(n)
c = cirq.Circuit()
# big-endian: the multiples of 2^(n-m) are the states with only the first m qubits set
c.append(cirq.H(q[i]) for i in range($m))
c.append(cirq.qft(*q, inverse=True))
c.append(cirq.measure(*q, key="m"))
'''


def periodic_dist(n, m):
    # state (1/√2^m) Σ_j |j·2^(n−m)⟩; QFT† → amplitude at y ∝ Σ_j e^{−2πi j y/2^m}, non-zero
    # (p = 1/2^(n−m)) exactly when y is a multiple of 2^m.
    step = 2 ** m
    ys = list(range(0, 2 ** n, step))
    return {bits(y, n): 1 / len(ys) for y in ys}


for name, n, value in (("qft_roundtrip_4q_9", 4, 9), ("qft_roundtrip_5q_22", 5, 22)):
    write("qft_qpe", name, QFT_Q_ROUNDTRIP, QFT_C_ROUNDTRIP, f"analytic: QFT†·QFT = I, so the basis state |{value}⟩ is read with p = 1", point(bits(value, n)), n=n, value=value)
write("qft_qpe", "qft_periodic_5q", QFT_Q_PERIODIC, QFT_C_PERIODIC, "analytic: (1/√2^m)Σ_j|j·2^(n−m)⟩ under QFT† gives amplitude ∝ Σ_j e^(−2πi·j·y/2^m), non-zero exactly for y ≡ 0 mod 2^m: uniform over those 2^(n−m) values (n = 5, m = 2). The Cirq version is big-endian (cirq.qft convention)", periodic_dist(5, 2), cirq_bits="reversed", n=5, m=2)


# ---------------------------------------------------------------- Teleportation
# Alice's two outcomes are uniform and independent of Bob's; Bob's qubit is the teleported state,
# so p(m_z, m_x, r) = ¼·|⟨r|ψ⟩|². Layout: clbit 0 = Alice's q0 (Z correction), clbit 1 = q1 (X
# correction), clbit 2 = Bob's measurement.
def teleport_dist(p1):
    return {f"{r}{x}{z}": 0.25 * (p1 if r == 1 else 1 - p1) for r in (0, 1) for x in (0, 1) for z in (0, 1)}


TELE_Q_CIF = '''
# Teleportation as in the (pre-1.0) Qiskit textbook: classical registers and c_if corrections.
from qiskit import QuantumCircuit, QuantumRegister, ClassicalRegister

theta = $theta
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
'''
TELE_C_CLASSICAL = '''
# Teleportation with measurement keys and classically controlled corrections.
import cirq

theta = $theta
msg, alice, bob = cirq.LineQubit.range(3)
circuit = cirq.Circuit(
    cirq.ry(theta).on(msg),
    cirq.H(alice),
    cirq.CNOT(alice, bob),
    cirq.CNOT(msg, alice),
    cirq.H(msg),
    cirq.measure(msg, key="crz"),
    cirq.measure(alice, key="crx"),
    cirq.X(bob).with_classical_controls("crx"),
    cirq.Z(bob).with_classical_controls("crz"),
    cirq.measure(bob, key="result"),
)
'''
TELE_Q_IFTEST = '''
# Teleportation with dynamic circuits (if_test), built by helper functions.
from qiskit import QuantumCircuit, QuantumRegister, ClassicalRegister


def create_bell_pair(qc, a, b):
    qc.h(a)
    qc.cx(a, b)


def alice_gates(qc, psi, a):
    qc.cx(psi, a)
    qc.h(psi)


def teleport(theta=$theta, phi=$phi):
    qr = QuantumRegister(3, "q")
    m0 = ClassicalRegister(1, "m0")
    m1 = ClassicalRegister(1, "m1")
    out = ClassicalRegister(1, "out")
    qc = QuantumCircuit(qr, m0, m1, out)
    qc.u(theta, phi, 0, 0)
    create_bell_pair(qc, 1, 2)
    alice_gates(qc, 0, 1)
    qc.measure(0, m0)
    qc.measure(1, m1)
    with qc.if_test((m1, 1)):
        qc.x(2)
    with qc.if_test((m0, 1)):
        qc.z(2)
    qc.measure(2, out)
    return qc
'''
TELE_C_HELPERS = '''
# Teleportation built by helper functions; corrections conditioned on measurement keys.
import cirq


def bell_pair(a, b):
    return [cirq.H(a), cirq.CNOT(a, b)]


def teleport(theta=$theta, phi=$phi):
    psi, a, b = cirq.LineQubit.range(3)
    # U(θ, φ, 0) = Rz(φ)·Ry(θ) up to a global phase
    prepare = [cirq.ry(theta)(psi), cirq.rz(phi)(psi)]
    circuit = cirq.Circuit(prepare, bell_pair(a, b))
    circuit.append([cirq.CNOT(psi, a), cirq.H(psi)])
    circuit.append([cirq.measure(psi, key="m0"), cirq.measure(a, key="m1")])
    circuit.append(cirq.X(b).with_classical_controls("m1"))
    circuit.append(cirq.Z(b).with_classical_controls("m0"))
    circuit.append(cirq.measure(b, key="out"))
    return circuit
'''
TELE_Q_DEFERRED = '''
# Teleportation with the principle of deferred measurement: controlled corrections, then measure.
import numpy as np
from qiskit import QuantumCircuit


def teleport_deferred(amplitudes):
    qc = QuantumCircuit(3, 3)
    qc.initialize(amplitudes, 0)
    qc.h(1)
    qc.cx(1, 2)
    qc.cx(0, 1)
    qc.h(0)
    qc.cx(1, 2)
    qc.cz(0, 2)
    qc.measure([0, 1, 2], [0, 1, 2])
    return qc


state = np.array([$a0, $a1])
state = state / np.linalg.norm(state)
circuit = teleport_deferred(state)
'''
TELE_C_DEFERRED = '''
# Teleportation with deferred measurement; the input state from a 2×2 matrix whose first column
# is the (normalised) state, applied with cirq.MatrixGate.
import numpy as np
import cirq

a, b = $a0, $a1
norm = np.sqrt(abs(a) ** 2 + abs(b) ** 2)
a, b = a / norm, b / norm
prep = np.array([[a, -np.conj(b)], [b, np.conj(a)]])  # unitary with prep|0⟩ = a|0⟩ + b|1⟩
q0, q1, q2 = cirq.LineQubit.range(3)
circuit = cirq.Circuit(
    cirq.MatrixGate(prep).on(q0),
    cirq.H(q1),
    cirq.CNOT(q1, q2),
    cirq.CNOT(q0, q1),
    cirq.H(q0),
    cirq.CNOT(q1, q2),
    cirq.CZ(q0, q2),
    cirq.measure(q0, q1, q2, key="m"),
)
'''
for name, theta in (("teleport_cif_ry1p1", 1.1), ("teleport_cif_ry2p5", 2.5)):
    write("teleportation", name, TELE_Q_CIF, TELE_C_CLASSICAL, f"analytic: Bob's qubit is Ry({theta})|0⟩, p(1) = sin²(θ/2); Alice's bits uniform and independent", teleport_dist(math.sin(theta / 2) ** 2), theta=theta)
for name, theta, phi in (("teleport_iftest_u", 0.7, 1.3), ("teleport_iftest_u2", 2.0, -0.4)):
    write("teleportation", name, TELE_Q_IFTEST, TELE_C_HELPERS, f"analytic: Bob's qubit is U(θ={theta}, φ={phi}, 0)|0⟩, p(1) = sin²(θ/2); Alice's bits uniform and independent", teleport_dist(math.sin(theta / 2) ** 2), theta=theta, phi=phi)
for name, a0, a1 in (("teleport_deferred_complex", "0.6", "0.8j"), ("teleport_deferred_complex2", "1 + 1j", "2 - 0.5j")):
    amp = np.array([complex(eval(a0)), complex(eval(a1))])
    amp = amp / np.linalg.norm(amp)
    write("teleportation", name, TELE_Q_DEFERRED, TELE_C_DEFERRED, f"analytic: deferred measurement leaves q2 in the normalised ({a0}, {a1}), p(1) = |a1|²/(|a0|²+|a1|²); q0, q1 uniform and independent", teleport_dist(abs(amp[1]) ** 2), a0=a0, a1=a1)


# ---------------------------------------------------------------- Superdense coding
# Encoding the two-bit message on one half of a Bell pair and decoding reads the message (p = 1).
SDC_Q = '''
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
message = "$msg"
qc = encode_message(qc, 0, message)
qc.barrier()
qc = decode_message(qc)
qc.measure_all()
'''
SDC_C = '''
# Superdense coding: Alice applies X^b1 Z^b0 to her half of the Bell pair.
import cirq

ENCODINGS = {"00": [], "01": [cirq.X], "10": [cirq.Z], "11": [cirq.X, cirq.Z]}


def superdense(message="$msg"):
    alice, bob = cirq.LineQubit.range(2)
    circuit = cirq.Circuit(cirq.H(bob), cirq.CNOT(bob, alice))
    circuit.append(gate(alice) for gate in ENCODINGS[message])
    circuit.append([cirq.CNOT(bob, alice), cirq.H(bob)])
    circuit.append(cirq.measure(alice, bob, key="received"))
    return circuit
'''
for msg in ("00", "01", "10", "11"):
    write("superdense", f"superdense_{msg}", SDC_Q, SDC_C, "analytic: Bell-basis decoding of X^m1·Z^m0 on one half reads the message m with p = 1", point(msg), msg=msg)


# ---------------------------------------------------------------- Swap test
# Ancilla reads 0 with p = (1 + |⟨ψ|φ⟩|²)/2.
SWAP_Q = '''
# Swap test between Ry(a)|0⟩ and Ry(b)|0⟩.
from qiskit import QuantumCircuit


def swap_test(a=$a, b=$b):
    qc = QuantumCircuit(3, 1)
    qc.ry(a, 1)
    qc.ry(b, 2)
    qc.h(0)
    qc.cswap(0, 1, 2)
    qc.h(0)
    qc.measure(0, 0)
    return qc
'''
SWAP_C = '''
# Swap test between Ry(a)|0⟩ and Ry(b)|0⟩ with cirq.FREDKIN.
import cirq


def swap_test(a=$a, b=$b):
    anc, psi, phi = cirq.LineQubit.range(3)
    return cirq.Circuit(
        cirq.ry(a).on(psi),
        cirq.ry(b).on(phi),
        cirq.H(anc),
        cirq.FREDKIN(anc, psi, phi),
        cirq.H(anc),
        cirq.measure(anc, key="anc"),
    )
'''
SWAP_Q_REG = '''
# Swap test of two 2-qubit states with registers and a controlled-SWAP per qubit pair.
from qiskit import QuantumCircuit, QuantumRegister, ClassicalRegister

anc = QuantumRegister(1, "anc")
psi = QuantumRegister(2, "psi")
phi = QuantumRegister(2, "phi")
out = ClassicalRegister(1, "out")
qc = QuantumCircuit(anc, psi, phi, out)
# |ψ⟩ = Bell state, |φ⟩ = Ry(t)|0⟩ ⊗ |0⟩
qc.h(psi[0])
qc.cx(psi[0], psi[1])
qc.ry($t, phi[0])
qc.h(anc)
for a, b in zip(psi, phi):
    qc.cswap(anc[0], a, b)
qc.h(anc)
qc.measure(anc, out)
'''
SWAP_C_REG = '''
# Swap test of two 2-qubit states; the controlled swaps from cirq.SWAP.controlled().
import cirq

anc = cirq.NamedQubit("anc")
psi = [cirq.NamedQubit(f"psi{i}") for i in range(2)]
phi = [cirq.NamedQubit(f"phi{i}") for i in range(2)]
cswap = cirq.SWAP.controlled(num_controls=1)
circuit = cirq.Circuit(
    cirq.H(psi[0]),
    cirq.CNOT(psi[0], psi[1]),
    cirq.ry($t).on(phi[0]),
    cirq.H(anc),
    [cswap.on(anc, a, b) for a, b in zip(psi, phi)],
    cirq.H(anc),
    cirq.measure(anc, key="out"),
)
'''
for name, a, b in (("swap_test_close", 0.4, 0.9), ("swap_test_orthogonal", 0.0, math.pi), ("swap_test_far", 0.3, 2.2)):
    overlap = math.cos((a - b) / 2) ** 2
    write("swap_test", name, SWAP_Q, SWAP_C, "analytic: p(0) = (1 + |⟨ψ|φ⟩|²)/2 with ⟨Ry(a)0|Ry(b)0⟩ = cos((a−b)/2)", {"0": (1 + overlap) / 2, "1": (1 - overlap) / 2}, a=repr(a), b=repr(b))
t = 1.2
bell = np.array([1, 0, 0, 1]) / math.sqrt(2)  # index = 2·q1 + q0 (little-endian)
phi_state = np.array([math.cos(t / 2), math.sin(t / 2), 0, 0])
ov = abs(np.vdot(bell, phi_state)) ** 2
write("swap_test", "swap_test_two_qubit", SWAP_Q_REG, SWAP_C_REG, "analytic: p(0) = (1 + |⟨ψ|φ⟩|²)/2, ⟨Bell|Ry(t)0,0⟩ = cos(t/2)/√2", {"0": (1 + ov) / 2, "1": (1 - ov) / 2}, t=t)


# ---------------------------------------------------------------- Hadamard test
# p(0) = (1 + Re⟨ψ|U|ψ⟩)/2; with S† on the ancilla before the controlled U, p(0) = (1 + Im⟨ψ|U|ψ⟩)/2
# (p(0) = ‖ψ − iUψ‖²/4 = (2 + 2·Re⟨ψ|−iUψ⟩)/4 = (1 + Im⟨ψ|U|ψ⟩)/2).
HT_Q_CP = '''
# Hadamard test of U = P(φ) on |ψ⟩ = Ry(a)|0⟩ (real part).
import math
from qiskit import QuantumCircuit

a = $a
phi = $phi
qc = QuantumCircuit(2, 1)
qc.ry(a, 1)
qc.h(0)
qc.cp(phi, 0, 1)
qc.h(0)
qc.measure(0, 0)
'''
HT_C_CP = '''
# Hadamard test of U = Z**(φ/π) on |ψ⟩ = Ry(a)|0⟩ (real part).
import math
import cirq

a = $a
phi = $phi
anc, sys = cirq.LineQubit.range(2)
circuit = cirq.Circuit(
    cirq.ry(a)(sys),
    cirq.H(anc),
    (cirq.Z ** (phi / math.pi)).on(sys).controlled_by(anc),
    cirq.H(anc),
    cirq.measure(anc, key="anc"),
)
'''
HT_Q_MATRIX = '''
# Hadamard test (imaginary part) of a 1-qubit unitary given as a numpy matrix.
import numpy as np
from qiskit import QuantumCircuit
from qiskit.circuit.library import UnitaryGate


def hadamard_test(U, prep_angle, imaginary=True):
    qc = QuantumCircuit(2, 1)
    qc.ry(prep_angle, 1)
    qc.h(0)
    if imaginary:
        qc.sdg(0)
    qc.append(UnitaryGate(U).control(1), [0, 1])
    qc.h(0)
    qc.measure(0, 0)
    return qc


alpha = $alpha
U = np.array([[np.cos(alpha), -1j * np.sin(alpha)], [-1j * np.sin(alpha), np.cos(alpha)]])  # Rx(2α)
circuit = hadamard_test(U, $a)
'''
HT_C_MATRIX = '''
# Hadamard test (imaginary part) of a 1-qubit unitary given as a numpy matrix.
import numpy as np
import cirq


def hadamard_test(U, prep_angle, imaginary=True):
    anc, sys = cirq.LineQubit.range(2)
    ops = [cirq.ry(prep_angle).on(sys), cirq.H(anc)]
    if imaginary:
        ops.append(cirq.S(anc) ** -1)
    ops.append(cirq.MatrixGate(U).controlled().on(anc, sys))
    ops += [cirq.H(anc), cirq.measure(anc, key="anc")]
    return cirq.Circuit(ops)


alpha = $alpha
U = np.array([[np.cos(alpha), -1j * np.sin(alpha)], [-1j * np.sin(alpha), np.cos(alpha)]])  # Rx(2α)
circuit = hadamard_test(U, $a)
'''
HT_Q_GATE = '''
# Hadamard test of a 2-qubit unitary built as a sub-circuit and controlled with .control().
from qiskit import QuantumCircuit


def unitary_block(theta):
    block = QuantumCircuit(2, name="U")
    block.rzz(theta, 0, 1)
    block.h(1)
    return block.to_gate()


qc = QuantumCircuit(3, 1)
qc.x(1)  # |ψ⟩ = |01⟩ (q1 = 1, q2 = 0)
qc.h(0)
qc.append(unitary_block($theta).control(1), [0, 1, 2])
qc.h(0)
qc.measure(0, 0)
'''
HT_C_GATE = '''
# Hadamard test of a 2-qubit unitary built as a FrozenCircuit and controlled.
import cirq

theta = $theta
anc, a, b = cirq.LineQubit.range(3)
block = cirq.FrozenCircuit(cirq.ZZPowGate(exponent=theta / 3.141592653589793, global_shift=-0.5).on(a, b), cirq.H(b))
circuit = cirq.Circuit(
    cirq.X(a),
    cirq.H(anc),
    cirq.CircuitOperation(block).controlled_by(anc),
    cirq.H(anc),
    cirq.measure(anc, key="anc"),
)
'''


def ry0(angle):
    return np.array([math.cos(angle / 2), math.sin(angle / 2)], dtype=complex)


for name, a, phi in (("hadamard_test_phase", 1.0, 2.0), ("hadamard_test_phase2", 2.4, 0.8)):
    psi = ry0(a)
    ev = np.vdot(psi, np.diag([1, cmath.exp(1j * phi)]) @ psi)
    write("hadamard_test", name, HT_Q_CP, HT_C_CP, "analytic: p(0) = (1 + Re⟨ψ|P(φ)|ψ⟩)/2 = (1 + cos²(a/2) + sin²(a/2)·cos φ)/2", {"0": (1 + ev.real) / 2, "1": (1 - ev.real) / 2}, a=a, phi=phi)
for name, alpha, a in (("hadamard_test_matrix_imag", 0.6, 0.3), ("hadamard_test_matrix_imag2", 1.1, 2.0)):
    psi = ry0(a)
    U = np.array([[math.cos(alpha), -1j * math.sin(alpha)], [-1j * math.sin(alpha), math.cos(alpha)]])
    ev = np.vdot(psi, U @ psi)
    write("hadamard_test", name, HT_Q_MATRIX, HT_C_MATRIX, "analytic: with S† on the ancilla, p(0) = (1 + Im⟨ψ|U|ψ⟩)/2; ⟨ψ|U|ψ⟩ from the 2×2 matrix and ψ = Ry(a)|0⟩", {"0": (1 + ev.imag) / 2, "1": (1 - ev.imag) / 2}, alpha=alpha, a=a)
# ⟨01|U|01⟩ with U = (I⊗H)·RZZ(θ) acting on (q1, q2) = (1, 0): RZZ gives e^{+iθ/2} (odd parity),
# then H on q2 maps |0⟩ to |+⟩: ⟨01|U|01⟩ = e^{iθ/2}/√2.
theta = 0.9
ev = cmath.exp(1j * theta / 2) / math.sqrt(2)
write("hadamard_test", "hadamard_test_subcircuit", HT_Q_GATE, HT_C_GATE, "analytic: ⟨ψ|U|ψ⟩ = e^(iθ/2)/√2 for U = H₂·RZZ(θ), |ψ⟩ = |q1=1, q2=0⟩; p(0) = (1 + Re)/2", {"0": (1 + ev.real) / 2, "1": (1 - ev.real) / 2}, theta=theta)


# ---------------------------------------------------------------- Adders
# Reversible adders on basis states: the sum register reads a + b with p = 1.
CUCCARO_Q = '''
# Ripple-carry adder (Cuccaro, Draper, Kutin, Moulton 2004, arXiv:quant-ph/0410184): MAJ/UMA helpers.
from qiskit import QuantumCircuit, QuantumRegister, ClassicalRegister


def majority(qc, c, b, a):
    qc.cx(a, b)
    qc.cx(a, c)
    qc.ccx(c, b, a)


def unmajority(qc, c, b, a):
    qc.ccx(c, b, a)
    qc.cx(a, c)
    qc.cx(c, b)


def ripple_carry_adder(a_val=$a, b_val=$b, n=$n):
    cin = QuantumRegister(1, "cin")
    a = QuantumRegister(n, "a")
    b = QuantumRegister(n, "b")
    cout = QuantumRegister(1, "cout")
    ans = ClassicalRegister(n + 1, "ans")
    qc = QuantumCircuit(cin, a, b, cout, ans)
    for i in range(n):
        if (a_val >> i) & 1:
            qc.x(a[i])
        if (b_val >> i) & 1:
            qc.x(b[i])
    majority(qc, cin[0], b[0], a[0])
    for i in range(1, n):
        majority(qc, a[i - 1], b[i], a[i])
    qc.cx(a[n - 1], cout[0])
    for i in reversed(range(1, n)):
        unmajority(qc, a[i - 1], b[i], a[i])
    unmajority(qc, cin[0], b[0], a[0])
    for i in range(n):
        qc.measure(b[i], ans[i])
    qc.measure(cout[0], ans[n])
    return qc
'''
CUCCARO_C = '''
# Ripple-carry adder (Cuccaro et al. 2004) with MAJ/UMA helpers returning operation lists.
import cirq


def majority(c, b, a):
    return [cirq.CNOT(a, b), cirq.CNOT(a, c), cirq.TOFFOLI(c, b, a)]


def unmajority(c, b, a):
    return [cirq.TOFFOLI(c, b, a), cirq.CNOT(a, c), cirq.CNOT(c, b)]


def ripple_carry_adder(a_val=$a, b_val=$b, n=$n):
    cin = cirq.NamedQubit("cin")
    a = [cirq.NamedQubit(f"a{i}") for i in range(n)]
    b = [cirq.NamedQubit(f"b{i}") for i in range(n)]
    cout = cirq.NamedQubit("cout")
    circuit = cirq.Circuit()
    circuit.append(cirq.X(a[i]) for i in range(n) if (a_val >> i) & 1)
    circuit.append(cirq.X(b[i]) for i in range(n) if (b_val >> i) & 1)
    circuit.append(majority(cin, b[0], a[0]))
    for i in range(1, n):
        circuit.append(majority(a[i - 1], b[i], a[i]))
    circuit.append(cirq.CNOT(a[n - 1], cout))
    for i in reversed(range(1, n)):
        circuit.append(unmajority(a[i - 1], b[i], a[i]))
    circuit.append(unmajority(cin, b[0], a[0]))
    circuit.append(cirq.measure(*b, cout, key="ans"))
    return circuit
'''
DRAPER_Q = '''
# Draper's QFT adder (arXiv:quant-ph/0008033): b ← a + b (mod 2^n) by phase rotations in the Fourier basis.
import math
from qiskit import QuantumCircuit, QuantumRegister, ClassicalRegister
from qiskit.circuit.library import QFT


def load(qc, register, value):
    for i, qubit in enumerate(register):
        if (value >> i) & 1:
            qc.x(qubit)


def draper_adder(a_val, b_val, n):
    a = QuantumRegister(n, "a")
    b = QuantumRegister(n, "b")
    out = ClassicalRegister(n, "sum")
    qc = QuantumCircuit(a, b, out)
    load(qc, a, a_val)
    load(qc, b, b_val)
    qc.append(QFT(n, do_swaps=True), b)
    for j in range(n):
        for i in range(n - j):
            qc.cp(2 * math.pi * 2 ** (i + j) / 2**n, a[i], b[j])
    qc.append(QFT(n, do_swaps=True).inverse(), b)
    qc.measure(b, out)
    return qc


circuit = draper_adder($a, $b, $n)
'''
DRAPER_C = '''
# Draper's QFT adder with a hand-written little-endian QFT and cirq.inverse for the inverse.
import math
import cirq


def qft(qubits):
    n = len(qubits)
    ops = []
    for j in reversed(range(n)):
        ops.append(cirq.H(qubits[j]))
        for k in reversed(range(j)):
            ops.append(cirq.CZ(qubits[k], qubits[j]) ** (1 / 2 ** (j - k)))
    for i in range(n // 2):
        ops.append(cirq.SWAP(qubits[i], qubits[n - 1 - i]))
    return ops


def draper_adder(a_val, b_val, n):
    a = cirq.LineQubit.range(n)
    b = cirq.LineQubit.range(n, 2 * n)
    circuit = cirq.Circuit()
    circuit.append(cirq.X(a[i]) for i in range(n) if a_val >> i & 1)
    circuit.append(cirq.X(b[i]) for i in range(n) if b_val >> i & 1)
    circuit.append(qft(b))
    for j in range(n):
        for i in range(n - j):
            circuit.append(cirq.CZPowGate(exponent=2 * 2 ** (i + j) / 2**n).on(a[i], b[j]))
    circuit.append(cirq.inverse(qft(b)))
    circuit.append(cirq.measure(*b, key="sum"))
    return circuit


circuit = draper_adder($a, $b, $n)
'''
FULL_Q = '''
# One-bit full adder with Toffoli and CNOT gates (sum and carry out of a + b + cin).
from qiskit import QuantumCircuit

qc = QuantumCircuit(4, 2)  # q0 = a, q1 = b, q2 = cin → sum, q3 = carry
for qubit, bit in zip([0, 1, 2], [$a, $b, $c]):
    if bit:
        qc.x(qubit)
qc.ccx(0, 1, 3)
qc.cx(0, 1)
qc.ccx(1, 2, 3)
qc.cx(1, 2)
qc.cx(0, 1)
qc.measure(2, 0)
qc.measure(3, 1)
'''
FULL_C = '''
# One-bit full adder: sum on the carry-in qubit, carry on an extra qubit.
import cirq

a, b, cin, carry = cirq.LineQubit.range(4)
inputs = [$a, $b, $c]
circuit = cirq.Circuit([cirq.X(q) for q, bit in zip([a, b, cin], inputs) if bit])
circuit += [cirq.CCX(a, b, carry), cirq.CX(a, b), cirq.CCX(b, cin, carry), cirq.CX(b, cin), cirq.CX(a, b)]
circuit += [cirq.measure(cin, carry, key="sc")]
'''
for name, a, b, n in (("cuccaro_2bit_1p3", 1, 3, 2), ("cuccaro_3bit_5p6", 5, 6, 3), ("cuccaro_4bit_11p7", 11, 7, 4)):
    write("adders", name, CUCCARO_Q, CUCCARO_C, f"analytic: ripple-carry addition of basis states, b ← a+b with carry out: {a}+{b} = {a + b} on n+1 bits with p = 1", point(bits(a + b, n + 1)), a=a, b=b, n=n)
for name, a, b, n in (("draper_3bit_3p6", 3, 6, 3), ("draper_4bit_9p5", 9, 5, 4), ("draper_4bit_13p12_mod", 13, 12, 4)):
    write("adders", name, DRAPER_Q, DRAPER_C, f"analytic: QFT adder, b ← (a+b) mod 2^n: ({a}+{b}) mod {2 ** n} = {(a + b) % 2 ** n} with p = 1", point(bits((a + b) % 2 ** n, n)), a=a, b=b, n=n)
for a, b, c in ((1, 1, 1), (1, 0, 1)):
    s = a + b + c
    write("adders", f"full_adder_{a}{b}{c}", FULL_Q, FULL_C, f"analytic: a+b+cin = {s}: sum bit {s & 1}, carry {s >> 1} with p = 1", point(f"{s >> 1}{s & 1}"), a=a, b=b, c=c)


# ---------------------------------------------------------------- State preparation
GHZ_Q = '''
from qiskit import QuantumCircuit


def ghz(n: int = $n) -> QuantumCircuit:
    qc = QuantumCircuit(n)
    qc.h(0)
    for i in range(n - 1):
        qc.cx(i, i + 1)
    qc.measure_all()
    return qc
'''
GHZ_C = '''
import cirq


def ghz(n: int = $n) -> cirq.Circuit:
    qubits = cirq.LineQubit.range(n)
    circuit = cirq.Circuit(cirq.H(qubits[0]))
    circuit.append(cirq.CNOT(qubits[i], qubits[i + 1]) for i in range(n - 1))
    circuit.append(cirq.measure(*qubits, key="ghz"))
    return circuit
'''
GHZ_Q_LOG = '''
# Log-depth GHZ preparation: every qubit already in the state fans out in each round.
from qiskit import QuantumCircuit, QuantumRegister, ClassicalRegister


def ghz_log_depth(n):
    q = QuantumRegister(n, "q")
    c = ClassicalRegister(n, "c")
    qc = QuantumCircuit(q, c)
    qc.h(q[0])
    filled = 1
    while filled < n:
        for i in range(min(filled, n - filled)):
            qc.cx(q[i], q[filled + i])
        filled *= 2
    qc.measure(q, c)
    return qc


circuit = ghz_log_depth($n)
'''
GHZ_C_LOG = '''
# Log-depth GHZ preparation, one Moment per round.
import cirq


def ghz_log_depth(n):
    q = cirq.LineQubit.range(n)
    moments = [cirq.Moment([cirq.H(q[0])])]
    filled = 1
    while filled < n:
        moments.append(cirq.Moment(cirq.CNOT(q[i], q[filled + i]) for i in range(min(filled, n - filled))))
        filled *= 2
    moments.append(cirq.Moment([cirq.measure(*q, key="c")]))
    return cirq.Circuit(moments)


circuit = ghz_log_depth($n)
'''
W_Q = '''
# W state by a cascade of controlled-Ry rotations and CNOTs.
import numpy as np
from qiskit import QuantumCircuit


def w_state(n=$n):
    qc = QuantumCircuit(n)
    qc.x(0)
    for k in range(n - 1):
        theta = 2 * np.arccos(np.sqrt(1 / (n - k)))
        qc.cry(theta, k, k + 1)
        qc.cx(k + 1, k)
    qc.measure_all()
    return qc
'''
W_C = '''
# W state by a cascade of controlled-Ry rotations (cirq.ControlledGate) and CNOTs.
import numpy as np
import cirq


def w_state(n=$n):
    q = cirq.LineQubit.range(n)
    circuit = cirq.Circuit(cirq.X(q[0]))
    for k in range(n - 1):
        theta = 2 * np.arccos(np.sqrt(1 / (n - k)))
        circuit.append(cirq.ControlledGate(cirq.ry(theta)).on(q[k], q[k + 1]))
        circuit.append(cirq.CNOT(q[k + 1], q[k]))
    circuit.append(cirq.measure(*q, key="w"))
    return circuit
'''
INIT_Q = '''
# Arbitrary state preparation from a complex amplitude vector (index little-endian in qubit number).
import numpy as np
from qiskit import QuantumCircuit
from qiskit.circuit.library import StatePreparation

amplitudes = np.array($amps)
amplitudes = amplitudes / np.linalg.norm(amplitudes)
n = int(np.log2(len(amplitudes)))
qc = QuantumCircuit(n)
qc.append(StatePreparation(amplitudes), range(n))
qc.measure_all()
'''
INIT_Q2 = '''
# Arbitrary state preparation with QuantumCircuit.initialize and complex amplitudes.
import math
from qiskit import QuantumCircuit


def prepared(amplitudes):
    norm = math.sqrt(sum(abs(a) ** 2 for a in amplitudes))
    n = (len(amplitudes) - 1).bit_length()
    qc = QuantumCircuit(n, n)
    qc.initialize([a / norm for a in amplitudes], list(range(n)))
    qc.measure(range(n), range(n))
    return qc


circuit = prepared($amps)
'''
INIT_C = '''
# Arbitrary state preparation with cirq.StatePreparationChannel (Cirq's big-endian amplitude order:
# qubit 0 is the most significant bit of the index).
import numpy as np
import cirq

amplitudes = np.array($amps_be)
amplitudes = amplitudes / np.linalg.norm(amplitudes)
n = int(np.log2(len(amplitudes)))
q = cirq.LineQubit.range(n)
circuit = cirq.Circuit(
    cirq.StatePreparationChannel(amplitudes).on(*q),
    cirq.measure(*q, key="m"),
)
'''
INIT_C2 = '''
# Arbitrary state preparation: a unitary whose first column is the target state (a Householder
# reflection built with numpy), applied with cirq.MatrixGate; cirq's big-endian index order.
import numpy as np
import cirq


def prepared(amplitudes):
    psi = np.array(amplitudes, dtype=complex)
    psi = psi / np.linalg.norm(psi)
    dim = len(psi)
    e0 = np.zeros(dim, dtype=complex)
    e0[0] = 1
    phase = psi[0] / abs(psi[0])
    v = e0 - psi / phase
    U = (np.eye(dim) - 2 * np.outer(v, v.conj()) / np.vdot(v, v)) * phase  # U|0⟩ = ψ
    n = int(np.log2(dim))
    q = cirq.LineQubit.range(n)
    return cirq.Circuit(cirq.MatrixGate(U).on(*q), cirq.measure(*q, key="m"))


circuit = prepared($amps_be)
'''


def state_dist(amps_le):
    a = np.array(amps_le, dtype=complex)
    a = a / np.linalg.norm(a)
    n = int(math.log2(len(a)))
    return {bits(i, n): abs(a[i]) ** 2 for i in range(len(a))}


def to_big_endian(amps_le):
    n = int(math.log2(len(amps_le)))
    return [amps_le[int(bits(i, n)[::-1], 2)] for i in range(len(amps_le))]


def pylist(values):
    def one(v):
        if not isinstance(v, complex):
            return repr(v)
        if v.real == 0:
            return f"{v.imag!r}j"
        return f"{v.real!r} + {v.imag!r}j" if v.imag >= 0 else f"{v.real!r} - {-v.imag!r}j"

    return "[" + ", ".join(one(v) for v in values) + "]"


for name, n in (("ghz_3", 3), ("ghz_6", 6)):
    write("state_preparation", name, GHZ_Q, GHZ_C, "analytic: (|0…0⟩ + |1…1⟩)/√2 → each with p = ½", {"0" * n: 0.5, "1" * n: 0.5}, n=n)
write("state_preparation", "ghz_log_depth_7", GHZ_Q_LOG, GHZ_C_LOG, "analytic: GHZ state → 0…0 and 1…1 with p = ½ each", {"0" * 7: 0.5, "1" * 7: 0.5}, n=7)
for name, n in (("w_state_3", 3), ("w_state_5", 5)):
    write("state_preparation", name, W_Q, W_C, "analytic: the cascade leaves amplitude √(1/n) on each weight-1 string (cos(θ_k/2) = √(1/(n−k)) keeps 1/n at each step)", {bits(1 << i, n): 1 / n for i in range(n)}, n=n)
amps2 = [0.5, 0.5j, -0.5, 0.3 + 0.4j]
amps3 = [1, 0, 1j, 0, 0.5, 0, 0, -0.5 - 0.5j]
write("state_preparation", "state_prep_2q_complex", INIT_Q, INIT_C, "analytic: |amplitude_i|² / Σ|a|² at index i (Qiskit index little-endian; the Cirq program lists the same state in Cirq's big-endian order, so the same qubits carry the same bits)", state_dist(amps2), amps=pylist(amps2), amps_be=pylist(to_big_endian(amps2)))
write("state_preparation", "state_prep_3q_initialize", INIT_Q2, INIT_C2, "analytic: |amplitude_i|² / Σ|a|² (Qiskit little-endian index; the Cirq program writes the same state in Cirq's big-endian order, so the same qubits carry the same bits)", state_dist(amps3), amps=pylist(amps3), amps_be=pylist(to_big_endian(amps3)))


# ---------------------------------------------------------------- QAOA (reference: OpenQASM 2)
def qasm_header(n, comment=""):
    return f'OPENQASM 2.0;\ninclude "qelib1.inc";\n{comment}qreg q[{n}];\ncreg c[{n}];\n'


def qaoa_reference(n, edges, gammas, betas, title):
    lines = [qasm_header(n, f"// {title}: hand-written reference, RZZ(2γ) as cx·rz(2γ)·cx, mixer rx(2β) on every qubit.\n").rstrip("\n")]
    lines += [f"h q[{i}];" for i in range(n)]
    for gamma, beta in zip(gammas, betas):
        for i, j in edges:
            lines += [f"cx q[{i}],q[{j}];", f"rz({2 * gamma!r}) q[{j}];", f"cx q[{i}],q[{j}];"]
        lines += [f"rx({2 * beta!r}) q[{i}];" for i in range(n)]
    lines += [f"measure q[{i}] -> c[{i}];" for i in range(n)]
    return "\n".join(lines) + "\n"


QAOA_Q = '''
# QAOA for MaxCut with angles fixed in code: cost layer of RZZ(2γ) per edge, mixer RX(2β).
from qiskit import QuantumCircuit


def qaoa_maxcut(n, edges, gammas, betas):
    qc = QuantumCircuit(n)
    qc.h(range(n))
    for gamma, beta in zip(gammas, betas):
        for i, j in edges:
            qc.rzz(2 * gamma, i, j)
        qc.rx(2 * beta, range(n))
    qc.measure_all()
    return qc


edges = $edges
circuit = qaoa_maxcut($n, edges, gammas=$gammas, betas=$betas)
'''
QAOA_C = '''
# QAOA for MaxCut: exp(-iγ Z_i Z_j) = ZZPowGate(exponent=2γ/π) up to global phase, mixer rx(2β).
import numpy as np
import cirq


def qaoa_maxcut(n, edges, gammas, betas):
    q = cirq.LineQubit.range(n)
    circuit = cirq.Circuit(cirq.H.on_each(*q))
    for gamma, beta in zip(gammas, betas):
        circuit.append(cirq.ZZPowGate(exponent=2 * gamma / np.pi).on(q[i], q[j]) for i, j in edges)
        circuit.append(cirq.rx(2 * beta).on_each(*q))
    circuit.append(cirq.measure(*q, key="cut"))
    return circuit


edges = $edges
circuit = qaoa_maxcut($n, edges, gammas=$gammas, betas=$betas)
'''
QAOA_Q_PARAM = '''
# QAOA written with Parameters, bound in code with assign_parameters before running.
from qiskit import QuantumCircuit
from qiskit.circuit import Parameter

edges = $edges
n = $n
gamma = Parameter("gamma")
beta = Parameter("beta")


def cost_layer(qc, gamma):
    for i, j in edges:
        qc.cx(i, j)
        qc.rz(2 * gamma, j)
        qc.cx(i, j)


ansatz = QuantumCircuit(n)
ansatz.h(range(n))
cost_layer(ansatz, gamma)
for q in range(n):
    ansatz.rx(2 * beta, q)
ansatz.measure_all()
bound = ansatz.assign_parameters({gamma: $gamma, beta: $beta})
'''
QAOA_C_PARAM = '''
# QAOA written with sympy symbols, resolved in code with cirq.resolve_parameters.
import sympy
import cirq

edges = $edges
n = $n
gamma, beta = sympy.symbols("gamma beta")
q = cirq.LineQubit.range(n)


def cost_layer(gamma):
    for i, j in edges:
        yield cirq.CNOT(q[i], q[j])
        yield cirq.rz(2 * gamma).on(q[j])
        yield cirq.CNOT(q[i], q[j])


ansatz = cirq.Circuit(cirq.H.on_each(*q), cost_layer(gamma), cirq.rx(2 * beta).on_each(*q), cirq.measure(*q, key="m"))
circuit = cirq.resolve_parameters(ansatz, {"gamma": $gamma, "beta": $beta})
'''
for name, n, edges, gammas, betas in (
    ("qaoa_triangle_p1", 3, [(0, 1), (1, 2), (0, 2)], [0.6], [0.35]),
    ("qaoa_square_p1", 4, [(0, 1), (1, 2), (2, 3), (3, 0)], [0.39], [0.4]),
    ("qaoa_ring5_p2", 5, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)], [0.3, 0.55], [0.5, 0.25]),
    ("qaoa_k4_p1", 4, [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)], [0.45], [0.3]),
):
    write("qaoa", name, QAOA_Q, QAOA_C, "reference: hand-written OpenQASM 2 program with the same angles (reference.qasm), simulated by the corpus spec", reference=qaoa_reference(n, edges, gammas, betas, name), n=n, edges=str(edges), gammas=str(gammas), betas=str(betas))
for name, n, edges, g, b in (("qaoa_bound_parameters_path4", 4, [(0, 1), (1, 2), (2, 3)], 0.7, 0.45),):
    write("qaoa", name, QAOA_Q_PARAM, QAOA_C_PARAM, "reference: hand-written OpenQASM 2 program with the bound angles (reference.qasm), simulated by the corpus spec", reference=qaoa_reference(n, edges, [g], [b], name), n=n, edges=str(edges), gamma=g, beta=b)


# ---------------------------------------------------------------- VQE ansätze (reference: OpenQASM 2)
VQE_Q_REAL = '''
# A VQE ansatz from the circuit library with its parameters bound to numbers in code.
import numpy as np
from qiskit.circuit.library import RealAmplitudes

n = $n
ansatz = RealAmplitudes(n, entanglement="linear", reps=$reps)
values = np.linspace(0.1, 2.0, ansatz.num_parameters)
qc = ansatz.assign_parameters(values)
qc.measure_all()
'''
VQE_C_REAL = '''
# The RealAmplitudes-shaped ansatz (Ry layers, linear CNOT entanglers) with numeric angles.
import numpy as np
import cirq

n, reps = $n, $reps
q = cirq.LineQubit.range(n)
values = iter(np.linspace(0.1, 2.0, n * (reps + 1)))
circuit = cirq.Circuit()
for layer in range(reps + 1):
    circuit.append(cirq.ry(next(values)).on(qubit) for qubit in q)
    if layer < reps:
        circuit.append(cirq.CNOT(q[i], q[i + 1]) for i in range(n - 1))
circuit.append(cirq.measure(*q, key="m"))
'''
VQE_Q_HEA = '''
# Hardware-efficient ansatz: Ry·Rz on every qubit, a CZ ladder between layers, angles from a list.
from qiskit import QuantumCircuit


def hardware_efficient(n, layers, thetas):
    qc = QuantumCircuit(n, n)
    k = 0
    for layer in range(layers):
        for q in range(n):
            qc.ry(thetas[k], q)
            qc.rz(thetas[k + 1], q)
            k += 2
        for q in range(n - 1):
            qc.cz(q, q + 1)
    qc.measure(range(n), range(n))
    return qc


thetas = [round(0.3 * k - 0.7, 3) for k in range($count)]
circuit = hardware_efficient($n, $layers, thetas)
'''
VQE_C_HEA = '''
# Hardware-efficient ansatz: Ry·Rz on every qubit, a CZ ladder between layers.
import cirq


def hardware_efficient(n, layers, thetas):
    q = cirq.LineQubit.range(n)
    c = cirq.Circuit()
    k = 0
    for _ in range(layers):
        for qubit in q:
            c.append([cirq.ry(thetas[k])(qubit), cirq.rz(thetas[k + 1])(qubit)])
            k += 2
        c.append(cirq.CZ(q[i], q[i + 1]) for i in range(n - 1))
    c.append(cirq.measure(*q, key="m"))
    return c


thetas = [round(0.3 * k - 0.7, 3) for k in range($count)]
circuit = hardware_efficient($n, $layers, thetas)
'''
VQE_Q_PVEC = '''
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
circuit = ansatz.assign_parameters({theta[0]: $t0, theta[1]: $t1, theta[2]: $t2})
'''
VQE_C_PVEC = '''
# A UCC-flavoured 2-qubit ansatz with sympy symbols, resolved with a ParamResolver.
import sympy
import cirq

t0, t1, t2 = sympy.symbols("t0:3")
a, b = cirq.LineQubit.range(2)
ansatz = cirq.Circuit(cirq.X(a), cirq.ry(t0).on(b), cirq.CNOT(b, a), cirq.rz(t1).on(a), cirq.ry(t2).on(b), cirq.measure(a, b, key="m"))
resolver = cirq.ParamResolver({t0: $t0, t1: $t1, t2: $t2})
circuit = cirq.resolve_parameters(ansatz, resolver)
'''


def real_amplitudes_reference(n, reps, title):
    values = np.linspace(0.1, 2.0, n * (reps + 1))
    lines = [qasm_header(n, f"// {title}: hand-written reference: Ry layers with linspace(0.1, 2.0) angles, CNOT(i, i+1) entanglers.\n").rstrip("\n")]
    k = 0
    for layer in range(reps + 1):
        for qb in range(n):
            lines.append(f"ry({float(values[k])!r}) q[{qb}];")
            k += 1
        if layer < reps:
            lines += [f"cx q[{i}],q[{i + 1}];" for i in range(n - 1)]
    lines += [f"measure q[{i}] -> c[{i}];" for i in range(n)]
    return "\n".join(lines) + "\n"


def hea_reference(n, layers, title):
    thetas = [round(0.3 * k - 0.7, 3) for k in range(2 * n * layers)]
    lines = [qasm_header(n, f"// {title}: hand-written reference: ry, rz per qubit, cz ladder.\n").rstrip("\n")]
    k = 0
    for _ in range(layers):
        for qb in range(n):
            lines += [f"ry({thetas[k]!r}) q[{qb}];", f"rz({thetas[k + 1]!r}) q[{qb}];"]
            k += 2
        lines += [f"cz q[{i}],q[{i + 1}];" for i in range(n - 1)]
    lines += [f"measure q[{i}] -> c[{i}];" for i in range(n)]
    return "\n".join(lines) + "\n"


for name, n, reps in (("vqe_real_amplitudes_3q", 3, 2), ("vqe_real_amplitudes_4q", 4, 1)):
    write("vqe", name, VQE_Q_REAL, VQE_C_REAL, "reference: hand-written OpenQASM 2 program (RealAmplitudes with linear entanglement: Ry layers, CX(i,i+1)) with the same angles", reference=real_amplitudes_reference(n, reps, name), n=n, reps=reps)
for name, n, layers in (("vqe_hea_3q_2layers", 3, 2), ("vqe_hea_4q_3layers", 4, 3)):
    write("vqe", name, VQE_Q_HEA, VQE_C_HEA, "reference: hand-written OpenQASM 2 program with the same angles", reference=hea_reference(n, layers, name), n=n, layers=layers, count=2 * n * layers)
t0, t1, t2 = 0.9, 0.4, 1.7
ref = "\n".join([qasm_header(2, "// vqe_parameter_vector: hand-written reference with the bound angles.\n").rstrip("\n"), "x q[0];", f"ry({t0}) q[1];", "cx q[1],q[0];", f"rz({t1}) q[0];", f"ry({t2}) q[1];", "measure q[0] -> c[0];", "measure q[1] -> c[1];"]) + "\n"
write("vqe", "vqe_parameter_vector", VQE_Q_PVEC, VQE_C_PVEC, "reference: hand-written OpenQASM 2 program with the bound angles", reference=ref, t0=t0, t1=t1, t2=t2)


# ---------------------------------------------------------------- HHL-style matrix gates
# A = [[1.5, −0.5], [−0.5, 1.5]] has eigenvectors |+⟩ (λ = 1) and |−⟩ (λ = 2); with t = π/2,
# U = e^{iAt} has eigenphases 1/4 and 2/4, exact in two clock bits (k = λ).
HHL_Q = '''
# HHL for a 2×2 system (Harrow, Hassidim, Lloyd 2009, arXiv:0811.3171): QPE of U = e^{iAt} built
# from numpy matrices, eigenvalue inversion by controlled Ry, uncomputation, measure ancilla + |x⟩.
import numpy as np
from qiskit import QuantumCircuit
from qiskit.circuit.library import UnitaryGate, QFT

t = np.pi / 2
V = np.array([[1, 1], [1, -1]]) / np.sqrt(2)  # eigenvectors of A = [[1.5, -0.5], [-0.5, 1.5]]


def evolution(power):
    """e^{iA t·power} = V diag(e^{i·1·t·power}, e^{i·2·t·power}) V†."""
    d = np.array([[np.exp(1j * 1 * t * power), 0], [0, np.exp(1j * 2 * t * power)]])
    return V @ d @ V.conj().T


def hhl(b_angle=$b_angle, C=$C):
    qc = QuantumCircuit(4, 2)  # q0 = |b⟩, q1 q2 = clock, q3 = ancilla
    qc.ry(b_angle, 0)
    qc.h([1, 2])
    qc.append(UnitaryGate(evolution(1)).control(1), [1, 0])
    qc.append(UnitaryGate(evolution(2)).control(1), [2, 0])
    qc.append(QFT(2, inverse=True), [1, 2])
    # clock reads k = λ: rotate the ancilla by 2·asin(C/λ)
    qc.cry(2 * np.arcsin(C / 1), 1, 3)
    qc.cry(2 * np.arcsin(C / 2), 2, 3)
    qc.append(QFT(2), [1, 2])
    qc.append(UnitaryGate(evolution(-2)).control(1), [2, 0])
    qc.append(UnitaryGate(evolution(-1)).control(1), [1, 0])
    qc.h([1, 2])
    qc.measure(3, 0)
    qc.measure(0, 1)
    return qc
'''
HHL_C = '''
# HHL for a 2×2 system with cirq.MatrixGate(...).controlled() and cirq.qft on the clock.
import numpy as np
import cirq

t = np.pi / 2
V = np.array([[1, 1], [1, -1]]) / np.sqrt(2)


def evolution(power):
    d = np.array([[np.exp(1j * t * power), 0], [0, np.exp(2j * t * power)]])
    return V @ d @ V.conj().T


def hhl(b_angle=$b_angle, C=$C):
    b, c0, c1, anc = cirq.LineQubit.range(4)
    clock_be = [c1, c0]  # cirq.qft reads its first qubit as the most significant bit
    cu1 = cirq.MatrixGate(evolution(1)).controlled()
    cu2 = cirq.MatrixGate(evolution(2)).controlled()
    circuit = cirq.Circuit(cirq.ry(b_angle)(b), cirq.H(c0), cirq.H(c1))
    circuit.append([cu1.on(c0, b), cu2.on(c1, b)])
    circuit.append(cirq.qft(*clock_be, inverse=True))
    circuit.append(cirq.ry(2 * np.arcsin(C / 1)).on(anc).controlled_by(c0))
    circuit.append(cirq.ry(2 * np.arcsin(C / 2)).on(anc).controlled_by(c1))
    circuit.append(cirq.qft(*clock_be))
    circuit.append([cirq.MatrixGate(evolution(-2)).controlled().on(c1, b), cirq.MatrixGate(evolution(-1)).controlled().on(c0, b)])
    circuit.append(cirq.H.on_each(c0, c1))
    circuit.append(cirq.measure(anc, key="anc"))
    circuit.append(cirq.measure(b, key="x"))
    return circuit
'''


def hhl_dist(b_angle, C):
    b = ry0(b_angle)
    lams = [1.0, 2.0]
    vecs = [np.array([1, 1]) / math.sqrt(2), np.array([1, -1]) / math.sqrt(2)]
    amp = {}
    for s in (0, 1):
        for a in (0, 1):
            total = 0
            for lam, u in zip(lams, vecs):
                beta = np.vdot(u, b)
                sin = C / lam
                total += beta * u[s] * (sin if a == 1 else math.sqrt(1 - sin * sin))
            amp[f"{s}{a}"] = abs(total) ** 2
    return amp


for name, b_angle, C in (("hhl_2x2_b0", 0.0, 0.5), ("hhl_2x2_b_ry", 1.2, 0.9)):
    write("hhl_matrix_gates", name, HHL_Q, HHL_C, "analytic: exact QPE (eigenphases 1/4, 2/4) then uncomputation leave Σ_j β_j|u_j⟩(√(1−C²/λ_j²)|0⟩ + C/λ_j|1⟩); p(x, anc) = |Σ_j β_j u_j(x)·f_j(anc)|² from A's eigen-decomposition (the anc = 1 branch ∝ A⁻¹|b⟩). Layout: clbit 0 = ancilla, clbit 1 = x", hhl_dist(b_angle, C), b_angle=b_angle, C=C)

QPE_MATRIX_Q = '''
# Phase estimation of U = e^{iAt} (a UnitaryGate from numpy) on the eigenvector |−⟩ of A.
import numpy as np
from qiskit import QuantumCircuit, QuantumRegister, ClassicalRegister
from qiskit.circuit.library import UnitaryGate, QFTGate

A = np.array([[1.5, -0.5], [-0.5, 1.5]])
t = np.pi / 2
plus = np.array([1, 1]) / np.sqrt(2)
minus = np.array([1, -1]) / np.sqrt(2)
U = np.exp(1j * 1 * t) * np.outer(plus, plus) + np.exp(1j * 2 * t) * np.outer(minus, minus)

clock = QuantumRegister(2, "clock")
target = QuantumRegister(1, "target")
meas = ClassicalRegister(2, "meas")
qc = QuantumCircuit(clock, target, meas)
qc.x(target)
qc.h(target)  # |−⟩, eigenvalue λ = 2
qc.h(clock)
qc.append(UnitaryGate(U, label="U").control(), [clock[0], target[0]])
qc.append(UnitaryGate(U @ U, label="U^2").control(), [clock[1], target[0]])
qc.append(QFTGate(2).inverse(), clock)
qc.measure(clock, meas)
'''
QPE_MATRIX_C = '''
# Phase estimation of U = e^{iAt} (cirq.MatrixGate) on the eigenvector |−⟩ of A; big-endian clock.
import numpy as np
import cirq

t = np.pi / 2
plus = np.array([1, 1]) / np.sqrt(2)
minus = np.array([1, -1]) / np.sqrt(2)
U = np.exp(1j * t) * np.outer(plus, plus) + np.exp(2j * t) * np.outer(minus, minus)
U2 = U @ U
clock = cirq.LineQubit.range(2)
target = cirq.LineQubit(2)
circuit = cirq.Circuit(
    cirq.X(target),
    cirq.H(target),
    cirq.H.on_each(*clock),
    cirq.MatrixGate(U2).controlled().on(clock[0], target),
    cirq.MatrixGate(U).controlled().on(clock[1], target),
    cirq.qft(*clock, inverse=True),
    cirq.measure(*clock, key="meas"),
)
'''
write("hhl_matrix_gates", "qpe_matrix_eigenvector", QPE_MATRIX_Q, QPE_MATRIX_C, "analytic: |−⟩ is an eigenvector of e^{iAt} with phase 2/4 → the 2-bit clock reads k = 2 with p = 1 (Cirq version big-endian)", point("10"), cirq_bits="reversed")

MATRIX2_Q = '''
# A 2-qubit unitary from numpy (np.kron of single-qubit matrices times a CNOT) as a UnitaryGate.
import numpy as np
from qiskit import QuantumCircuit
from qiskit.circuit.library import UnitaryGate


def ry(theta):
    return np.array([[np.cos(theta / 2), -np.sin(theta / 2)], [np.sin(theta / 2), np.cos(theta / 2)]])


CNOT = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]])
S = np.array([[1, 0], [0, 1j]])
M = CNOT @ np.kron(ry($a), S @ ry($b))

qc = QuantumCircuit(2)
qc.unitary(M, [0, 1], label="M")
qc.measure_all()
'''
MATRIX2_C = '''
# A 2-qubit unitary from numpy (np.kron of single-qubit matrices times a CNOT) as a cirq.MatrixGate.
import numpy as np
import cirq


def ry(theta):
    return np.array([[np.cos(theta / 2), -np.sin(theta / 2)], [np.sin(theta / 2), np.cos(theta / 2)]])


CNOT = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]])
S = np.array([[1, 0], [0, 1j]])
M = CNOT @ np.kron(ry($a), S @ ry($b))
q = cirq.LineQubit.range(2)
circuit = cirq.Circuit(cirq.MatrixGate(M).on(*q), cirq.measure(*q, key="m"))
'''
a_, b_ = 0.8, 2.1
ryn = lambda th: np.array([[math.cos(th / 2), -math.sin(th / 2)], [math.sin(th / 2), math.cos(th / 2)]])
M = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]]) @ np.kron(ryn(a_), np.array([[1, 0], [0, 1j]]) @ ryn(b_))
write("hhl_matrix_gates", "unitary_2q_kron", MATRIX2_Q, MATRIX2_C, "analytic: the state is the first column of M (numpy); Qiskit reads the matrix index little-endian, Cirq big-endian, so the same matrix gives the Qiskit distribution in Qiskit order and its reverse in the Cirq program", {bits(i, 2): abs(M[i, 0]) ** 2 for i in range(4)}, cirq_bits="reversed", a=a_, b=b_)

MATRIX3_Q = '''
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
'''
MATRIX3_C = '''
# A 3-qubit unitary (the DFT matrix built with numpy) as a cirq.MatrixGate, undone by cirq.qft inverse.
import numpy as np
import cirq

N = 8
omega = np.exp(2j * np.pi / N)
F = np.array([[omega ** (j * k) for k in range(N)] for j in range(N)]) / np.sqrt(N)
q = cirq.LineQubit.range(3)
circuit = cirq.Circuit(
    cirq.X(q[0]),
    cirq.X(q[2]),  # |5⟩ big-endian
    cirq.MatrixGate(F).on(*q),
    cirq.qft(*q, inverse=True),
    cirq.measure(*q, key="m"),
)
'''
write("hhl_matrix_gates", "unitary_3q_dft", MATRIX3_Q, MATRIX3_C, "analytic: F is exactly the QFT matrix in each framework's own index order, so QFT†·F = I and |5⟩ is read with p = 1", point("101"), cirq_bits="reversed")

# ---------------------------------------------------------------- more shapes: recursion, Diagonal
QFT_Q_RECURSIVE = """
# The Qiskit textbook's recursive QFT, used to read a number written in the Fourier basis.
from numpy import pi
from qiskit import QuantumCircuit


def qft_rotations(circuit, n):
    if n == 0:  # exit the function if the circuit is empty
        return circuit
    n -= 1  # indexes start from 0
    circuit.h(n)  # apply the H-gate to the most significant qubit
    for qubit in range(n):
        circuit.cp(pi / 2 ** (n - qubit), qubit, n)
    qft_rotations(circuit, n)


def swap_registers(circuit, n):
    for qubit in range(n // 2):
        circuit.swap(qubit, n - qubit - 1)
    return circuit


def qft(circuit, n):
    qft_rotations(circuit, n)
    swap_registers(circuit, n)
    return circuit


def inverse_qft(circuit, n):
    qft_circ = qft(QuantumCircuit(n), n)
    invqft_circ = qft_circ.inverse()
    circuit.append(invqft_circ, circuit.qubits[:n])
    return circuit.decompose()


nqubits = $n
number = $value
qc = QuantumCircuit(nqubits)
for qubit in range(nqubits):
    qc.h(qubit)
for qubit in range(nqubits):
    qc.p(number * pi / 2 ** (nqubits - 1 - qubit), qubit)
qc = inverse_qft(qc, nqubits)
qc.measure_all()
"""
QFT_C_RECURSIVE = """
# A recursive QFT (little-endian like Qiskit's), inverted with cirq.inverse, reading a number
# written in the Fourier basis.
import numpy as np
import cirq


def qft_rotations(qubits):
    if len(qubits) == 0:
        return []
    last, rest = qubits[-1], qubits[:-1]
    ops = [cirq.H(last)]
    ops += [cirq.CZ(q, last) ** (1 / 2 ** (len(rest) - i)) for i, q in enumerate(rest)]
    return ops + qft_rotations(rest)


def qft(qubits):
    n = len(qubits)
    return qft_rotations(qubits) + [cirq.SWAP(qubits[i], qubits[n - i - 1]) for i in range(n // 2)]


nqubits = $n
number = $value
q = cirq.LineQubit.range(nqubits)
circuit = cirq.Circuit(cirq.H.on_each(*q))
circuit.append(cirq.ZPowGate(exponent=number / 2 ** (nqubits - 1 - i)).on(q[i]) for i in range(nqubits))
circuit.append(cirq.inverse(qft(q)))
circuit.append(cirq.measure(*q, key="m"))
"""
for name, n, value in (("qft_recursive_3q_5", 3, 5), ("qft_recursive_4q_11", 4, 11)):
    write("qft_qpe", name, QFT_Q_RECURSIVE, QFT_C_RECURSIVE, f"analytic: H then P(x·π/2^(n−1−j)) on qubit j writes QFT|x⟩ (x = {value}); the inverse QFT reads x with p = 1", point(bits(value, n)), n=n, value=value)

GROVER_Q_DIAGONAL = """
# Grover with the oracle as a Diagonal gate (±1 entries, index little-endian) and the diffuser
# as the Diagonal of the zero reflection between Hadamard layers.
import math
from qiskit import QuantumCircuit
from qiskit.circuit.library import Diagonal


def oracle(n, marked):
    entries = [1] * 2**n
    entries[int(marked, 2)] = -1
    return Diagonal(entries)


def diffuser(n):
    qc = QuantumCircuit(n, name="diffuser")
    qc.h(range(n))
    qc.append(Diagonal([1] + [-1] * (2**n - 1)), range(n))
    qc.h(range(n))
    return qc


def grover(marked="$marked"):
    n = len(marked)
    qc = QuantumCircuit(n)
    qc.h(range(n))
    for _ in range(math.floor(math.pi / 4 * math.sqrt(2**n))):
        qc.append(oracle(n, marked), range(n))
        qc.compose(diffuser(n), inplace=True)
    qc.measure_all()
    return qc
"""
GROVER_C_DIAGONAL = """
# Grover with the oracle as cirq.DiagonalGate (angles π on the marked index; Cirq's index is
# big-endian: qubit 0 is the most significant bit).
import math
import numpy as np
import cirq


def grover(marked_big_endian="$marked_be"):
    n = len(marked_big_endian)
    q = cirq.LineQubit.range(n)
    angles = [0.0] * 2**n
    angles[int(marked_big_endian, 2)] = np.pi
    zero_reflection = [np.pi] * 2**n
    zero_reflection[0] = 0.0
    circuit = cirq.Circuit(cirq.H.on_each(*q))
    for _ in range(math.floor(math.pi / 4 * math.sqrt(2**n))):
        circuit.append(cirq.DiagonalGate(angles).on(*q))
        circuit.append([cirq.H.on_each(*q), cirq.DiagonalGate(zero_reflection).on(*q), cirq.H.on_each(*q)])
    circuit.append(cirq.measure(*q, key="m"))
    return circuit
"""
for name, marked in (("grover_diagonal_3q_110", "110"), ("grover_diagonal_4q_0111", "0111")):
    n = len(marked)
    r = math.floor(math.pi / 4 * math.sqrt(2 ** n))
    write("grover", name, GROVER_Q_DIAGONAL, GROVER_C_DIAGONAL, f"analytic: one marked item of N = 2^{n}, r = {r}: p(marked) = sin²((2r+1)θ), sin θ = 1/√N; the rest uniform. The Cirq program names the same marked state by its big-endian index (same qubits, same bits)", grover_dist(n, {marked}, r), marked=marked, marked_be=marked[::-1])

print(COUNT, "programs")
