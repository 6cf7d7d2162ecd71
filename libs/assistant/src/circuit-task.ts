/**
 * The circuit requests the offline engine understands. Bitstrings are written as Qiskit prints
 * counts: little-endian, qubit (and classical bit) 0 is the rightmost character.
 */
import type { DecompositionTask } from './gate-decomposition.js';
import type { EvolutionTask, QaoaTask } from './hamiltonian-evolution.js';

export type BellVariant = 'phi+' | 'phi-' | 'psi+' | 'psi-';
export type SingleQubitState = '0' | '1' | '+' | '-';
/** A gate whose phase estimation was asked for by name; `x` is estimated on its eigenvector |−⟩ (φ = 1/2) or |+⟩ (φ = 0). */
export type NamedPhaseGate = 'x' | 'z' | 's' | 't';
export type HadamardTestGate = 'x' | 'y' | 'z' | 'h' | 's' | 't';

export type CircuitTask =
  | { kind: 'bell'; variant: BellVariant }
  | { kind: 'ghz'; n: number }
  | { kind: 'w'; n: number }
  | { kind: 'uniform'; n: number }
  | { kind: 'basis'; bits: string }
  | { kind: 'qft'; n: number; inverse: boolean; input: number; bare?: boolean }
  | { kind: 'grover'; n: number; marked: string[]; iterations?: number }
  | { kind: 'deutsch-jozsa'; n: number; oracle: 'constant-0' | 'constant-1' | 'balanced'; mask: string }
  | { kind: 'bernstein-vazirani'; secret: string }
  | { kind: 'phase-estimation'; phase: number; precision: number; gate?: NamedPhaseGate }
  | { kind: 'teleportation'; state: SingleQubitState | number }
  | { kind: 'superdense'; message: string }
  | { kind: 'adder'; n: number; a: number; b: number }
  | { kind: 'swap-test'; left: SingleQubitState; right: SingleQubitState }
  | { kind: 'repetition'; flavor: 'bit-flip' | 'phase-flip'; distance: number; errorQubit: number | null; logical?: 0 | 1 }
  | { kind: 'ansatz'; n: number; layers: number }
  /** A state written out in the request; amplitudes little-endian (qubit 0 the least-significant index bit), normalised by the synthesis. */
  | { kind: 'state'; amplitudes: [number, number][]; label: string }
  /** Simon's algorithm for the secret s (little-endian), inputs 0..n−1, outputs n..2n−1. */
  | { kind: 'simon'; secret: string }
  /** Hadamard test of a named one-qubit gate on a single-qubit input (ancilla qubit 0, input qubit 1). */
  | { kind: 'hadamard-test'; gate: HadamardTestGate; input: SingleQubitState; part: 'real' | 'imaginary' }
  /** |Φ+⟩ measured along angles a (qubit 0) and b (qubit 1) in the X–Z plane. */
  | { kind: 'chsh'; a: number; b: number }
  | DecompositionTask
  | EvolutionTask
  | QaoaTask;

export type CircuitKind = CircuitTask['kind'];

export const CIRCUIT_KINDS: readonly CircuitKind[] = [
  'bell',
  'ghz',
  'w',
  'uniform',
  'basis',
  'qft',
  'grover',
  'deutsch-jozsa',
  'bernstein-vazirani',
  'phase-estimation',
  'teleportation',
  'superdense',
  'adder',
  'swap-test',
  'repetition',
  'ansatz',
  'state',
  'simon',
  'hadamard-test',
  'chsh',
  'decomposition',
  'evolution',
  'qaoa',
];

/** Largest register the offline engine builds (it simulates every answer before sending it). */
export const MAX_OFFLINE_QUBITS = 16;
