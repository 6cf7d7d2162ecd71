/**
 * The assistant eval's task set: circuit-writing requests as people write them (chat phrasings,
 * and Python scaffolds with a docstring and a requirements paragraph), in Qiskit and Cirq, each
 * with what a correct answer's circuit must do. Expected values come from ideal.ts (the
 * algorithms' analysis), never from the assistant. Cirq prompts write kets and bitstrings in Cirq's
 * order (qubit 0 leftmost); grader keys are little-endian (qubit 0 rightmost), hence `cirqBits`.
 */
import type { EvalTask } from './grader.js';
import {
  H,
  allKeys,
  chsh,
  cirqBits,
  controlled,
  diagonal,
  equal,
  evolve,
  expi,
  grover,
  hamiltonian,
  identity,
  one,
  qaoaMaxCut,
  qftMatrix,
  qpe,
  rx,
  ry,
  simonSupport,
  u3,
  type C,
  type Matrix,
} from './ideal.js';

const R = Math.SQRT1_2;

function qiskitScaffold(signature: string, doc: string, requirements?: string): string {
  return `from qiskit import QuantumCircuit\n\ndef ${signature}:\n    """\n    ${doc.split('\n').join('\n    ')}\n    """\n    pass\n${requirements ? `\n${requirements}\n` : ''}`;
}

function cirqScaffold(signature: string, doc: string, requirements?: string): string {
  return `import cirq\n\ndef ${signature}:\n    """\n    ${doc.split('\n').join('\n    ')}\n    """\n${requirements ? `\n${requirements}\n` : ''}`;
}

const SOURCE_ONLY = 'Return only the complete Python source, no explanation.';

const amplitudes = (values: (number | C)[]): C[] => values.map((v) => (typeof v === 'number' ? [v, 0] : v));
const ghz = (n: number) => equal(['0'.repeat(n), '1'.repeat(n)]);
const wState = (n: number) => equal(Array.from({ length: n }, (_, i) => (1 << i).toString(2).padStart(n, '0')));
const range = (n: number, from = 0) => Array.from({ length: n }, (_, i) => from + i);

const X: Matrix = [
  [
    [0, 0],
    [1, 0],
  ],
  [
    [1, 0],
    [0, 0],
  ],
];
const CZ = diagonal([
  [1, 0],
  [1, 0],
  [1, 0],
  [-1, 0],
]);
const SWAP: Matrix = [
  [
    [1, 0],
    [0, 0],
    [0, 0],
    [0, 0],
  ],
  [
    [0, 0],
    [0, 0],
    [1, 0],
    [0, 0],
  ],
  [
    [0, 0],
    [1, 0],
    [0, 0],
    [0, 0],
  ],
  [
    [0, 0],
    [0, 0],
    [0, 0],
    [1, 0],
  ],
];
const ISWAP: Matrix = [
  [
    [1, 0],
    [0, 0],
    [0, 0],
    [0, 0],
  ],
  [
    [0, 0],
    [0, 0],
    [0, 1],
    [0, 0],
  ],
  [
    [0, 0],
    [0, 1],
    [0, 0],
    [0, 0],
  ],
  [
    [0, 0],
    [0, 0],
    [0, 0],
    [1, 0],
  ],
];
function toffoli(): Matrix {
  const m = identity(8);
  m[3][3] = [0, 0];
  m[7][7] = [0, 0];
  m[3][7] = [1, 0];
  m[7][3] = [1, 0];
  return m;
}
const phaseGate = (t: number): Matrix => diagonal([[1, 0], expi(t)]);

