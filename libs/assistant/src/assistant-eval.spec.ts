/**
 * The assistant eval (bench/assistant-eval, `npm run eval:assistant`) in small: the grader accepts
 * hand-written correct answers and refuses wrong ones (so its expected values are right), and the
 * offline engine passes a dozen of its tasks with every "checked" claim true.
 */
import { gradeAnswer } from '../../../bench/assistant-eval/grader.js';
import { EVAL_TASKS } from '../../../bench/assistant-eval/tasks.js';
import { KnowledgeBase } from './knowledge-base.js';
import { answerOffline } from './offline-engine.js';

const task = (id: string) => {
  const found = EVAL_TASKS.find((t) => t.id === id);
  if (!found) throw new Error(`no eval task ${id}`);
  return found;
};
const fence = (code: string) => `Here it is:\n\n\`\`\`python\n${code}\`\`\`\n`;

const REFERENCE: Record<string, string> = {
  'grover-00-scaffold-q': `from qiskit import QuantumCircuit

def grover_search_oracle_00():
    qc = QuantumCircuit(2, 2)
    qc.h([0, 1])
    qc.x([0, 1])
    qc.cz(0, 1)
    qc.x([0, 1])
    qc.h([0, 1])
    qc.x([0, 1])
    qc.cz(0, 1)
    qc.x([0, 1])
    qc.h([0, 1])
    qc.measure([0, 1], [0, 1])
    return qc
`,
  'qft3-unitary-q': `from qiskit import QuantumCircuit
import numpy as np

qc = QuantumCircuit(3)
for j in reversed(range(3)):
    qc.h(j)
    for k in reversed(range(j)):
        qc.cp(np.pi / 2 ** (j - k), k, j)
qc.swap(0, 2)
`,
  'simon-110-c': `import cirq

q = cirq.LineQubit.range(6)
c = cirq.Circuit()
c.append(cirq.H.on_each(*q[:3]))
for i in range(3):
    c.append(cirq.CNOT(q[i], q[i + 3]))
c.append(cirq.CNOT(q[0], q[3]))
c.append(cirq.CNOT(q[0], q[4]))
c.append(cirq.H.on_each(*q[:3]))
c.append(cirq.measure(*q[:3], key='y'))
`,
  'qaoa-triangle-q': `from qiskit import QuantumCircuit

qc = QuantumCircuit(3)
qc.h([0, 1, 2])
for a, b in [(0, 1), (1, 2), (0, 2)]:
    qc.rzz(0.8, a, b)
for q in range(3):
    qc.rx(0.6, q)
qc.measure_all()
`,
  'u-gate-q': `from qiskit import QuantumCircuit
import numpy as np

qc = QuantumCircuit(1)
qc.rz(np.pi / 3, 0)
qc.ry(np.pi / 2, 0)
qc.rz(np.pi / 4, 0)
`,
  'teleport-ry-c': `import cirq
import numpy as np

q0, q1, q2 = cirq.LineQubit.range(3)
circuit = cirq.Circuit([
    cirq.ry(np.pi / 3)(q0),
    cirq.H(q1), cirq.CNOT(q1, q2),
    cirq.CNOT(q0, q1), cirq.H(q0),
    cirq.CNOT(q1, q2), cirq.CZ(q0, q2),
    cirq.measure(q2, key='bob'),
])
`,
  'cnot-from-cz-c': `import cirq

a, b = cirq.LineQubit.range(2)
circuit = cirq.Circuit([cirq.H(b), cirq.CZ(a, b), cirq.H(b)])
`,
  'bv-param-q': `from qiskit import QuantumCircuit

def bernstein_vazirani(secret: str) -> QuantumCircuit:
    n = len(secret)
    qc = QuantumCircuit(n + 1, n)
    qc.x(n)
    qc.h(range(n + 1))
    for i, bit in enumerate(reversed(secret)):
        if bit == '1':
            qc.cx(i, n)
    qc.h(range(n))
    qc.measure(range(n), range(n))
    return qc
`,
  'qpe-t-q': `from qiskit import QuantumCircuit
import numpy as np

qc = QuantumCircuit(4, 3)
qc.x(3)
qc.h([0, 1, 2])
for j in range(3):
    qc.cp(np.pi / 4 * 2 ** j, j, 3)
qc.swap(0, 2)
for j in range(3):
    for k in range(j):
        qc.cp(-np.pi / 2 ** (j - k), k, j)
    qc.h(j)
qc.measure([0, 1, 2], [0, 1, 2])
`,
  'chsh-c': `import cirq
import numpy as np

a, b = cirq.LineQubit.range(2)
circuit = cirq.Circuit([cirq.H(a), cirq.CNOT(a, b), cirq.ry(-np.pi / 2)(a), cirq.ry(-np.pi / 4)(b), cirq.measure(a, b, key='m')])
`,
  'ising2-trotter-q': `from qiskit import QuantumCircuit

qc = QuantumCircuit(2)
dt = 0.1
for _ in range(10):
    qc.rzz(2 * dt, 0, 1)
    qc.rx(2 * 0.5 * dt, 0)
    qc.rx(2 * 0.5 * dt, 1)
`,
  'basis-110-c': `import cirq

q = cirq.LineQubit.range(3)
circuit = cirq.Circuit([cirq.X(q[0]), cirq.X(q[1]), cirq.measure(*q, key='m')])
`,
};

describe('assistant eval grader', () => {
  it.each(Object.entries(REFERENCE))('accepts a correct answer to %s', (id, code) => {
    expect(gradeAnswer(task(id), fence(code))).toMatchObject({ pass: true });
  });

  it('refuses a circuit in another framework, a missing scaffold function, and a wrong distribution', () => {
    expect(gradeAnswer(task('teleport-ry-c'), fence(REFERENCE['qaoa-triangle-q']))).toMatchObject({ pass: false, wrongFramework: true });
    expect(gradeAnswer(task('grover-00-scaffold-q'), fence(REFERENCE['qaoa-triangle-q'])).reason).toBe('does not define grover_search_oracle_00()');
    expect(gradeAnswer(task('qaoa-triangle-q'), fence(REFERENCE['qaoa-triangle-q'].replace('qc.rx(0.6', 'qc.rx(1.6'))).pass).toBe(false);
    expect(
      gradeAnswer(task('cnot-from-cz-c'), fence('import cirq\n\na, b = cirq.LineQubit.range(2)\ncircuit = cirq.Circuit([cirq.CNOT(a, b)])\n')).reason,
    ).toMatch(/outside the allowed cz, h/);
  });
});

/** A dozen eval tasks the offline engine answers: scaffolds, Cirq order, named gates, measurement claims, a question when unclear. */
const SAMPLE = [
  'grover-00-scaffold-q',
  'grover-10-scaffold-c',
  'bell-scaffold-q',
  'ghz-scaffold-q',
  'qft3-unitary-q',
  'dj-four-query-q',
  'qpe-pauli-x-q',
  'grover-000-one-iter-q',
  'teleport-ry-c',
  'adder-2-3-q',
  'grover-param-q',
  'mixed-teleport-grover-c',
];

describe('offline engine on a sample of the eval', () => {
  const knowledge = new KnowledgeBase([]);
  it.each(SAMPLE)('%s passes', (id) => {
    const t = task(id);
    const answer = answerOffline([{ role: 'user', content: t.prompt }], { codeMode: 'inline', knowledge });
    const grade = gradeAnswer(t, answer.text);
    expect(grade.reason).toBeUndefined();
    expect(grade.pass).toBe(true);
  });
});
