/**
 * Scaffolds whose function takes the construct's parameter (`ghz(n)`, `grover(marked)`,
 * `bernstein_vazirani(secret)`) get a body that uses it, in Qiskit or Cirq, instead of a circuit
 * fixed to one value. Grover uses ⌊π/(4·asin(2^(−n/2)))⌋ iterations (Nielsen & Chuang eq. 6.15);
 * bitstrings are read in the framework's order (Qiskit: the last character is qubit 0; Cirq: the
 * first is qubit 0).
 */
import type { CircuitTask } from './circuit-task.js';
import type { Scaffold } from './request-form.js';

export interface ParametricFunction {
  code: string;
  /** The argument that reproduces the request, and another one, each with the task it must build. */
  calls: { arg: number | string; task: CircuitTask }[];
}

const QISKIT: Record<'ghz' | 'grover' | 'bernstein-vazirani', (p: string) => string[]> = {
  ghz: (p) => [
    `qc = QuantumCircuit(${p}, ${p})`,
    'qc.h(0)',
    `for i in range(${p} - 1):`,
    '    qc.cx(i, i + 1)',
    `qc.measure(range(${p}), range(${p}))`,
    'return qc',
  ],
  'bernstein-vazirani': (p) => [
    `n = len(${p})`,
    'qc = QuantumCircuit(n + 1, n)',
    'qc.x(n)',
    'qc.h(range(n + 1))',
    `for i, bit in enumerate(reversed(${p})):`,
    "    if bit == '1':",
    '        qc.cx(i, n)',
    'qc.h(range(n))',
    'qc.measure(range(n), range(n))',
    'return qc',
  ],
  grover: (p) => [
    `n = len(${p})`,
    'qc = QuantumCircuit(n, n)',
    'qc.h(range(n))',
    'iterations = max(1, math.floor(math.pi / (4 * math.asin(math.sqrt(1 / 2**n)))))',
    `zeros = [q for q in range(n) if ${p}[n - 1 - q] == '0']`,
    'for _ in range(iterations):',
    '    # oracle: phase flip of the marked state',
    '    for q in zeros:',
    '        qc.x(q)',
    '    qc.h(n - 1)',
    '    qc.mcx(list(range(n - 1)), n - 1)',
    '    qc.h(n - 1)',
    '    for q in zeros:',
    '        qc.x(q)',
    '    # diffuser',
    '    qc.h(range(n))',
    '    qc.x(range(n))',
    '    qc.h(n - 1)',
    '    qc.mcx(list(range(n - 1)), n - 1)',
    '    qc.h(n - 1)',
    '    qc.x(range(n))',
    '    qc.h(range(n))',
    'qc.measure(range(n), range(n))',
    'return qc',
  ],
};

const CIRQ: typeof QISKIT = {
  ghz: (p) => [
    `q = cirq.LineQubit.range(${p})`,
    'circuit = cirq.Circuit()',
    'circuit.append(cirq.H(q[0]))',
    `for i in range(${p} - 1):`,
    '    circuit.append(cirq.CNOT(q[i], q[i + 1]))',
    "circuit.append(cirq.measure(*q, key='m'))",
    'return circuit',
  ],
  'bernstein-vazirani': (p) => [
    `n = len(${p})`,
    'q = cirq.LineQubit.range(n + 1)',
    'circuit = cirq.Circuit()',
    'circuit.append(cirq.X(q[n]))',
    'circuit.append(cirq.H.on_each(*q))',
    `for i, bit in enumerate(${p}):`,
    "    if bit == '1':",
    '        circuit.append(cirq.CNOT(q[i], q[n]))',
    'circuit.append(cirq.H.on_each(*q[:n]))',
    "circuit.append(cirq.measure(*q[:n], key='result'))",
    'return circuit',
  ],
  grover: (p) => [
    `n = len(${p})`,
    'q = cirq.LineQubit.range(n)',
    'circuit = cirq.Circuit()',
    'circuit.append(cirq.H.on_each(*q))',
    'iterations = max(1, math.floor(math.pi / (4 * math.asin(math.sqrt(1 / 2**n)))))',
    `zeros = [q[i] for i in range(n) if ${p}[i] == '0']`,
    'for _ in range(iterations):',
    '    # oracle: phase flip of the marked state',
    '    circuit.append([cirq.X(z) for z in zeros])',
    '    circuit.append(cirq.Z(q[n - 1]).controlled_by(*q[: n - 1]))',
    '    circuit.append([cirq.X(z) for z in zeros])',
    '    # diffuser',
    '    circuit.append(cirq.H.on_each(*q))',
    '    circuit.append(cirq.X.on_each(*q))',
    '    circuit.append(cirq.Z(q[n - 1]).controlled_by(*q[: n - 1]))',
    '    circuit.append(cirq.X.on_each(*q))',
    '    circuit.append(cirq.H.on_each(*q))',
    "circuit.append(cirq.measure(*q, key='result'))",
    'return circuit',
  ],
};

const optimalIterations = (n: number) => Math.max(1, Math.floor(Math.PI / (4 * Math.asin(Math.sqrt(1 / 2 ** n)))));
const cirqOrder = (bits: string, framework: 'qiskit' | 'cirq') => (framework === 'cirq' ? [...bits].reverse().join('') : bits);
const flipFirst = (bits: string) => (bits[0] === '1' ? '0' : '1') + bits.slice(1);

/** The function with a body that uses its one parameter, or undefined when the scaffold and task do not pair up that way. */
export function parametricFunction(task: CircuitTask, framework: 'qiskit' | 'cirq', scaffold: Scaffold): ParametricFunction | undefined {
  if (scaffold.names.length !== 1) return undefined;
  if (task.kind !== 'ghz' && task.kind !== 'grover' && task.kind !== 'bernstein-vazirani') return undefined;
  // The body computes the optimal iteration count; a different stated count keeps the fixed circuit.
  if (task.kind === 'grover' && (task.marked.length !== 1 || (task.iterations !== undefined && task.iterations !== optimalIterations(task.n))))
    return undefined;
  const p = scaffold.names[0];
  const body = (framework === 'qiskit' ? QISKIT : CIRQ)[task.kind](p);
  const doc = scaffold.docstring ? [`    """`, ...scaffold.docstring.split('\n').map((l) => (l ? `    ${l}` : '')), `    """`] : [];
  const imports = framework === 'qiskit' ? ['import math', '', 'from qiskit import QuantumCircuit'] : ['import math', '', 'import cirq'];
  const code = `${[...imports, '', '', `def ${scaffold.name}(${scaffold.params})${scaffold.returns}:`, ...doc, ...body.map((l) => `    ${l}`)].join('\n')}\n`;
  let calls: ParametricFunction['calls'];
  switch (task.kind) {
    case 'ghz':
      calls = [
        { arg: task.n, task },
        { arg: task.n === 2 ? 3 : task.n - 1, task: { ...task, n: task.n === 2 ? 3 : task.n - 1 } },
      ];
      break;
    case 'grover': {
      const other = flipFirst(task.marked[0]);
      calls = [
        { arg: cirqOrder(task.marked[0], framework), task },
        { arg: cirqOrder(other, framework), task: { ...task, marked: [other] } },
      ];
      break;
    }
    case 'bernstein-vazirani': {
      const other = flipFirst(task.secret);
      calls = [
        { arg: cirqOrder(task.secret, framework), task },
        { arg: cirqOrder(other, framework), task: { ...task, secret: other } },
      ];
      break;
    }
  }
  return { code, calls };
}