export const EVAL_TASKS: EvalTask[] = [
  // ---- named states ----
  {
    id: 'bell-scaffold-q',
    category: 'named-states',
    framework: 'qiskit',
    prompt: qiskitScaffold(
      'bell_state()',
      'Create a quantum circuit that prepares the Bell state |Φ+⟩ = (|00⟩ + |11⟩)/√2\nand measures both qubits.',
      'Requirements: use 2 qubits and 2 classical bits, measure qubit i into classical bit i, and return the QuantumCircuit.',
    ),
    entryPoint: 'bell_state',
    checks: [
      { kind: 'state', amplitudes: amplitudes([R, 0, 0, R]) },
      { kind: 'distribution', ideal: { '00': 0.5, '11': 0.5 } },
    ],
  },
  {
    id: 'singlet-c',
    category: 'named-states',
    framework: 'cirq',
    prompt: 'Write a Cirq circuit that prepares the singlet state (|01⟩ − |10⟩)/√2 on two LineQubits. No measurement please.',
    checks: [{ kind: 'state', amplitudes: amplitudes([0, -R, R, 0]) }],
  },
  {
    id: 'ghz3-q',
    category: 'named-states',
    framework: 'qiskit',
    prompt: 'can you make me a 3 qubit GHZ state in qiskit and measure everything',
    checks: [
      { kind: 'distribution', ideal: ghz(3) },
      { kind: 'state', amplitudes: amplitudes([R, 0, 0, 0, 0, 0, 0, R]) },
    ],
  },
  {
    id: 'ghz-param-c',
    category: 'named-states',
    framework: 'cirq',
    prompt: cirqScaffold(
      'ghz_circuit(n: int = 4) -> cirq.Circuit',
      'Return a circuit on n LineQubits preparing the GHZ state (|0…0⟩ + |1…1⟩)/√2,\nwith all qubits measured under the key "m".',
    ),
    entryPoint: 'ghz_circuit',
    params: ['n'],
    entryPointArgs: [5],
    checks: [{ kind: 'distribution', ideal: ghz(5) }],
  },
  {
    id: 'w3-q',
    category: 'named-states',
    framework: 'qiskit',
    prompt: 'Prepare a 3-qubit W state (|001⟩+|010⟩+|100⟩)/√3 in Qiskit and measure all qubits.',
    checks: [{ kind: 'distribution', ideal: wState(3) }],
  },
  {
    id: 'w4-c',
    category: 'named-states',
    framework: 'cirq',
    prompt: 'I need the 4-qubit W state in cirq, measured at the end.',
    checks: [{ kind: 'distribution', ideal: wState(4) }],
  },
  {
    id: 'phi-minus-q',
    category: 'named-states',
    framework: 'qiskit',
    prompt: 'Prepare |Φ−⟩ = (|00⟩ − |11⟩)/√2 with Qiskit. Do not measure; return the circuit so I can look at the statevector.',
    checks: [{ kind: 'state', amplitudes: amplitudes([R, 0, 0, -R]) }],
  },
  {
    id: 'bell-key-c',
    category: 'named-states',
    framework: 'cirq',
    prompt: 'Cirq: entangle two qubits into a Bell pair and measure both with key "result".',
    checks: [{ kind: 'distribution', ideal: { '00': 0.5, '11': 0.5 } }],
  },
  {
    id: 'uniform3-q',
    category: 'named-states',
    framework: 'qiskit',
    prompt: 'uniform superposition over 3 qubits, measured (qiskit)',
    checks: [{ kind: 'support', outcomes: allKeys(3) }],
  },
  {
    id: 'ghz6-c',
    category: 'named-states',
    framework: 'cirq',
    prompt: 'Build a six-qubit GHZ circuit with cirq and measure all the qubits',
    checks: [{ kind: 'distribution', ideal: ghz(6) }],
  },
  {
    id: 'psi-plus-scaffold-c',
    category: 'named-states',
    framework: 'cirq',
    prompt: cirqScaffold('psi_plus() -> cirq.Circuit', 'Prepare the Bell state |Ψ+⟩ = (|01⟩ + |10⟩)/√2 on two LineQubits and measure both.'),
    entryPoint: 'psi_plus',
    checks: [
      { kind: 'distribution', ideal: { '01': 0.5, '10': 0.5 } },
      { kind: 'state', amplitudes: amplitudes([0, R, R, 0]) },
    ],
  },
  {
    id: 'ghz-scaffold-q',
    category: 'named-states',
    framework: 'qiskit',
    prompt: `${qiskitScaffold('create_ghz_state()', 'Prepare a 4-qubit GHZ state and measure all qubits.\nReturns:\n    QuantumCircuit: the circuit')}\n${SOURCE_ONLY}`,
    entryPoint: 'create_ghz_state',
    checks: [{ kind: 'distribution', ideal: ghz(4) }],
  },

  // ---- arbitrary state preparation ----
  {
    id: 'plus-i-q',
    category: 'state-preparation',
    framework: 'qiskit',
    prompt: 'Prepare the single-qubit state (|0⟩ + i|1⟩)/√2 in qiskit, no measurement.',
    checks: [{ kind: 'state', amplitudes: amplitudes([R, [0, R]]) }],
  },
  {
    id: 'amp-00-11-q',
    category: 'state-preparation',
    framework: 'qiskit',
    prompt: 'Write a Qiskit circuit that prepares sqrt(1/3)|00> + sqrt(2/3)|11> (no measurements).',
    checks: [{ kind: 'state', amplitudes: amplitudes([Math.sqrt(1 / 3), 0, 0, Math.sqrt(2 / 3)]) }],
  },
  {
    id: 'amp-06-08-c',
    category: 'state-preparation',
    framework: 'cirq',
    prompt: 'In Cirq, prepare the state 0.6|0⟩ + 0.8|1⟩ on one qubit.',
    checks: [{ kind: 'state', amplitudes: amplitudes([0.6, 0.8]) }],
  },
  {
    id: 'amp-vector-scaffold-q',
    category: 'state-preparation',
    framework: 'qiskit',
    prompt: qiskitScaffold(
      'prepare_state()',
      'Prepare the 2-qubit state with amplitudes [0.5, 0.5, 0.5, -0.5]\n(ordered as Qiskit orders statevectors, index = 2*q1 + q0).',
      'Requirements: build it from individual gates (no initialize), no measurement, return the QuantumCircuit.',
    ),
    entryPoint: 'prepare_state',
    checks: [{ kind: 'state', amplitudes: amplitudes([0.5, 0.5, 0.5, -0.5]) }],
  },
  {
    id: 'w-ket-c',
    category: 'state-preparation',
    framework: 'cirq',
    prompt: 'cirq circuit for the equal superposition of |001⟩, |010⟩ and |100⟩, measure all qubits',
    checks: [{ kind: 'distribution', ideal: wState(3) }],
  },
  {
    id: 'basis-1011-q',
    category: 'state-preparation',
    framework: 'qiskit',
    prompt: 'Prepare the basis state |1011⟩ in Qiskit (qubit 0 is the rightmost bit) and measure it.',
    checks: [{ kind: 'distribution', ideal: one('1011') }],
  },
  {
    id: 'basis-110-c',
    category: 'state-preparation',
    framework: 'cirq',
    prompt: 'Prepare |110⟩ on three LineQubits in Cirq (q0 = 1, q1 = 1, q2 = 0) and measure.',
    checks: [{ kind: 'distribution', ideal: one(cirqBits('110')) }],
  },
  {
    id: 'minus-plus-q',
    category: 'state-preparation',
    framework: 'qiskit',
    prompt: 'Qiskit: put qubit 0 in |−⟩ and qubit 1 in |+⟩. Return the circuit without measuring.',
    checks: [{ kind: 'state', amplitudes: amplitudes([0.5, -0.5, 0.5, -0.5]) }],
  },
  {
    id: 'three-amp-c',
    category: 'state-preparation',
    framework: 'cirq',
    prompt: 'Using cirq, prepare (|00⟩ + |01⟩ + |10⟩)/√3 on two qubits and measure them both.',
    checks: [{ kind: 'distribution', ideal: equal(['00', cirqBits('01'), cirqBits('10')]) }],
  },
  {
    id: 'ry-state-q',
    category: 'state-preparation',
    framework: 'qiskit',
    prompt: 'Prepare cos(π/8)|0⟩ + sin(π/8)|1⟩ on a single qubit with Qiskit.',
    checks: [{ kind: 'state', amplitudes: amplitudes([Math.cos(Math.PI / 8), Math.sin(Math.PI / 8)]) }],
  },

  // ---- Fourier ----
  {
    id: 'qft3-unitary-q',
    category: 'fourier',
    framework: 'qiskit',
    prompt: 'Write a 3-qubit quantum Fourier transform in Qiskit from H and controlled-phase gates, including the final swaps. No measurement.',
    checks: [{ kind: 'unitary', matrix: qftMatrix(3) }],
  },
  {
    id: 'qft3-scaffold-q',
    category: 'fourier',
    framework: 'qiskit',
    prompt: qiskitScaffold('qft_3()', 'Return the 3-qubit QFT circuit (same convention as qiskit.circuit.library.QFT, with swaps), without measurement.'),
    entryPoint: 'qft_3',
    checks: [{ kind: 'unitary', matrix: qftMatrix(3) }],
  },
  {
    id: 'iqft4-q',
    category: 'fourier',
    framework: 'qiskit',
    prompt: 'Give me the inverse QFT on 4 qubits (Qiskit, swaps included, no measurement).',
    checks: [{ kind: 'unitary', matrix: qftMatrix(4, true) }],
  },
  {
    id: 'qft2-measure-c',
    category: 'fourier',
    framework: 'cirq',
    prompt: 'Apply the quantum Fourier transform to |0000⟩ on 4 qubits in Cirq and measure all qubits.',
    checks: [{ kind: 'support', outcomes: allKeys(4) }],
  },
  {
    id: 'qft-roundtrip-c',
    category: 'fourier',
    framework: 'cirq',
    prompt: 'In Cirq: prepare |101⟩ on 3 qubits, apply the QFT and then the inverse QFT, and measure. I expect to get 101 back.',
    checks: [{ kind: 'distribution', ideal: one('101') }],
  },
  {
    id: 'qft3-measure-q',
    category: 'fourier',
    framework: 'qiskit',
    prompt: 'quantum fourier transform on 3 qubits in qiskit, measure all qubits at the end',
    checks: [{ kind: 'support', outcomes: allKeys(3) }],
  },

  // ---- Grover ----
  {
    id: 'grover-00-scaffold-q',
    category: 'grover',
    framework: 'qiskit',
    prompt: qiskitScaffold(
      'grover_search_oracle_00()',
      'Build a 2-qubit Grover search circuit whose oracle marks the state |00⟩.\nApply one Grover iteration (oracle + diffuser) and measure both qubits.',
      'Requirements: start from the uniform superposition, implement the oracle and the diffuser from individual gates (no library Grover operator), measure qubit i into classical bit i, and return the QuantumCircuit.',
    ),
    entryPoint: 'grover_search_oracle_00',
    checks: [{ kind: 'distribution', ideal: one('00') }],
  },
  {
    id: 'grover-11-scaffold-q',
    category: 'grover',
    framework: 'qiskit',
    prompt: qiskitScaffold(
      'grover_search_oracle_11()',
      'Grover search on 2 qubits for the marked state |11⟩ (one iteration), with measurements.',
      'The function must return the circuit.',
    ),
    entryPoint: 'grover_search_oracle_11',
    checks: [{ kind: 'distribution', ideal: one('11') }],
  },
  {
    id: 'grover-10-scaffold-c',
    category: 'grover',
    framework: 'cirq',
    prompt: cirqScaffold(
      'grover_search_oracle_10() -> cirq.Circuit',
      'Two-qubit Grover search marking |10⟩ (q0 = 1, q1 = 0): one iteration, then measure both qubits.',
    ),
    entryPoint: 'grover_search_oracle_10',
    checks: [{ kind: 'distribution', ideal: one(cirqBits('10')) }],
  },
  {
    id: 'grover-101-q',
    category: 'grover',
    framework: 'qiskit',
    prompt: "Implement Grover's algorithm on 3 qubits searching for 101 with 2 iterations, in Qiskit, and measure.",
    checks: [{ kind: 'dominant', outcomes: ['101'], min: 0.9 }],
  },
  {
    id: 'grover-111-c',
    category: 'grover',
    framework: 'cirq',
    prompt: '3-qubit Grover search in Cirq for the marked item 111, two iterations, measure all.',
    checks: [{ kind: 'dominant', outcomes: ['111'], min: 0.9 }],
  },
  {
    id: 'grover-1010-q',
    category: 'grover',
    framework: 'qiskit',
    prompt: 'Grover search over 4 qubits for |1010> using the optimal number of iterations (3). Qiskit please, with measurement.',
    checks: [{ kind: 'dominant', outcomes: ['1010'], min: 0.9 }],
  },
  {
    id: 'grover-two-marked-q',
    category: 'grover',
    framework: 'qiskit',
    prompt: 'Grover search on 3 qubits with two marked states, 011 and 110; one iteration; measure all qubits (qiskit).',
    checks: [{ kind: 'distribution', ideal: grover(3, ['011', '110'], 1) }],
  },
  {
    id: 'grover-11-gates-c',
    category: 'grover',
    framework: 'cirq',
    prompt: 'amplitude amplification on 2 qubits in cirq marking 11 — build the oracle from individual gates, no library. Measure.',
    checks: [{ kind: 'distribution', ideal: one('11') }],
  },
  {
    id: 'grover-000-one-iter-q',
    category: 'grover',
    framework: 'qiskit',
    prompt: 'Qiskit: a single Grover iteration on 3 qubits marking 000, then measure all qubits.',
    checks: [{ kind: 'distribution', ideal: grover(3, ['000'], 1) }],
  },
  {
    id: 'grover-0110-c',
    category: 'grover',
    framework: 'cirq',
    prompt: 'Write Grover search in Cirq over 4 qubits for the state |0110⟩ with 3 iterations and measure.',
    checks: [{ kind: 'dominant', outcomes: ['0110'], min: 0.9 }],
  },
  {
    id: 'grover-param-q',
    category: 'grover',
    framework: 'qiskit',
    prompt: qiskitScaffold(
      'grover(marked: str = "11") -> QuantumCircuit',
      'Two-qubit Grover search (one iteration) for the bitstring `marked`\n(Qiskit order: marked[-1] is qubit 0). Measure both qubits.',
    ),
    entryPoint: 'grover',
    params: ['marked'],
    entryPointArgs: ['01'],
    checks: [{ kind: 'distribution', ideal: one('01') }],
  },
  {
    id: 'grover-both-one-c',
    category: 'grover',
    framework: 'cirq',
    prompt: "Grover's search over two qubits (cirq) for the state where both qubits are 1, measured.",
    checks: [{ kind: 'distribution', ideal: one('11') }],
  },
  {
    id: 'grover-01-scaffold-c',
    category: 'grover',
    framework: 'cirq',
    prompt: `${cirqScaffold('grover_search_oracle_01()', 'Grover search on two LineQubits marking |01⟩ (q0 = 0, q1 = 1).\nOne iteration; measure both qubits with key "result".')}\n${SOURCE_ONLY}`,
    entryPoint: 'grover_search_oracle_01',
    checks: [{ kind: 'distribution', ideal: one(cirqBits('01')) }],
  },
  {
    id: 'grover-5q-q',
    category: 'grover',
    framework: 'qiskit',
    prompt: 'Grover on 5 qubits, marked state 10001, use 4 iterations, measure everything. Qiskit.',
    checks: [{ kind: 'dominant', outcomes: ['10001'], min: 0.95 }],
  },

  // ---- oracle algorithms ----
  {
    id: 'dj-four-query-q',
    category: 'oracle-algorithms',
    framework: 'qiskit',
    prompt:
      'Deutsch-Jozsa with four query qubits and one ancilla in Qiskit. Use the balanced oracle f(x) = x0 ⊕ x1 ⊕ x2 ⊕ x3 and measure the query qubits (qubits 0-3).',
    checks: [{ kind: 'distribution', ideal: one('1111'), qubits: range(4) }],
  },
  {
    id: 'dj-constant-c',
    category: 'oracle-algorithms',
    framework: 'cirq',
    prompt: 'Deutsch–Jozsa in Cirq with 3 input qubits (q0..q2) and an ancilla q3, constant oracle f(x) = 0. Measure the inputs.',
    checks: [{ kind: 'distribution', ideal: one('000'), qubits: range(3) }],
  },
  {
    id: 'dj-scaffold-q',
    category: 'oracle-algorithms',
    framework: 'qiskit',
    prompt: qiskitScaffold(
      'deutsch_jozsa_balanced()',
      'Deutsch-Jozsa on 3 input qubits (0, 1, 2) plus an ancilla (qubit 3).\nThe oracle is the balanced function f(x) = x_0 (the bit of qubit 0).',
      'Requirements: measure the three input qubits into classical bits 0-2 and return the circuit.',
    ),
    entryPoint: 'deutsch_jozsa_balanced',
    checks: [{ kind: 'distribution', ideal: one('001'), qubits: range(3) }],
  },
  {
    id: 'dj-constant-one-c',
    category: 'oracle-algorithms',
    framework: 'cirq',
    prompt: 'cirq deutsch jozsa, 2 input qubits + 1 ancilla (the last qubit), constant oracle that always returns 1, measure the inputs',
    checks: [{ kind: 'distribution', ideal: one('00'), qubits: range(2) }],
  },
  {
    id: 'bv-1101-q',
    category: 'oracle-algorithms',
    framework: 'qiskit',
    prompt: 'Bernstein-Vazirani for the secret s = 1101 in Qiskit (qubits 0-3 are the inputs, qubit 4 the ancilla); measure the inputs.',
    checks: [{ kind: 'distribution', ideal: one('1101'), qubits: range(4) }],
  },
  {
    id: 'bv-101-c',
    category: 'oracle-algorithms',
    framework: 'cirq',
    prompt: 'Bernstein–Vazirani in Cirq with hidden string 101 (three input qubits, ancilla last). Measure the input qubits.',
    checks: [{ kind: 'distribution', ideal: one('101'), qubits: range(3) }],
  },
  {
    id: 'bv-param-q',
    category: 'oracle-algorithms',
    framework: 'qiskit',
    prompt: qiskitScaffold(
      'bernstein_vazirani(secret: str) -> QuantumCircuit',
      'Bernstein-Vazirani circuit for `secret` (Qiskit order: secret[-1] belongs to qubit 0).\nInputs are qubits 0..n-1, the ancilla is qubit n; measure the inputs.',
    ),
    entryPoint: 'bernstein_vazirani',
    params: ['secret'],
    entryPointArgs: ['0110'],
    checks: [{ kind: 'distribution', ideal: one('0110'), qubits: range(4) }],
  },
  {
    id: 'bv-1001-c',
    category: 'oracle-algorithms',
    framework: 'cirq',
    prompt: 'BV algorithm, 4 data qubits, secret 1001, cirq, ancilla is q4, measure the data qubits',
    checks: [{ kind: 'distribution', ideal: one('1001'), qubits: range(4) }],
  },
  {
    id: 'simon-11-q',
    category: 'oracle-algorithms',
    framework: 'qiskit',
    prompt: "Simon's algorithm in Qiskit for n = 2 with secret s = 11 (first register qubits 0-1, second register 2-3). Measure the first register.",
    checks: [{ kind: 'support', outcomes: simonSupport('11'), qubits: range(2) }],
  },
  {
    id: 'simon-110-c',
    category: 'oracle-algorithms',
    framework: 'cirq',
    prompt:
      "Simon's algorithm in Cirq, 3-bit secret s = 110 (s0 = 1, s1 = 1, s2 = 0); input register q0-q2, output register q3-q5; measure the input register.",
    checks: [{ kind: 'support', outcomes: simonSupport(cirqBits('110')), qubits: range(3) }],
  },
  {
    id: 'simon-101-q',
    category: 'oracle-algorithms',
    framework: 'qiskit',
    prompt: "Write Simon's algorithm with secret string 101 on 3+3 qubits (Qiskit), measuring qubits 0-2.",
    checks: [{ kind: 'support', outcomes: simonSupport('101'), qubits: range(3) }],
  },
  {
    id: 'deutsch-not-q',
    category: 'oracle-algorithms',
    framework: 'qiskit',
    prompt: "Deutsch's algorithm (one input qubit 0, ancilla qubit 1) for f(x) = NOT x, in Qiskit; measure qubit 0.",
    checks: [{ kind: 'distribution', ideal: one('1'), qubits: [0] }],
  },
  {
    id: 'bv-scaffold-c',
    category: 'oracle-algorithms',
    framework: 'cirq',
    prompt: cirqScaffold(
      'bernstein_vazirani_111() -> cirq.Circuit',
      'Bernstein-Vazirani for the secret 111 on input qubits q0-q2 with ancilla q3.\nMeasure the inputs with key "result".',
    ),
    entryPoint: 'bernstein_vazirani_111',
    checks: [{ kind: 'distribution', ideal: one('111'), qubits: range(3) }],
  },

  // ---- phase estimation ----
  {
    id: 'qpe-t-q',
    category: 'phase-estimation',
    framework: 'qiskit',
    prompt: 'Quantum phase estimation of the T gate with 3 counting qubits (0-2) and the eigenstate |1⟩ on qubit 3, Qiskit. Measure the counting qubits.',
    checks: [{ kind: 'distribution', ideal: one('001'), qubits: range(3) }],
  },
  {
    id: 'qpe-pauli-x-q',
    category: 'phase-estimation',
    framework: 'qiskit',
    prompt:
      'Phase estimation of the Pauli-X operator in Qiskit: prepare its eigenvector |−⟩ on qubit 3, use 3 counting qubits (0-2, qubit 0 the least significant bit) and measure them.',
    checks: [{ kind: 'distribution', ideal: one('100'), qubits: range(3) }],
  },
  {
    id: 'qpe-5-8-c',
    category: 'phase-estimation',
    framework: 'cirq',
    prompt: 'Cirq QPE for U = diag(1, e^{2πi·5/8}) with eigenstate |1⟩ on q3 and 3 counting qubits q0-q2; measure the counting qubits.',
    checks: [{ kind: 'distribution', ideal: one('101'), qubits: range(3) }],
  },
  {
    id: 'qpe-s-scaffold-q',
    category: 'phase-estimation',
    framework: 'qiskit',
    prompt: qiskitScaffold(
      'qpe_s_gate()',
      'Phase estimation of the S gate with 3 counting qubits (qubits 0-2, qubit 0 least significant)\nand the target qubit 3 prepared in |1⟩. Measure the counting register into 3 classical bits.',
    ),
    entryPoint: 'qpe_s_gate',
    checks: [{ kind: 'distribution', ideal: one('010'), qubits: range(3) }],
  },
  {
    id: 'qpe-z-q',
    category: 'phase-estimation',
    framework: 'qiskit',
    prompt: 'phase estimation of the Z gate with a single counting qubit (qubit 0), eigenstate |1> on qubit 1; measure qubit 0',
    checks: [{ kind: 'distribution', ideal: one('1'), qubits: [0] }],
  },
  {
    id: 'qpe-t-lsb-c',
    category: 'phase-estimation',
    framework: 'cirq',
    prompt:
      'Estimate the phase of the T gate in Cirq with 3 counting qubits q0..q2 (q0 holds the least significant bit of the result), target q3 in |1⟩. Measure q0..q2.',
    checks: [{ kind: 'distribution', ideal: one('001'), qubits: range(3) }],
  },
  {
    id: 'qpe-third-q',
    category: 'phase-estimation',
    framework: 'qiskit',
    prompt: 'QPE in Qiskit for the phase φ = 1/3 (U = P(2π/3)) with 4 counting qubits 0-3 and eigenstate |1⟩ on qubit 4; measure the counting qubits.',
    checks: [
      { kind: 'peaks', outcomes: ['0101'], qubits: range(4) },
      { kind: 'distribution', ideal: qpe(1 / 3, 4), qubits: range(4) },
    ],
  },
  {
    id: 'qpe-quarter-c',
    category: 'phase-estimation',
    framework: 'cirq',
    prompt: 'Cirq phase estimation of φ = 0.25 with 2 counting qubits (q0 least significant) and the eigenstate |1⟩ on q2. Measure the counting qubits.',
    checks: [{ kind: 'distribution', ideal: one('01'), qubits: range(2) }],
  },

  // ---- protocols ----
  {
    id: 'teleport-one-q',
    category: 'protocols',
    framework: 'qiskit',
    prompt: 'Teleport |1⟩ from qubit 0 to qubit 2 in Qiskit and measure only qubit 2.',
    checks: [{ kind: 'distribution', ideal: one('1'), qubits: [2] }],
  },
  {
    id: 'teleport-ry-c',
    category: 'protocols',
    framework: 'cirq',
    prompt: 'Quantum teleportation in Cirq of the state Ry(π/3)|0⟩ from q0 to q2; measure q2 only.',
    checks: [{ kind: 'distribution', ideal: { '0': 0.75, '1': 0.25 }, qubits: [2] }],
  },
  {
    id: 'superdense-10-q',
    category: 'protocols',
    framework: 'qiskit',
    prompt: 'Superdense coding in Qiskit sending the two bits 10; measure both qubits so the counts read 10.',
    checks: [{ kind: 'distribution', ideal: one('10') }],
  },
  {
    id: 'superdense-11-c',
    category: 'protocols',
    framework: 'cirq',
    prompt: 'superdense coding with cirq sending 11, measure both qubits',
    checks: [{ kind: 'distribution', ideal: one('11') }],
  },
  {
    id: 'teleport-scaffold-q',
    category: 'protocols',
    framework: 'qiskit',
    prompt: qiskitScaffold(
      'teleport_plus()',
      'Teleport the state |+⟩ from qubit 0 to qubit 2, then apply H to qubit 2 and measure it\n(so the outcome is 0 with certainty when teleportation works).',
    ),
    entryPoint: 'teleport_plus',
    checks: [{ kind: 'distribution', ideal: one('0'), qubits: [2] }],
  },
  {
    id: 'teleport-zero-c',
    category: 'protocols',
    framework: 'cirq',
    prompt: 'Teleport |0⟩ from q0 to q2 with Cirq and measure q2.',
    checks: [{ kind: 'distribution', ideal: one('0'), qubits: [2] }],
  },

  // ---- tests and games ----
  {
    id: 'swap-test-q',
    category: 'tests-and-games',
    framework: 'qiskit',
    prompt: 'Swap test in Qiskit between |0⟩ (qubit 1) and |+⟩ (qubit 2), ancilla qubit 0; measure the ancilla.',
    checks: [{ kind: 'distribution', ideal: { '0': 0.75, '1': 0.25 }, qubits: [0] }],
  },
  {
    id: 'swap-test-c',
    category: 'tests-and-games',
    framework: 'cirq',
    prompt: 'Swap test of |1⟩ with |1⟩ in Cirq; ancilla q0, states on q1 and q2; measure q0.',
    checks: [{ kind: 'distribution', ideal: one('0'), qubits: [0] }],
  },
  {
    id: 'hadamard-test-t-q',
    category: 'tests-and-games',
    framework: 'qiskit',
    prompt: 'Hadamard test (real part) in Qiskit for U = T on the input state |1⟩: ancilla qubit 0, target qubit 1; measure the ancilla.',
    checks: [{ kind: 'distribution', ideal: { '0': (1 + R) / 2, '1': (1 - R) / 2 }, qubits: [0] }],
  },
  {
    id: 'hadamard-test-x-c',
    category: 'tests-and-games',
    framework: 'cirq',
    prompt: 'Cirq Hadamard test estimating Re⟨ψ|X|ψ⟩ for |ψ⟩ = |+⟩; ancilla q0, ψ on q1; measure q0.',
    checks: [{ kind: 'distribution', ideal: one('0'), qubits: [0] }],
  },
  {
    id: 'chsh-q',
    category: 'tests-and-games',
    framework: 'qiskit',
    prompt:
      'CHSH measurement in Qiskit: prepare |Φ+⟩ on qubits 0 and 1, Alice (qubit 0) measures along angle 0, Bob (qubit 1) along angle π/4 in the X-Z plane (rotate with ry(-θ) before measuring). Measure both.',
    checks: [{ kind: 'distribution', ideal: chsh(0, Math.PI / 4) }],
  },
  {
    id: 'chsh-c',
    category: 'tests-and-games',
    framework: 'cirq',
    prompt: 'Bell test in Cirq: Φ+ pair, q0 measured at angle π/2 and q1 at angle π/4 in the X–Z plane (Ry(−θ) then measure). Measure both qubits.',
    checks: [{ kind: 'distribution', ideal: chsh(Math.PI / 2, Math.PI / 4) }],
  },
  {
    id: 'swap-test-scaffold-q',
    category: 'tests-and-games',
    framework: 'qiskit',
    prompt: qiskitScaffold(
      'swap_test_plus_minus()',
      'Swap test between |+⟩ (qubit 1) and |−⟩ (qubit 2) with the ancilla on qubit 0.\nMeasure only the ancilla into one classical bit.',
    ),
    entryPoint: 'swap_test_plus_minus',
    checks: [{ kind: 'distribution', ideal: { '0': 0.5, '1': 0.5 }, qubits: [0] }],
  },

  // ---- decomposition ----
  {
    id: 'cz-from-h-cx-q',
    category: 'decomposition',
    framework: 'qiskit',
    prompt: 'Decompose a CZ gate into H and CX gates only (Qiskit, 2 qubits, no measurement).',
    checks: [{ kind: 'unitary', matrix: CZ, basis: ['h', 'cx'] }],
  },
  {
    id: 'swap-from-cx-q',
    category: 'decomposition',
    framework: 'qiskit',
    prompt: 'Write SWAP as three CNOTs in qiskit.',
    checks: [{ kind: 'unitary', matrix: SWAP, basis: ['cx'] }],
  },
  {
    id: 'cz-from-h-cx-c',
    category: 'decomposition',
    framework: 'cirq',
    prompt: 'Build a controlled-Z out of Hadamard and CNOT gates in cirq (two LineQubits, no measurement).',
    checks: [{ kind: 'unitary', matrix: CZ, basis: ['h', 'cx'] }],
  },
  {
    id: 'u-gate-q',
    category: 'decomposition',
    framework: 'qiskit',
    prompt: 'Decompose U(θ=π/2, φ=π/4, λ=π/3) into rz and ry gates (qiskit). The phase φ+λ only matters up to a global phase.',
    checks: [{ kind: 'unitary', matrix: u3(Math.PI / 2, Math.PI / 4, Math.PI / 3), basis: ['rz', 'ry'] }],
  },
  {
    id: 'toffoli-q',
    category: 'decomposition',
    framework: 'qiskit',
    prompt: 'Implement a Toffoli (controls 0 and 1, target 2) using only H, T, Tdg and CX gates in Qiskit.',
    checks: [{ kind: 'unitary', matrix: toffoli(), basis: ['h', 't', 'tdg', 'cx'] }],
  },
  {
    id: 'iswap-c',
    category: 'decomposition',
    framework: 'cirq',
    prompt: 'Decompose the iSWAP gate into CNOTs and single-qubit gates in Cirq.',
    checks: [{ kind: 'unitary', matrix: ISWAP }],
  },
  {
    id: 'ch-scaffold-q',
    category: 'decomposition',
    framework: 'qiskit',
    prompt: qiskitScaffold(
      'controlled_hadamard()',
      'A controlled-Hadamard with control qubit 0 and target qubit 1,\nbuilt only from ry and cx gates. No measurement.',
    ),
    entryPoint: 'controlled_hadamard',
    checks: [{ kind: 'unitary', matrix: controlled(H), basis: ['ry', 'cx'] }],
  },
  {
    id: 'matrix-1q-q',
    category: 'decomposition',
    framework: 'qiskit',
    prompt: 'Give me a Qiskit circuit that implements the unitary 1/√2 [[1, 1j], [1j, 1]] on one qubit.',
    checks: [{ kind: 'unitary', matrix: rx(-Math.PI / 2) }],
  },
  {
    id: 'zz-rotation-c',
    category: 'decomposition',
    framework: 'cirq',
    prompt: 'Implement exp(−i·π/8·Z⊗Z) on two qubits in Cirq with CNOTs and an Rz.',
    checks: [{ kind: 'unitary', matrix: evolve(hamiltonian(2, [[1, { 0: 'Z', 1: 'Z' }]]), Math.PI / 8), basis: ['cx', 'rz'] }],
  },
  {
    id: 'cs-q',
    category: 'decomposition',
    framework: 'qiskit',
    prompt: 'Decompose the controlled-S gate (control qubit 0, target qubit 1) into CX and single-qubit phase gates in Qiskit.',
    checks: [{ kind: 'unitary', matrix: controlled(phaseGate(Math.PI / 2)) }],
  },
  {
    id: 'cnot-from-cz-c',
    category: 'decomposition',
    framework: 'cirq',
    prompt: 'Write a CNOT (control q0, target q1) using only CZ and Hadamards in Cirq.',
    checks: [{ kind: 'unitary', matrix: controlled(X), basis: ['cz', 'h'] }],
  },
  {
    id: 'ry-from-rx-rz-q',
    category: 'decomposition',
    framework: 'qiskit',
    prompt: 'Express Ry(0.7) using only rx and rz gates in qiskit (single qubit, no measurement).',
    checks: [{ kind: 'unitary', matrix: ry(0.7), basis: ['rx', 'rz'] }],
  },

  // ---- Hamiltonians ----
  {
    id: 'ising2-trotter-q',
    category: 'hamiltonians',
    framework: 'qiskit',
    prompt:
      'Trotterized time evolution in Qiskit of the 2-qubit transverse-field Ising model H = Z0 Z1 + 0.5 (X0 + X1) for t = 1 with 10 Trotter steps. Return the circuit without measurement.',
    checks: [
      {
        kind: 'unitary',
        matrix: evolve(
          hamiltonian(2, [
            [1, { 0: 'Z', 1: 'Z' }],
            [0.5, { 0: 'X' }],
            [0.5, { 1: 'X' }],
          ]),
          1,
        ),
      },
    ],
  },
  {
    id: 'heisenberg2-c',
    category: 'hamiltonians',
    framework: 'cirq',
    prompt: 'Cirq circuit for exp(−iHt) with the 2-qubit Heisenberg Hamiltonian H = XX + YY + ZZ and t = 0.5 (no measurement).',
    checks: [
      {
        kind: 'unitary',
        matrix: evolve(
          hamiltonian(2, [
            [1, { 0: 'X', 1: 'X' }],
            [1, { 0: 'Y', 1: 'Y' }],
            [1, { 0: 'Z', 1: 'Z' }],
          ]),
          0.5,
        ),
      },
    ],
  },
  {
    id: 'one-qubit-h-q',
    category: 'hamiltonians',
    framework: 'qiskit',
    prompt: 'Simulate H = 0.5 Z + 0.3 X on one qubit for time t = 2 in Qiskit (return the evolution circuit).',
    checks: [
      {
        kind: 'unitary',
        matrix: evolve(
          hamiltonian(1, [
            [0.5, { 0: 'Z' }],
            [0.3, { 0: 'X' }],
          ]),
          2,
        ),
      },
    ],
  },
  {
    id: 'ising3-trotter-c',
    category: 'hamiltonians',
    framework: 'cirq',
    prompt: 'Trotterize H = Z0Z1 + Z1Z2 + X0 + X1 + X2 for t = 0.5 with 20 steps in Cirq; no measurement.',
    checks: [
      {
        kind: 'unitary',
        matrix: evolve(
          hamiltonian(3, [
            [1, { 0: 'Z', 1: 'Z' }],
            [1, { 1: 'Z', 2: 'Z' }],
            [1, { 0: 'X' }],
            [1, { 1: 'X' }],
            [1, { 2: 'X' }],
          ]),
          0.5,
        ),
      },
    ],
  },
  {
    id: 'qaoa-triangle-q',
    category: 'hamiltonians',
    framework: 'qiskit',
    prompt:
      'QAOA for MaxCut on the triangle graph (edges 0-1, 1-2, 0-2) in Qiskit, p = 1 with γ = 0.4 and β = 0.3: cost layer RZZ(2γ) on each edge, mixer RX(2β) on each qubit, starting from |+++⟩. Measure all qubits.',
    checks: [
      {
        kind: 'distribution',
        ideal: qaoaMaxCut(
          3,
          [
            [0, 1],
            [1, 2],
            [0, 2],
          ],
          [0.4],
          [0.3],
        ),
      },
    ],
  },
  {
    id: 'qaoa-square-c',
    category: 'hamiltonians',
    framework: 'cirq',
    prompt:
      'Cirq QAOA MaxCut circuit for the 4-cycle with edges [(0,1), (1,2), (2,3), (3,0)], depth p = 1, gamma = 0.7, beta = 0.35 (cost: ZZ rotation exp(-i γ Z Z) per edge, mixer exp(-i β X) per qubit), measured.',
    checks: [
      {
        kind: 'distribution',
        ideal: qaoaMaxCut(
          4,
          [
            [0, 1],
            [1, 2],
            [2, 3],
            [3, 0],
          ],
          [0.7],
          [0.35],
        ),
      },
    ],
  },
  {
    id: 'qaoa-scaffold-q',
    category: 'hamiltonians',
    framework: 'qiskit',
    prompt: qiskitScaffold(
      'qaoa_maxcut_line()',
      'QAOA for MaxCut on the 3-node path graph with edges (0, 1) and (1, 2), p = 2,\ngammas = [0.5, 0.6], betas = [0.4, 0.3]. Cost layer: RZZ(2*gamma) per edge; mixer: RX(2*beta) per qubit.\nStart in |+++⟩ and measure all qubits.',
    ),
    entryPoint: 'qaoa_maxcut_line',
    checks: [
      {
        kind: 'distribution',
        ideal: qaoaMaxCut(
          3,
          [
            [0, 1],
            [1, 2],
          ],
          [0.5, 0.6],
          [0.4, 0.3],
        ),
      },
    ],
  },
  {
    id: 'zz-evolution-q',
    category: 'hamiltonians',
    framework: 'qiskit',
    prompt: 'Time evolution under H = Z0 Z1 + Z1 Z2 for t = 0.3 on 3 qubits in qiskit (no measurement).',
    checks: [
      {
        kind: 'unitary',
        matrix: evolve(
          hamiltonian(3, [
            [1, { 0: 'Z', 1: 'Z' }],
            [1, { 1: 'Z', 2: 'Z' }],
          ]),
          0.3,
        ),
      },
    ],
  },

  // ---- arithmetic and codes ----
  {
    id: 'adder-2-3-q',
    category: 'arithmetic-and-codes',
    framework: 'qiskit',
    prompt: 'Ripple-carry adder in Qiskit computing 2 + 3; measure the 3-bit sum into classical bits c[0..2] (c[0] least significant).',
    checks: [{ kind: 'clbits', ideal: one('101') }],
  },
  {
    id: 'adder-1-2-c',
    category: 'arithmetic-and-codes',
    framework: 'cirq',
    prompt: 'Quantum adder in Cirq that adds 1 and 2; measure the 3-bit sum (least significant bit first) under one key.',
    checks: [{ kind: 'clbits', ideal: one('011') }],
  },
  {
    id: 'bitflip-q',
    category: 'arithmetic-and-codes',
    framework: 'qiskit',
    prompt:
      'Qiskit 3-qubit bit-flip code: encode |1⟩ on data qubits 0-2, apply an X error on qubit 1, correct it with two syndrome ancillas (qubits 3 and 4), and measure the data qubits.',
    checks: [{ kind: 'distribution', ideal: one('111'), qubits: range(3) }],
  },
  {
    id: 'bitflip-c',
    category: 'arithmetic-and-codes',
    framework: 'cirq',
    prompt: 'Cirq bit-flip repetition code on data qubits q0-q2 encoding |0⟩, X error on q2, syndrome ancillas q3, q4, correct and measure the data qubits.',
    checks: [{ kind: 'distribution', ideal: one('000'), qubits: range(3) }],
  },
  {
    id: 'phaseflip-q',
    category: 'arithmetic-and-codes',
    framework: 'qiskit',
    prompt:
      'Phase-flip code in Qiskit: encode |1⟩ on data qubits 0-2 in the X basis, apply a Z error on qubit 0, correct it (ancillas 3 and 4), decode and measure the data qubits.',
    checks: [{ kind: 'distribution', ideal: one('111'), qubits: range(3) }],
  },

  // ---- underspecified or mixed requests: ask or say what was assumed ----
  {
    id: 'grover-no-marked-q',
    category: 'underspecified',
    framework: 'qiskit',
    prompt: 'write a grover search circuit',
    checks: [{ kind: 'clarify' }],
  },
  {
    id: 'mixed-teleport-grover-c',
    category: 'underspecified',
    framework: 'cirq',
    prompt: 'In Cirq, teleport a qubit and then use the teleported qubit as the oracle input of a Grover search.',
    checks: [{ kind: 'clarify' }],
  },
  {
    id: 'qpe-no-unitary-q',
    category: 'underspecified',
    framework: 'qiskit',
    prompt: 'I want phase estimation in qiskit',
    checks: [{ kind: 'clarify' }],
  },
  {
    id: 'vqe-mixed-c',
    category: 'underspecified',
    framework: 'cirq',
    prompt: 'cirq: QAOA plus a swap test on the output to compare it with a GHZ state',
    checks: [{ kind: 'clarify' }],
  },
];
