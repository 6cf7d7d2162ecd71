/**
 * A device's noise figures, in the device-file field names of SPEC.md §6 (t1_us, t2_us,
 * single_qubit_error, two_qubit_error, readout_error), and their validation.
 *
 * Conventions: `single_qubit_error` / `two_qubit_error` is the probability p of the gate's
 * depolarizing channel in its Pauli form — with probability p one of the 3 (one qubit) or 15
 * (two qubits) non-identity Paulis, uniformly, follows the gate. (For a Bell pair this gives
 * P(00) + P(11) = 1 − 8p/15.) Aer's `depolarizing_error(λ)` is the same channel with λ = 4p/3
 * (one qubit) or 16p/15 (two qubits). `readout_error` flips a measured bit symmetrically;
 * `readout_p01` (P(read 1 | 0)) and `readout_p10` (P(read 0 | 1)) override it per direction.
 * `t1_us` / `t2_us` may be null for "no relaxation"; T2 ≤ 2·T1 is required (physical bound).
 */
import { CircuitError } from '../errors.js';

export interface QubitNoise {
  t1_us: number | null;
  t2_us: number | null;
  single_qubit_error: number;
  readout_error: number;
  readout_p01?: number;
  readout_p10?: number;
}

export interface EdgeNoise {
  qubits: [number, number];
  two_qubit_error: number;
}

export interface GateTimes {
  /** Physical one-qubit gates (diagonal ones — rz, p, s, t, z — are virtual frame changes: 0 µs, no error). */
  single: number;
  two: number;
  measure: number;
}

export interface NoiseModel {
  qubits: QubitNoise[];
  edges: EdgeNoise[];
  gate_times_us: GateTimes;
}

const invalid = (message: string) => new CircuitError('semantic', `noise model: ${message}`);

function probability(value: unknown, where: string, max = 1): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > max)
    throw invalid(`${where} must be a number in [0, ${max}]; got ${JSON.stringify(value)}`);
  return value;
}

function time(value: unknown, where: string, allowNull: boolean): number | null {
  if (value === null && allowNull) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (allowNull && value === 0)) {
    throw invalid(`${where} must be a ${allowNull ? 'positive number or null' : 'non-negative number'}; got ${JSON.stringify(value)}`);
  }
  return value;
}

/** Validates a noise model (e.g. parsed from a device file); returns it typed. */
export function validateNoiseModel(input: unknown): NoiseModel {
  const m = input as NoiseModel;
  if (!m || typeof m !== 'object' || !Array.isArray(m.qubits) || !Array.isArray(m.edges) || !m.gate_times_us || typeof m.gate_times_us !== 'object') {
    throw invalid('expected {qubits: [...], edges: [...], gate_times_us: {single, two, measure}}');
  }
  m.qubits.forEach((q, i) => {
    if (!q || typeof q !== 'object') throw invalid(`qubits[${i}] must be an object`);
    const t1 = time(q.t1_us, `qubits[${i}].t1_us`, true);
    const t2 = time(q.t2_us, `qubits[${i}].t2_us`, true);
    if (t2 !== null && (t1 === null ? false : t2 > 2 * t1 + 1e-9)) throw invalid(`qubits[${i}]: t2_us (${t2}) must be ≤ 2·t1_us (${t1})`);
    probability(q.single_qubit_error, `qubits[${i}].single_qubit_error`, 0.75);
    probability(q.readout_error, `qubits[${i}].readout_error`);
    if (q.readout_p01 !== undefined) probability(q.readout_p01, `qubits[${i}].readout_p01`);
    if (q.readout_p10 !== undefined) probability(q.readout_p10, `qubits[${i}].readout_p10`);
  });
  m.edges.forEach((e, i) => {
    if (
      !e ||
      !Array.isArray(e.qubits) ||
      e.qubits.length !== 2 ||
      !e.qubits.every((q) => Number.isInteger(q) && q >= 0 && q < m.qubits.length) ||
      e.qubits[0] === e.qubits[1]
    ) {
      throw invalid(`edges[${i}].qubits must be two different qubit indices in 0..${m.qubits.length - 1}`);
    }
    probability(e.two_qubit_error, `edges[${i}].two_qubit_error`, 15 / 16);
  });
  for (const key of ['single', 'two', 'measure'] as const) time(m.gate_times_us[key], `gate_times_us.${key}`, false);
  return m;
}

/** A model without any error: every figure zero, relaxation off. */
export function noiselessModel(numQubits: number, edges: [number, number][] = []): NoiseModel {
  return {
    qubits: Array.from({ length: numQubits }, () => ({ t1_us: null, t2_us: null, single_qubit_error: 0, readout_error: 0 })),
    edges: edges.map((qubits) => ({ qubits, two_qubit_error: 0 })),
    gate_times_us: { single: 0, two: 0, measure: 0 },
  };
}
