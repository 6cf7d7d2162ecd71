import { CircuitError } from '../errors.js';
import { parseCircuit } from '../convert.js';
import { MAX_CALL_DEPTH, MAX_LOOP_ITERATIONS } from '../limits.js';
import { simulate } from '../simulator/simulate.js';
import { parseCirq } from './cirq.parser.js';
import { parseQiskit } from './qiskit.parser.js';
import { parsePython } from './python-parser.js';
import { PyEvaluator } from './python-eval.js';
import type { PyObject, PyValue } from './python-objects.js';
import { pyRepr } from './python-values.js';

function errorOf(fn: () => unknown): CircuitError {
  try {
    fn();
  } catch (error) {
    if (error instanceof CircuitError) return error;
    throw error;
  }
  throw new Error('expected a CircuitError');
}

/** Exact outcome probabilities (statevector), rounded, zero entries dropped. */
function probabilities(circuit: ReturnType<typeof parseQiskit>): Record<string, number> {
  const r = simulate(circuit, { method: 'statevector', shots: 1, seed: 1 });
  const out: Record<string, number> = {};
  r.statevector!.forEach(([re, im], i) => {
    const p = re * re + im * im;
    if (p > 1e-9) out[i.toString(2).padStart(circuit.numQubits, '0')] = Math.round(p * 1e6) / 1e6;
  });
  return out;
}

/** Counts of a measured circuit with a fixed seed (deterministic circuits: one outcome). */
const counts = (circuit: ReturnType<typeof parseQiskit>, shots = 100) => simulate(circuit, { shots, seed: 7 }).counts;

/** A bare evaluator (no front end): runs the setup and answers repr(expr). */
class BareEvaluator extends PyEvaluator {
  protected importModule(): PyValue | undefined {
    return undefined;
  }
  protected importName(): PyValue | undefined {
    return undefined;
  }
  protected objectAttr(obj: PyObject, name: string, line: number): PyValue {
    throw new CircuitError('unsupported', `${obj.kind}.${name}`, line);
  }
  protected callObject(obj: PyObject, _a: PyValue[], _k: Map<string, PyValue>, line: number): PyValue {
    throw new CircuitError('semantic', `${obj.kind} is not callable`, line);
  }
  result(): PyValue {
    return this.lookup('result', 0);
  }
}

function value(setup: string, expr: string): string {
  const ev = new BareEvaluator();
  ev.run(parsePython(`${setup}\nresult = ${expr}\n`));
  return pyRepr(ev.result());
}

