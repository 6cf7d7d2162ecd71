/**
 * Requests written for the offline engine's tests and benchmark (kinds × phrasings × sizes), each
 * with the distribution a correct answer must produce, written from the algorithm's definition
 * (independent of circuit-synthesis.ts). Bitstrings as Qiskit prints them (bit 0 rightmost).
 */
import type { CircuitKind } from './circuit-task.js';
import type { Framework } from './frameworks.js';
import type { Distribution } from './hellinger.js';

export interface OfflineTaskCase {
  request: string;
  kind: CircuitKind;
  framework: Framework;
  /** Ideal distribution of the measured bits; null when the request states no target (ansatz). */
  ideal: Distribution | null;
}

const pad = (v: number, w: number) => v.toString(2).padStart(w, '0');
const equal = (keys: string[]): Distribution => Object.fromEntries(keys.map((k) => [k, 1 / keys.length]));
const one = (k: string): Distribution => ({ [k]: 1 });
const ghz = (n: number) => equal(['0'.repeat(n), '1'.repeat(n)]);
const w = (n: number) => equal(Array.from({ length: n }, (_, i) => pad(1 << i, n)));
const uniform = (n: number) => equal(Array.from({ length: 1 << n }, (_, i) => pad(i, n)));
/** Grover with k = ⌊π/(4θ)⌋ iterations: marked states share sin²((2k+1)θ). */
function grover(n: number, marked: string[]): Distribution {
  const N = 1 << n;
  const theta = Math.asin(Math.sqrt(marked.length / N));
  const k = Math.max(1, Math.floor(Math.PI / (4 * theta)));
  const p = Math.sin((2 * k + 1) * theta) ** 2;
  return Object.fromEntries(
    Array.from({ length: N }, (_, i) => pad(i, n)).map((s) => [s, marked.includes(s) ? p / marked.length : (1 - p) / (N - marked.length)]),
  );
}
/** Phase estimation with t counting bits: |(1/T) Σ_j e^{2πij(φ−k/T)}|². */
function qpe(phi: number, t: number): Distribution {
  const T = 1 << t;
  const out: Distribution = {};
  for (let k = 0; k < T; k++) {
    let re = 0,
      im = 0;
    for (let j = 0; j < T; j++) {
      re += Math.cos(2 * Math.PI * j * (phi - k / T));
      im += Math.sin(2 * Math.PI * j * (phi - k / T));
    }
    const p = (re * re + im * im) / (T * T);
    if (p > 1e-12) out[pad(k, t)] = p;
  }
  return out;
}
/** Teleported qubit in c2, Alice's two outcomes uniform. */
function teleport(p1: number): Distribution {
  const out: Distribution = {};
  for (let m = 0; m < 4; m++) {
    if (p1 < 1) out[pad(m, 3)] = (1 - p1) / 4;
    if (p1 > 0) out[pad(4 + m, 3)] = p1 / 4;
  }
  return out;
}

