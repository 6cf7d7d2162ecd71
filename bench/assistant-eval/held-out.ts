/**
 * Held-out tasks: written after the offline engine was improved against tasks.ts, and run once
 * without changing the engine for them, so the main table's "after" column (tuned on tasks.ts) has
 * a less flattering companion. Same shape and grading as tasks.ts.
 */
import type { EvalTask } from './grader.js';
import { allKeys, cirqBits, equal, evolve, grover, hamiltonian, one, qftMatrix, qpe, simonSupport, type C } from './ideal.js';

const R = Math.SQRT1_2;
const amps = (v: (number | C)[]): C[] => v.map((x) => (typeof x === 'number' ? [x, 0] : x));

export const HELD_OUT_TASKS: EvalTask[] = [
  {
    id: 'ho-bell-function-q',
    category: 'named-states',
    framework: 'qiskit',
    prompt:
      'from qiskit import QuantumCircuit\n\ndef make_bell_pair() -> QuantumCircuit:\n    # TODO: return a circuit that entangles qubits 0 and 1 into (|00> + |11>)/sqrt(2) and measures them\n    ...\n',
    entryPoint: 'make_bell_pair',
    checks: [{ kind: 'distribution', ideal: { '00': 0.5, '11': 0.5 } }],
  },
  {
    id: 'ho-ghz5-c',
    category: 'named-states',
    framework: 'cirq',
    prompt: 'pls give me cirq code for a GHZ state over 5 line qubits, with a measurement at the end',
    checks: [{ kind: 'distribution', ideal: equal(['00000', '11111']) }],
  },
  {
    id: 'ho-w3-c',
    category: 'named-states',
    framework: 'cirq',
    prompt: 'Using Cirq, construct the three-qubit W state and measure every qubit.',
    checks: [{ kind: 'distribution', ideal: equal(['001', '010', '100']) }],
  },
  {
    id: 'ho-state-q',
    category: 'state-preparation',
    framework: 'qiskit',
    prompt: 'Qiskit circuit preparing (|01⟩ - |10⟩)/√2, please leave it unmeasured.',
    checks: [{ kind: 'state', amplitudes: amps([0, R, -R, 0]) }],
  },
  {
    id: 'ho-state-amps-c',
    category: 'state-preparation',
    framework: 'cirq',
    prompt: 'Prepare 0.8|0> + 0.6|1> on one qubit with cirq',
    checks: [{ kind: 'state', amplitudes: amps([0.8, 0.6]) }],
  },
  {
    id: 'ho-iqft3-c',
    category: 'fourier',
    framework: 'cirq',
    prompt: 'In Cirq, write the inverse quantum Fourier transform on 3 qubits (qubit 0 least significant, with the swaps), no measurement.',
    checks: [{ kind: 'unitary', matrix: qftMatrix(3, true) }],
  },
  {
    id: 'ho-grover-scaffold-q',
    category: 'grover',
    framework: 'qiskit',
    prompt:
      'from qiskit import QuantumCircuit\n\ndef grover_search_oracle_110():\n    """\n    Grover search over 3 qubits for |110> (Qiskit ordering).\n    Use 2 iterations and measure all qubits.\n    """\n',
    entryPoint: 'grover_search_oracle_110',
    checks: [{ kind: 'dominant', outcomes: ['110'], min: 0.9 }],
  },
  {
    id: 'ho-grover-two-c',
    category: 'grover',
    framework: 'cirq',
    prompt: 'Cirq: Grover on 3 qubits finding the marked states 000 and 111, 1 iteration, measure',
    checks: [{ kind: 'distribution', ideal: grover(3, ['000', '111'], 1) }],
  },
  {
    id: 'ho-bv-c',
    category: 'oracle-algorithms',
    framework: 'cirq',
    prompt: 'Bernstein-Vazirani with the hidden bitstring 0110 in cirq, ancilla on the last qubit, measuring the four inputs.',
    checks: [{ kind: 'distribution', ideal: one(cirqBits('0110')), qubits: [0, 1, 2, 3] }],
  },
  {
    id: 'ho-dj-q',
    category: 'oracle-algorithms',
    framework: 'qiskit',
    prompt: 'deutsch jozsa in qiskit: 3 inputs + ancilla, balanced oracle f(x) = x0 xor x2, measure inputs',
    checks: [{ kind: 'distribution', ideal: one('101'), qubits: [0, 1, 2] }],
  },
  {
    id: 'ho-simon-c',
    category: 'oracle-algorithms',
    framework: 'cirq',
    prompt: "Simon's problem with s = 11 in Cirq (2 input qubits, 2 output qubits); measure the inputs.",
    checks: [{ kind: 'support', outcomes: simonSupport('11'), qubits: [0, 1] }],
  },
  {
    id: 'ho-qpe-s-c',
    category: 'phase-estimation',
    framework: 'cirq',
    prompt:
      'Phase estimation for the S gate in Cirq: 3 counting qubits q0..q2 (q0 = least significant bit), eigenstate |1> on q3; measure the counting qubits.',
    checks: [{ kind: 'distribution', ideal: one('010'), qubits: [0, 1, 2] }],
  },
  {
    id: 'ho-qpe-phase-q',
    category: 'phase-estimation',
    framework: 'qiskit',
    prompt: 'QPE with 3 counting qubits for a phase of 0.625, Qiskit, measure the counting register',
    checks: [{ kind: 'distribution', ideal: qpe(0.625, 3), qubits: [0, 1, 2] }],
  },
  {
    id: 'ho-teleport-minus-q',
    category: 'protocols',
    framework: 'qiskit',
    prompt: 'Teleport the |1> state from qubit 0 to qubit 2 (Qiskit), measuring qubit 2 only',
    checks: [{ kind: 'distribution', ideal: one('1'), qubits: [2] }],
  },
  {
    id: 'ho-superdense-01-q',
    category: 'protocols',
    framework: 'qiskit',
    prompt: 'Superdense coding: send the bits 01 and measure both qubits. Qiskit.',
    checks: [{ kind: 'distribution', ideal: one('01') }],
  },
  {
    id: 'ho-swaptest-c',
    category: 'tests-and-games',
    framework: 'cirq',
    prompt: 'swap test in cirq comparing |0> and |1>, ancilla q0, measure it',
    checks: [{ kind: 'distribution', ideal: { '0': 0.5, '1': 0.5 }, qubits: [0] }],
  },
  {
    id: 'ho-hadamard-z-q',
    category: 'tests-and-games',
    framework: 'qiskit',
    prompt: 'Qiskit Hadamard test of U = Z on |+⟩ (real part); ancilla 0, target 1; measure the ancilla',
    checks: [{ kind: 'distribution', ideal: { '0': 0.5, '1': 0.5 }, qubits: [0] }],
  },
  {
    id: 'ho-swap-cz-c',
    category: 'decomposition',
    framework: 'cirq',
    prompt: 'Decompose SWAP into CNOT gates only, in Cirq.',
    checks: [
      {
        kind: 'unitary',
        matrix: [
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
        ],
        basis: ['cx'],
      },
    ],
  },
  {
    id: 'ho-rx-q',
    category: 'decomposition',
    framework: 'qiskit',
    prompt: 'Write Rx(π/3) using only rz and ry gates (Qiskit).',
    checks: [
      {
        kind: 'unitary',
        matrix: [
          [
            [Math.cos(Math.PI / 6), 0],
            [0, -Math.sin(Math.PI / 6)],
          ],
          [
            [0, -Math.sin(Math.PI / 6)],
            [Math.cos(Math.PI / 6), 0],
          ],
        ],
        basis: ['rz', 'ry'],
      },
    ],
  },
  {
    id: 'ho-xx-evolution-c',
    category: 'hamiltonians',
    framework: 'cirq',
    prompt: 'Evolve two qubits under H = X0 X1 + Z0 for t = 0.8 using 16 Trotter steps in cirq, without measuring.',
    checks: [
      {
        kind: 'unitary',
        matrix: evolve(
          hamiltonian(2, [
            [1, { 0: 'X', 1: 'X' }],
            [1, { 0: 'Z' }],
          ]),
          0.8,
        ),
      },
    ],
  },
  {
    id: 'ho-uniform-c',
    category: 'named-states',
    framework: 'cirq',
    prompt: 'Put 4 qubits into an equal superposition in Cirq and measure them.',
    checks: [{ kind: 'support', outcomes: allKeys(4) }],
  },
  {
    id: 'ho-repetition-q',
    category: 'arithmetic-and-codes',
    framework: 'qiskit',
    prompt: 'Qiskit bit-flip code on data qubits 0-2 (encode |1>), X error on qubit 0, syndrome ancillas 3 and 4, correct and measure the data qubits',
    checks: [{ kind: 'distribution', ideal: one('111'), qubits: [0, 1, 2] }],
  },
  {
    id: 'ho-clarify-c',
    category: 'underspecified',
    framework: 'cirq',
    prompt: 'cirq: do bernstein vazirani and then grover on the secret you found',
    checks: [{ kind: 'clarify' }],
  },
  {
    id: 'ho-clarify-q',
    category: 'underspecified',
    framework: 'qiskit',
    prompt: 'write a teleportation circuit in qiskit',
    checks: [{ kind: 'clarify' }],
  },
];