describe('Python evaluator: functions and the entry point', () => {
  it('def bell() -> QuantumCircuit returning a circuit is the program circuit and simulates to the Bell state', () => {
    const c = parseQiskit(`
from qiskit import QuantumCircuit

def bell() -> QuantumCircuit:
    """Prepare (|00> + |11>)/sqrt(2)."""
    qc = QuantumCircuit(2)
    qc.h(0)
    qc.cx(0, 1)
    return qc
`);
    expect(probabilities(c)).toEqual({ '00': 0.5, '11': 0.5 });
  });

  it('Bernstein–Vazirani with an oracle helper looping over enumerate(s) recovers the secret', () => {
    const source = (secret: string) => `
from qiskit import QuantumCircuit

def oracle(qc: QuantumCircuit, s: str) -> None:
    n = len(s)
    for i, bit in enumerate(reversed(s)):
        if bit == '1':
            qc.cx(i, n)

def bernstein_vazirani(s: str = '${secret}') -> QuantumCircuit:
    n = len(s)
    qc = QuantumCircuit(n + 1, n)
    qc.x(n)
    qc.h(range(n + 1))
    qc.barrier()
    oracle(qc, s)
    qc.barrier()
    qc.h(range(n))
    qc.measure(range(n), range(n))
    return qc
`;
    for (const secret of ['1011', '0110', '111000']) expect(counts(parseQiskit(source(secret)))).toEqual({ [secret]: 100 });
  });

  it('Grover on 3 qubits with oracle and diffuser helpers finds the marked state', () => {
    const c = parseQiskit(`
import math
from qiskit import QuantumCircuit

def phase_oracle(qc, marked):
    n = qc.num_qubits
    bits = format(marked, f'0{n}b')
    zeros = [q for q, b in enumerate(reversed(bits)) if b == '0']
    for q in zeros:
        qc.x(q)
    qc.h(n - 1)
    qc.mcx(list(range(n - 1)), n - 1)
    qc.h(n - 1)
    for q in zeros:
        qc.x(q)

def diffuser(qc):
    n = qc.num_qubits
    qc.h(range(n))
    qc.x(range(n))
    qc.h(n - 1)
    qc.mcx(list(range(n - 1)), n - 1)
    qc.h(n - 1)
    qc.x(range(n))
    qc.h(range(n))

def grover(n=3, marked=0b101):
    qc = QuantumCircuit(n)
    qc.h(range(n))
    iterations = math.floor(math.pi / 4 * math.sqrt(2 ** n))
    for _ in range(iterations):
        phase_oracle(qc, marked)
        diffuser(qc)
    return qc
`);
    const p = probabilities(c);
    expect(p['101']).toBeCloseTo(0.945313, 5);
  });

  it("top-level code that calls the functions keeps today's rule: the circuit last built or changed", () => {
    const c = parseQiskit(`
from qiskit import QuantumCircuit
def ghz(n):
    qc = QuantumCircuit(n, n)
    qc.h(0)
    for i in range(n - 1):
        qc.cx(i, i + 1)
    return qc

def measure_all_bits(qc):
    qc.measure(range(qc.num_qubits), range(qc.num_qubits))

if __name__ == "__main__":
    circuit = ghz(3)
    measure_all_bits(circuit)
    print(circuit)
`);
    expect(Object.keys(counts(c, 200)).sort()).toEqual(['000', '111']);
  });

  it('functions returning gates, lists and sub-circuits; keyword and default arguments; nested helpers', () => {
    const c = parseQiskit(`
from qiskit import QuantumCircuit
from qiskit.circuit.library import XGate

def layer(n, *, angle=0.5, gate=None):
    sub = QuantumCircuit(n)
    for q in range(n):
        sub.ry(angle * (q + 1), q)
    if gate is not None:
        sub.append(gate, [0])
    return sub

def pairs(n):
    return [(i, i + 1) for i in range(n - 1)]

def make(n=3):
    qc = QuantumCircuit(n)
    qc.compose(layer(n, gate=XGate(), angle=0.25), inplace=True)
    for a, b in pairs(n):
        qc.cz(a, b)
    return qc
`);
    expect(c.ops.map((o) => (o.kind === 'gate' ? `${o.name} ${o.qubits.join(',')}` : o.kind))).toEqual(['ry 0', 'ry 1', 'ry 2', 'x 0', 'cz 0,1', 'cz 1,2']);
  });

  it('recursion builds a QFT; too deep a recursion is a 422 naming the recursion depth limit', () => {
    const qft = parseQiskit(`
import math
from qiskit import QuantumCircuit

def qft_rotations(circuit, n):
    if n == 0:
        return circuit
    n -= 1
    circuit.h(n)
    for qubit in range(n):
        circuit.cp(math.pi / 2 ** (n - qubit), qubit, n)
    qft_rotations(circuit, n)

def qft(n=3):
    qc = QuantumCircuit(n)
    qc.x(0)
    qft_rotations(qc, n)
    return qc
`);
    // QFT of |001> (without the final swaps): every outcome has probability 1/8.
    expect(Object.values(probabilities(qft))).toEqual(Array(8).fill(0.125));
    const e = errorOf(() => parseQiskit(`from qiskit import QuantumCircuit\ndef f(n):\n    return f(n + 1)\nqc = QuantumCircuit(1)\nf(0)`));
    expect(e.kind).toBe('limit');
    expect(e.message).toBe(`line 3: calls may be nested at most ${MAX_CALL_DEPTH} deep (the recursion depth limit); f() goes deeper`);
  });

  it('recursion just inside the depth limit works', () => {
    const c = parseQiskit(
      `from qiskit import QuantumCircuit\ndef depth(n):\n    return 0 if n == 0 else 1 + depth(n - 1)\nqc = QuantumCircuit(depth(${MAX_CALL_DEPTH - 1}))`,
    );
    expect(c.numQubits).toBe(MAX_CALL_DEPTH - 1);
  });

  it('while True without break is a 422 naming the loop iteration limit; while with break/continue runs', () => {
    const e = errorOf(() => parseQiskit('from qiskit import QuantumCircuit\nqc = QuantumCircuit(1)\nx = 0\nwhile True:\n    x += 1\n'));
    expect(e.kind).toBe('limit');
    expect(e.message).toBe(`line 4: the while loop runs more than ${MAX_LOOP_ITERATIONS} iterations (the loop iteration limit)`);
    const c = parseQiskit(`
from qiskit import QuantumCircuit
qc = QuantumCircuit(4)
k = 0
while True:
    k += 1
    if k % 2 == 0:
        continue
    if k > 6:
        break
    qc.h(k // 2)
else:
    qc.x(0)
`);
    expect(c.ops.map((o) => (o.kind === 'gate' ? `${o.name} ${o.qubits}` : ''))).toEqual(['h 0', 'h 1', 'h 2']);
  });

  it('several circuit-returning functions: 422 listing the candidates; entry_point selects one', () => {
    const source = `
from qiskit import QuantumCircuit

def bell():
    qc = QuantumCircuit(2)
    qc.h(0)
    qc.cx(0, 1)
    return qc

def ghz(n=3):
    qc = QuantumCircuit(n)
    qc.h(0)
    for i in range(n - 1):
        qc.cx(i, i + 1)
    return qc

def helper(qc, k):
    return qc

def main():
    qc = bell()
    print(qc)
`;
    const e = errorOf(() => parseQiskit(source));
    expect(e.message).toBe(
      'the source builds no QuantumCircuit at top level and several functions return one: bell(), ghz(); name the one to use with entry_point',
    );
    expect(probabilities(parseQiskit(source, { entryPoint: 'ghz' }))).toEqual({ '000': 0.5, '111': 0.5 });
    expect(parseQiskit(source, { entryPoint: 'bell' }).numQubits).toBe(2);
    expect(errorOf(() => parseQiskit(source, { entryPoint: 'qft' })).message).toBe(
      "entry_point 'qft' is not a function defined at module level; functions found: bell(), ghz(), helper(), main()",
    );
    expect(errorOf(() => parseQiskit(source, { entryPoint: 'helper' })).message).toMatch(
      /line 17: entry_point helper\(\) needs arguments \(qc, k\); give them with entry_point_args/,
    );
    expect(errorOf(() => parseQiskit(source, { entryPoint: 'main' })).message).toBe('line 20: entry_point main() returns None, not a QuantumCircuit');
  });

  it('entry_point wins over a circuit built at top level; parseCircuit passes it through and refuses it for OpenQASM', () => {
    const source = 'from qiskit import QuantumCircuit\ntop = QuantumCircuit(1)\ntop.x(0)\ndef other():\n    qc = QuantumCircuit(3)\n    return qc\n';
    expect(parseCircuit(source).circuit.numQubits).toBe(1);
    expect(parseCircuit(source, { entryPoint: 'other' }).circuit.numQubits).toBe(3);
    expect(errorOf(() => parseCircuit('OPENQASM 2.0;\nqreg q[1];\n', { entryPoint: 'main' })).message).toMatch(
      /entry_point 'main' names a Python function, but the source is OpenQASM 2/,
    );
  });

  it('entry_point_args call the entry point with JSON arguments, by position or by name (lists and dicts included)', () => {
    const source = `from qiskit import QuantumCircuit
def bv(secret, measure=True, extra=None):
    n = len(secret)
    qc = QuantumCircuit(n + 1, n)
    for i, bit in enumerate(reversed(secret)):
        if bit == '1':
            qc.x(i)
    if extra:
        for q in extra['flip']:
            qc.x(q)
    if measure:
        qc.measure(range(n), range(n))
    return qc
`;
    expect(probabilities(parseQiskit(source, { entryPoint: 'bv', entryPointArgs: ['011'] }))).toEqual({ '0011': 1 });
    expect(probabilities(parseQiskit(source, { entryPoint: 'bv', entryPointArgs: { secret: '10', extra: { flip: [0] } } }))).toEqual({ '011': 1 });
    expect(errorOf(() => parseQiskit(source, { entryPoint: 'bv' })).message).toMatch(/entry_point bv\(\) needs arguments \(secret\)/);
    expect(errorOf(() => parseQiskit(source, { entryPointArgs: ['1'] })).message).toBe('entry_point_args needs an entry_point (the function to call)');
  });

  it('a Qiskit entry point may return a Gate (to_gate) or a unitary matrix: it is wrapped in a circuit on qubits 0…k−1', () => {
    const source = `from qiskit import QuantumCircuit
import numpy as np
def oracle():
    qc = QuantumCircuit(2)
    qc.x(0)
    qc.cx(0, 1)
    return qc.to_gate()
def flip():
    return np.array([[0, 1], [1, 0]])
def answer():
    return 42
`;
    expect(probabilities(parseQiskit(source, { entryPoint: 'oracle' }))).toEqual({ '11': 1 });
    expect(probabilities(parseQiskit(source, { entryPoint: 'flip' }))).toEqual({ '1': 1 });
    expect(errorOf(() => parseQiskit(source, { entryPoint: 'answer' })).message).toBe('line 10: entry_point answer() returns int, not a QuantumCircuit');
  });

  it('scipy.linalg.expm of a small matrix (from scipy.linalg import expm, or import scipy.linalg)', () => {
    const source = `from qiskit import QuantumCircuit
from qiskit.circuit.library import UnitaryGate
import numpy as np
import scipy.linalg
from scipy.linalg import expm
X = np.array([[0, 1], [1, 0]])
qc = QuantumCircuit(2)
qc.append(UnitaryGate(expm(-1j * np.pi / 2 * X)), [0])
qc.append(UnitaryGate(scipy.linalg.expm(-1j * np.pi / 4 * X)), [1])
`;
    // exp(−iπ/2·X) = −iX flips qubit 0; exp(−iπ/4·X) = RX(π/2) puts qubit 1 in an equal superposition.
    expect(probabilities(parseQiskit(source))).toEqual({ '01': 0.5, '11': 0.5 });
  });

  it('a function bound under two names is one candidate; entry_point may use either name', () => {
    const source = 'from qiskit import QuantumCircuit\ndef build(n=2):\n    return QuantumCircuit(n)\nmain = build\n';
    expect(parseQiskit(source).numQubits).toBe(2);
    expect(parseQiskit(source, { entryPoint: 'main' }).numQubits).toBe(2);
  });

  it('a single circuit-returning function whose body fails reports that failure with its line', () => {
    const e = errorOf(() => parseQiskit('from qiskit import QuantumCircuit\ndef build(n=2):\n    qc = QuantumCircuit(n)\n    qc.h(n)\n    return qc\n'));
    expect(e.message).toBe('line 4: qubit index 2 is out of range (the circuit has 2)');
  });

  it('post-processing of run results (counts) is read and changes nothing; typing and itertools are available', () => {
    const c = parseQiskit(`
from __future__ import annotations
from typing import List, Optional
import itertools
from qiskit import QuantumCircuit, transpile
from qiskit_aer import AerSimulator

def build(bits: List[int], label: Optional[str] = None) -> QuantumCircuit:
    qc = QuantumCircuit(len(bits))
    for q, b in enumerate(bits):
        if b:
            qc.x(q)
    for a, b in itertools.combinations(range(len(bits)), 2):
        qc.cz(a, b)
    qc.measure_all()
    return qc

qc = build([1, 0, 1])
sim = AerSimulator()
counts = sim.run(transpile(qc, sim), shots=1024).result().get_counts()
most = max(counts, key=counts.get)
if most == '101':
    print("found", most)
for state, n in sorted(counts.items()):
    print(f"{state}: {n / 1024:.3f}")
first, *rest = counts
assert counts['101'] > 900
`);
    expect(c.ops.filter((o) => o.kind === 'gate').map((o) => (o.kind === 'gate' ? `${o.name} ${o.qubits}` : ''))).toEqual([
      'x 0',
      'x 2',
      'cz 0,1',
      'cz 0,2',
      'cz 1,2',
    ]);
    expect(counts(c)).toEqual({ '101': 100 });
    expect(value('import itertools', "[''.join(map(str, t)) for t in itertools.product([0, 1], repeat=2)]")).toBe("['00', '01', '10', '11']");
  });

  it('Cirq generator functions (yield, yield from) build operation trees; measurement keys from f-strings', () => {
    const c = parseCirq(`
import cirq

def qft(qubits):
    n = len(qubits)
    for i in range(n):
        yield cirq.H(qubits[i])
        for j in range(i + 1, n):
            yield (cirq.CZ ** (1 / 2 ** (j - i))).on(qubits[j], qubits[i])
    yield from (cirq.SWAP(qubits[i], qubits[n - 1 - i]) for i in range(n // 2))

def measure_each(qubits):
    for i, q in enumerate(qubits):
        yield cirq.measure(q, key=f"m{i}")

qs = cirq.LineQubit.range(3)
circuit = cirq.Circuit(cirq.X(qs[2]), qft(qs))
`);
    expect(c.ops.filter((o) => o.kind === 'gate').map((o) => (o.kind === 'gate' ? `${o.controls ? 'c' : ''}${o.name}` : ''))).toEqual([
      'x',
      'h',
      'cs',
      'ct',
      'h',
      'cs',
      'h',
      'swap',
    ]);
    expect(Object.values(probabilities(c))).toEqual(Array(8).fill(0.125));
    const m = parseCirq(
      'import cirq\ndef measure_each(qubits):\n    for i, q in enumerate(qubits):\n        yield cirq.measure(q, key=f"m{i}")\nqs = cirq.LineQubit.range(2)\ncircuit = cirq.Circuit(cirq.X(qs[1]), measure_each(qs))\n',
    );
    expect(m.cregs.map((r) => r.name)).toEqual(['m0', 'm1']);
    expect(errorOf(() => parseCirq('import cirq\nx = yield 1\n')).message).toMatch(/line 2: unsupported construct `yield`/);
  });

  it('Cirq: a function returning cirq.Circuit, helpers yielding operation lists, and entry_point', () => {
    const source = `
import cirq

def bell_ops(a, b):
    return [cirq.H(a), cirq.CNOT(a, b)]

def bell_circuit():
    q0, q1 = cirq.LineQubit.range(2)
    circuit = cirq.Circuit(bell_ops(q0, q1))
    circuit.append(cirq.measure(q0, q1, key='m'))
    return circuit

def ghz_circuit(n: int = 3) -> cirq.Circuit:
    qs = cirq.LineQubit.range(n)
    c = cirq.Circuit([cirq.H(qs[0])] + [cirq.CNOT(qs[i], qs[i + 1]) for i in range(n - 1)])
    return c
`;
    expect(errorOf(() => parseCirq(source)).message).toMatch(/several functions return one: bell_circuit\(\), ghz_circuit\(\)/);
    const bell = parseCirq(source, { entryPoint: 'bell_circuit' });
    expect(bell.numQubits).toBe(2);
    expect(Object.keys(counts(bell, 200)).sort()).toEqual(['00', '11']);
    expect(probabilities(parseCirq(source, { entryPoint: 'ghz_circuit' }))).toEqual({ '000': 0.5, '111': 0.5 });
  });
});