export const OFFLINE_TASKS: OfflineTaskCase[] = [
  // Bell states
  { request: 'Build a Bell state circuit', kind: 'bell', framework: 'qiskit', ideal: equal(['00', '11']) },
  { request: 'make the Bell state |Φ-⟩ in Cirq', kind: 'bell', framework: 'cirq', ideal: equal(['00', '11']) },
  { request: 'Create a psi+ Bell pair in OpenQASM 2', kind: 'bell', framework: 'openqasm2', ideal: equal(['01', '10']) },
  { request: 'give me the psi minus bell state circuit (singlet) in qasm 3', kind: 'bell', framework: 'openqasm3', ideal: equal(['01', '10']) },
  // GHZ
  { request: 'build a 5-qubit GHZ circuit in Cirq', kind: 'ghz', framework: 'cirq', ideal: ghz(5) },
  { request: 'Create a GHZ state on 3 qubits', kind: 'ghz', framework: 'qiskit', ideal: ghz(3) },
  { request: 'write a ten qubit GHZ state in OpenQASM 3', kind: 'ghz', framework: 'openqasm3', ideal: ghz(10) },
  { request: 'GHZ state with 8 qubits in pennylane', kind: 'ghz', framework: 'pennylane', ideal: ghz(8) },
  // W
  { request: 'Prepare a 3-qubit W state', kind: 'w', framework: 'qiskit', ideal: w(3) },
  { request: 'make a W state of 5 qubits in Cirq', kind: 'w', framework: 'cirq', ideal: w(5) },
  { request: 'construct a W-state on 4 qubits in OpenQASM 2', kind: 'w', framework: 'openqasm2', ideal: w(4) },
  { request: 'W state circuit with 7 qubits', kind: 'w', framework: 'qiskit', ideal: w(7) },
  // Uniform superposition
  { request: 'Create a uniform superposition over 4 qubits', kind: 'uniform', framework: 'qiskit', ideal: uniform(4) },
  { request: 'write a circuit with an equal superposition of all bitstrings on 2 qubits in cirq', kind: 'uniform', framework: 'cirq', ideal: uniform(2) },
  { request: 'put hadamards on all of 6 qubits: uniform superposition in qasm', kind: 'uniform', framework: 'openqasm3', ideal: uniform(6) },
  { request: 'uniform superposition on 10 qubits in braket', kind: 'uniform', framework: 'braket', ideal: uniform(10) },
  // Basis states
  { request: 'Prepare the basis state |101⟩', kind: 'basis', framework: 'qiskit', ideal: one('101') },
  { request: 'make a circuit that prepares the computational basis state 0110 in cirq', kind: 'basis', framework: 'cirq', ideal: one('0110') },
  { request: 'prepare |11001> in OpenQASM 2', kind: 'basis', framework: 'openqasm2', ideal: one('11001') },
  { request: 'build the basis state |1⟩', kind: 'basis', framework: 'qiskit', ideal: one('1') },
  // QFT / inverse QFT
  { request: 'Build a 3-qubit QFT circuit', kind: 'qft', framework: 'qiskit', ideal: uniform(3) },
  { request: 'quantum fourier transform on 5 qubits in cirq', kind: 'qft', framework: 'cirq', ideal: uniform(5) },
  { request: 'write the inverse QFT on 4 qubits that recovers 1011', kind: 'qft', framework: 'qiskit', ideal: one('1011') },
  { request: 'make an inverse quantum fourier transform circuit for 3 qubits in OpenQASM 3', kind: 'qft', framework: 'openqasm3', ideal: one('101') },
  // Grover
  { request: 'make a Grover search for 101', kind: 'grover', framework: 'qiskit', ideal: grover(3, ['101']) },
  // Cirq requests write bitstrings with qubit 0 first (as Cirq prints kets and measurement arrays).
  { request: "Implement Grover's algorithm on 2 qubits marking 10 in Cirq", kind: 'grover', framework: 'cirq', ideal: grover(2, ['01']) },
  { request: 'grover search for the marked states 0110 and 1001', kind: 'grover', framework: 'qiskit', ideal: grover(4, ['0110', '1001']) },
  { request: 'Build a Grover circuit that finds 11010 in qasm 2', kind: 'grover', framework: 'openqasm2', ideal: grover(5, ['11010']) },
  { request: 'grover search for 111111 in cirq', kind: 'grover', framework: 'cirq', ideal: grover(6, ['111111']) },
  // Deutsch–Jozsa
  { request: 'Build a Deutsch-Jozsa circuit with a balanced oracle for 3 qubits', kind: 'deutsch-jozsa', framework: 'qiskit', ideal: one('111') },
  { request: 'deutsch jozsa with a constant oracle on 4 qubits in cirq', kind: 'deutsch-jozsa', framework: 'cirq', ideal: one('0000') },
  { request: 'write Deutsch–Jozsa for the balanced function f(x) = s·x with s = 1010', kind: 'deutsch-jozsa', framework: 'qiskit', ideal: one('1010') },
  { request: 'Deutsch-Jozsa, constant oracle f(x) = 1, 2 qubits, OpenQASM 3', kind: 'deutsch-jozsa', framework: 'openqasm3', ideal: one('00') },
  // Bernstein–Vazirani
  { request: 'Bernstein-Vazirani circuit for the secret 1011', kind: 'bernstein-vazirani', framework: 'qiskit', ideal: one('1011') },
  { request: 'build bernstein vazirani with secret string 110 in Cirq', kind: 'bernstein-vazirani', framework: 'cirq', ideal: one('011') },
  { request: 'Implement BV for secret 100101 in OpenQASM 2', kind: 'bernstein-vazirani', framework: 'openqasm2', ideal: one('100101') },
  { request: 'write a Bernstein–Vazirani circuit that finds s = 01 in pennylane', kind: 'bernstein-vazirani', framework: 'pennylane', ideal: one('01') },
  // Phase estimation
  { request: 'phase estimation circuit for phase 0.25', kind: 'phase-estimation', framework: 'qiskit', ideal: qpe(0.25, 3) },
  { request: 'Build QPE estimating a phase of 1/8 with 4 counting qubits in Cirq', kind: 'phase-estimation', framework: 'cirq', ideal: qpe(1 / 8, 4) },
  { request: 'write quantum phase estimation for phi = 0.375', kind: 'phase-estimation', framework: 'qiskit', ideal: qpe(0.375, 3) },
  { request: 'phase estimation of 5/16 in OpenQASM 3', kind: 'phase-estimation', framework: 'openqasm3', ideal: qpe(5 / 16, 4) },
  // Teleportation
  { request: 'Build a quantum teleportation circuit', kind: 'teleportation', framework: 'qiskit', ideal: teleport(0.25) },
  { request: 'teleport the state |1⟩ in Cirq', kind: 'teleportation', framework: 'cirq', ideal: teleport(1) },
  { request: 'write a circuit that teleports |+> in OpenQASM 2', kind: 'teleportation', framework: 'openqasm2', ideal: teleport(0.5) },
  { request: 'quantum teleportation of the zero state |0> in qiskit', kind: 'teleportation', framework: 'qiskit', ideal: teleport(0) },
  // Superdense coding
  { request: 'Build a superdense coding circuit', kind: 'superdense', framework: 'qiskit', ideal: one('11') },
  { request: 'superdense coding that sends the message 10 in Cirq', kind: 'superdense', framework: 'cirq', ideal: one('01') },
  { request: 'make a dense coding circuit for bits 01 in qasm 3', kind: 'superdense', framework: 'openqasm3', ideal: one('01') },
  { request: 'write super dense coding sending 00', kind: 'superdense', framework: 'qiskit', ideal: one('00') },
  // Adder
  { request: 'Build a ripple-carry adder that adds 3 and 5', kind: 'adder', framework: 'qiskit', ideal: one(pad(8, 4)) },
  { request: 'make a quantum adder computing 2 + 1 in Cirq', kind: 'adder', framework: 'cirq', ideal: one(pad(3, 3)) },
  { request: 'write a 3-bit ripple carry adder for 7 and 6', kind: 'adder', framework: 'qiskit', ideal: one(pad(13, 4)) },
  { request: 'ripple-carry addition of 1 and 1 in OpenQASM 2', kind: 'adder', framework: 'openqasm2', ideal: one(pad(2, 2)) },
  // Swap test
  { request: 'Build a swap test circuit', kind: 'swap-test', framework: 'qiskit', ideal: { '0': 0.75, '1': 0.25 } },
  { request: 'swap test between |0⟩ and |1⟩ in Cirq', kind: 'swap-test', framework: 'cirq', ideal: { '0': 0.5, '1': 0.5 } },
  { request: 'write a swap test comparing |+> and |+> in qasm 3', kind: 'swap-test', framework: 'openqasm3', ideal: { '0': 1 } },
  { request: 'make a swap-test of |1> and |-> states', kind: 'swap-test', framework: 'qiskit', ideal: { '0': 0.75, '1': 0.25 } },
  // Repetition codes (data qubits read 1…1; syndrome bits above them)
  { request: 'Build a 3-qubit bit-flip repetition code with an error on qubit 1', kind: 'repetition', framework: 'qiskit', ideal: one('11111') },
  { request: 'bit flip code with an error on qubit 0 in Cirq', kind: 'repetition', framework: 'cirq', ideal: one('01111') },
  { request: 'write a phase-flip repetition code with an error on qubit 2', kind: 'repetition', framework: 'qiskit', ideal: one('10111') },
  { request: 'distance 5 bit-flip repetition code with no error in OpenQASM 3', kind: 'repetition', framework: 'openqasm3', ideal: one('000011111') },
  { request: 'make a distance-5 repetition code with an error on qubit 3', kind: 'repetition', framework: 'qiskit', ideal: one('110011111') },
  // Hardware-efficient ansatz
  { request: 'Build a hardware-efficient ansatz on 4 qubits with 2 layers', kind: 'ansatz', framework: 'qiskit', ideal: null },
  { request: 'make a parameterised hardware efficient ansatz for 3 qubits, 1 layer, in Cirq', kind: 'ansatz', framework: 'cirq', ideal: null },
  {
    request: 'write a variational circuit (hardware-efficient ansatz) with 6 qubits and 3 layers in OpenQASM 3',
    kind: 'ansatz',
    framework: 'openqasm3',
    ideal: null,
  },
  { request: 'hardware-efficient ansatz with 5 qubits in braket', kind: 'ansatz', framework: 'braket', ideal: null },
];