describe('Python evaluator: statements and expressions', () => {
  it.each([
    ['', '7 // 2 + 7 % 3 + 2 ** 3', '12'],
    ['', '-7 // 2', '-4'],
    ['', '(5 ^ 3) + (6 & 3) + (4 | 1) + (1 << 40 >> 38) + ~0', '16'],
    ['', "bin(5) + '_' + format(5, '06b') + '_' + f'{5:04b}'", "'0b101_000101_0101'"],
    ['n = 4\ni = 3', "f'{i:0{n}b}' + '{:0{}b}'.format(i, n) + '{0:b}'.format(6)", "'00110011110'"],
    ['', "'q%d_%s_%03d' % (1, 'x', 7)", "'q1_x_007'"],
    ['', "int('1011', 2) + int('ff', 16) + int(3.9) + int('-4')", '265'],
    ['', 'round(2.5) + round(3.5) + round(0.125, 2) * 100', '18'],
    ['', '1 < 2 < 3 and not 3 < 2 < 1', 'True'],
    ['', "'a' in 'cat' and 2 not in [1, 3] and 3 in (1, 3) and 'k' in {'k': 1}", 'True'],
    ['', 'None is None and 1 is not None', 'True'],
    ['', "0 or '' or 'fallback'", "'fallback'"],
    ['', '1 and 0', '0'],
    ['', "'yes' if 2 > 1 else 'no'", "'yes'"],
    ['xs = [3, 1, 2]', 'sorted(xs, reverse=True) + [min(xs), max(xs), sum(xs), len(xs)]', '[3, 2, 1, 1, 3, 6, 3]'],
    ['words = ["bb", "a", "ccc"]', 'sorted(words, key=lambda w: len(w))', "['a', 'bb', 'ccc']"],
    ['', 'max([(1, "a"), (3, "b"), (2, "c")], key=lambda t: t[0])[1]', "'b'"],
    ['', 'any(x > 2 for x in range(4)) and all(x < 4 for x in range(4))', 'True'],
    ['', '[x * y for x in range(3) if x for y in (10, 20)]', '[10, 20, 20, 40]'],
    ['', 'sum(1 for c in "10110" if c == "1")', '3'],
    ['d = {"a": 1}\nd["b"] = 2\nd.update(c=3)', 'sorted(d.items())', "[('a', 1), ('b', 2), ('c', 3)]"],
    ['', '{k: v * v for k, v in zip("ab", [2, 3])}', "{'a': 4, 'b': 9}"],
    ['a, *rest = [1, 2, 3, 4]', 'rest', '[2, 3, 4]'],
    ['(a, b), c = (1, 2), 3', 'a + b + c', '6'],
    ['xs = list(range(10))', 'xs[::3] + xs[-2:] + [xs[-1]]', '[0, 3, 6, 9, 8, 9, 9]'],
    ['s = "101100"', 's[::-1] + s[1:3]', "'00110101'"],
    ['xs = [1, 2]\nxs.append(3)\nxs.extend([4, 5])\nxs.insert(0, 0)\nxs.pop()\nxs.remove(2)', 'xs', '[0, 1, 3, 4]'],
    ['x = 5\nx //= 2\nx **= 3\nx %= 5\nx <<= 2\nx |= 1', 'x', '13'],
    ['total = 0\nfor i in range(10):\n    if i == 7:\n        break\n    if i % 2:\n        continue\n    total += i\nelse:\n    total = -1', 'total', '12'],
    ['', "divmod(17, 5)[0] + abs(-2) + pow(3, 4, 5) + len('abc')", '9'],
    ['', '"-".join(str(b) for b in [1, 0, 1]) + "_" + "x".upper() + "ab".zfill(4)', "'1-0-1_X00ab'"],
    ['', 'list(map(lambda a, b: a + b, [1, 2], [10, 20])) + list(filter(None, [0, 1, 2]))', '[11, 22, 1, 2]'],
    ['', 'isinstance(3, int) and isinstance("s", (int, str)) and not isinstance(2.5, int)', 'True'],
    ['', "hex(255) + oct(8) + chr(ord('a') + 1)", "'0xff0o10b'"],
    ['g = 1\ndef bump():\n    global g\n    g += 1\nbump()\nbump()', 'g', '3'],
    ['def counter():\n    n = 0\n    def inc():\n        nonlocal n\n        n += 1\n        return n\n    inc()\n    return inc()', 'counter()', '2'],
    ['def f(a, b=2, *args, c=3, **kw):\n    return a + b + sum(args) + c + len(kw)', 'f(1) + f(1, 1, 1, 1, c=0, x=9, y=8)', '12'],
    ['def f(**kw):\n    return kw["a"]\nopts = {"a": 4}', 'f(**opts)', '4'],
    ['n: int = 3\nassert n == 3, "n must be 3"', 'n', '3'],
    ['xs = [1, 2, 3]\ndel xs[0]\nd = {"a": 1, "b": 2}\ndel d["a"]', 'len(xs) + len(d)', '3'],
    ['', '3 / 2', '1.5'],
    [
      's = {3, 1}\ns.add(2)\ns.discard(9)',
      "sorted(s | {7}) + sorted(s & {1, 2}) + sorted(s - {1}) + [len({x % 2 for x in range(5)}), set('0110').issubset({'0', '1'}), 2 in s]",
      '[1, 2, 3, 7, 1, 2, 2, 3, 2, True, True]',
    ],
    ['', 'set()', 'set()'],
    ['', '"%.2f" % 3.14159 + "_" + f"{0.5:.1%}" + "_" + f"{12:>4}" + "_" + f"{7:<3}|"', "'3.14_50.0%_  12_7  |'"],
  ])('%s → %s', (setup, expr, expected) => {
    expect(value(setup, expr)).toBe(expected);
  });

  it('f-strings, format and % build register names', () => {
    const c = parseQiskit(`
from qiskit import QuantumCircuit, QuantumRegister, ClassicalRegister
regs = [QuantumRegister(1, f"q{i}") for i in range(2)] + [QuantumRegister(1, "anc_{}".format(0)), ClassicalRegister(2, "c%d" % 0)]
qc = QuantumCircuit(*regs)
`);
    expect([...c.qregs, ...c.cregs].map((r) => r.name)).toEqual(['q0', 'q1', 'anc_0', 'c0']);
  });

  it.each([
    ['assert 1 == 2, "one is not two"', /line 2: assertion failed: one is not two/],
    ['def f(x):\n    if x < 0:\n        raise ValueError(f"negative: {x}")\nf(-1)', /line 4: the program raises ValueError: negative: -1/],
    ['def f(a, b):\n    return a\nf(1)', /line 4: f\(\) is missing the required argument 'b'/],
    ['def f(a):\n    return a\nf(1, 2)', /f\(\) takes 1 positional argument\(s\) but 2 were given/],
    ['def f(a):\n    return a\nf(b=1)', /f\(\) got an unexpected keyword argument 'b'/],
    ['break', /line 2: 'break' outside a loop/],
    ['return 1', /line 2: 'return' outside a function/],
    ['x = {[1], 2}', /line 2: unhashable type: 'list' cannot be a dict key or set item/],
    ['d = {}\nd["missing"]', /line 3: KeyError: 'missing' is not in the dict/],
    ['x = 1 << 60', /line 2: unsupported construct `<<`: the result 1152921504606846976 is beyond 2\*\*53/],
    ['try:\n    pass\nexcept Exception:\n    pass', /line 2: unsupported construct `try`/],
    ['@decorator\ndef f():\n    pass', /line 2: unsupported construct `decorator`/],
    ["x = f'{1 +}'", /line 2: /],
    ['def f():\n    return undefined_name\nf()', /line 3: name 'undefined_name' is not defined/],
  ])('%s → %s', (body, message) => {
    const e = errorOf(() => parseQiskit(`from qiskit import QuantumCircuit\n${body}\nqc = QuantumCircuit(1)`));
    expect(e.message).toMatch(message);
  });

  it('a list comprehension may not grow past the list limit, and a long range is refused before it is built', () => {
    const e = errorOf(() => parseQiskit('from qiskit import QuantumCircuit\nxs = range(10**9)\n'));
    expect(e.kind).toBe('limit');
    expect(e.message).toMatch(/line 2: range is too long: a list may have at most 2000000 elements/);
    const s = errorOf(() => parseQiskit("from qiskit import QuantumCircuit\ns = 'ab' * 10**8\n"));
    expect(s.message).toMatch(/line 2: a list may have at most 2000000 elements/);
  });

  it('comprehension variables do not leak and function locals do not touch globals', () => {
    expect(value('i = 7\nxs = [i for i in range(3)]\ndef f():\n    i = 100\n    return i\nf()', 'i')).toBe('7');
  });

  it('iter/next hand out items one at a time; a for loop takes the rest; an exhausted iterator is a 422 unless a default is given', () => {
    expect(value('it = iter([1, 2, 3, 4])\na = next(it)\nb = next(it)', '[a, b, [x for x in it], next(it, -1)]')).toBe('[1, 2, [3, 4], -1]');
    expect(value('it = iter(range(2))', '[next(it), next(iter(it))]')).toBe('[0, 1]');
    expect(errorOf(() => value('it = iter([])', 'next(it)')).message).toMatch(/line 2: next\(\): the iterator is exhausted \(StopIteration\)/);
    expect(errorOf(() => value('', 'next([1])')).message).toMatch(/line 2: next\(\) expects an iterator \(from iter\(\)\); got list/);
  });
});
