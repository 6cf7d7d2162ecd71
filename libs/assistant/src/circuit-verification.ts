/**
 * Checks a circuit answer before it reaches the user: the code must parse (libs/circuits front
 * ends), simulate, and, when the request states a target, its output distribution must match the
 * ideal one (Hellinger fidelity) and, where phases matter, its state (|⟨ideal|ψ⟩|²).
 */
import { CircuitError, emitQasm3, expandCircuit, finalState, parseCircuit, simulate, type Circuit } from '#qdc/circuits';
import { hellingerFidelity, type Distribution } from './hellinger.js';

/** The fidelity an answer must reach to count as what was asked for. */
export const FIDELITY_THRESHOLD = 0.99;
/** Verification simulates exactly up to this many qubits; beyond it the answer is only parsed. */
export const MAX_VERIFY_QUBITS = 20;
const SAMPLED_SHOTS = 8192;

export interface Expectation {
  ideal: Distribution;
  idealState?: Float64Array;
}

export interface VerificationReport {
  parsed: boolean;
  simulated: boolean;
  /** Hellinger fidelity against the ideal distribution, when one was stated. */
  fidelity?: number;
  stateFidelity?: number;
  /** The simulated distribution of the measured bits (probabilities). */
  distribution?: Distribution;
  qubits?: number;
  /** What went wrong, phrased for a repair prompt and for the user. */
  error?: string;
  circuit?: Circuit;
}

export function verifyCircuitSource(source: string, expectation?: Expectation): VerificationReport {
  let circuit: Circuit;
  try {
    circuit = parseCircuit(source).circuit;
  } catch (error) {
    return { parsed: false, simulated: false, error: describe(error, 'the code does not parse as a circuit') };
  }
  return verifyCircuit(circuit, expectation);
}

export function verifyCircuit(circuit: Circuit, expectation?: Expectation): VerificationReport {
  const report: VerificationReport = { parsed: true, simulated: false, qubits: circuit.numQubits, circuit };
  if (circuit.numQubits > MAX_VERIFY_QUBITS)
    return { ...report, error: `the circuit has ${circuit.numQubits} qubits; answers are simulated up to ${MAX_VERIFY_QUBITS}` };
  try {
    report.distribution = measuredDistribution(circuit);
    report.simulated = true;
  } catch (error) {
    return { ...report, error: describe(error, 'the circuit could not be simulated') };
  }
  if (expectation && Object.keys(expectation.ideal).length) {
    report.fidelity = hellingerFidelity(report.distribution, expectation.ideal);
    if (report.fidelity < FIDELITY_THRESHOLD) {
      report.error = `its measured distribution does not match the request (Hellinger fidelity ${report.fidelity.toFixed(4)} < ${FIDELITY_THRESHOLD}); expected ${top(expectation.ideal)}, simulated ${top(report.distribution)}`;
      return report;
    }
  }
  if (expectation?.idealState) {
    const state = unitaryState(circuit);
    if (state && state.length === expectation.idealState.length) {
      report.stateFidelity = overlap(state, expectation.idealState);
      if (report.stateFidelity < FIDELITY_THRESHOLD)
        report.error = `the prepared state differs from the requested one (state fidelity ${report.stateFidelity.toFixed(4)})`;
    }
  }
  return report;
}

/** The distribution of the measured classical bits: exact when every measurement is terminal, otherwise sampled. */
export function measuredDistribution(circuit: Circuit): Distribution {
  const expanded = expandCircuit(circuit);
  const measures = new Map<number, number>();
  let terminal = true;
  const touchedAfter = new Set<number>();
  for (let i = expanded.ops.length - 1; i >= 0; i--) {
    const op = expanded.ops[i];
    if (op.kind === 'barrier') continue;
    if ('condition' in op && op.condition) terminal = false;
    if (op.kind === 'measure') {
      if (touchedAfter.has(op.qubit)) terminal = false;
      if (!measures.has(op.clbit)) measures.set(op.clbit, op.qubit);
    } else if (op.kind === 'reset') {
      terminal = false;
    } else for (const q of op.qubits) touchedAfter.add(q);
  }
  if (!terminal || measures.size === 0 || expanded.cregs.length > 1) {
    const result = simulate(circuit, { shots: SAMPLED_SHOTS, seed: 7 });
    const out: Distribution = {};
    for (const [k, v] of Object.entries(result.counts)) out[k] = v / result.shots;
    return out;
  }
  const state = finalState({ ...expanded, ops: expanded.ops.filter((op) => op.kind === 'gate') });
  const clbits = expanded.numClbits;
  const out: Distribution = {};
  for (let i = 0; i < state.length / 2; i++) {
    const p = state[2 * i] ** 2 + state[2 * i + 1] ** 2;
    if (p < 1e-14) continue;
    let bits = '';
    for (let c = clbits - 1; c >= 0; c--) {
      const q = measures.get(c);
      bits += q === undefined ? '0' : String((i >> q) & 1);
    }
    out[bits] = (out[bits] ?? 0) + p;
  }
  return out;
}

function unitaryState(circuit: Circuit): Float64Array | undefined {
  const expanded = expandCircuit(circuit);
  if (expanded.ops.some((op) => op.kind === 'reset' || ('condition' in op && op.condition))) return undefined;
  return finalState({ ...expanded, ops: expanded.ops.filter((op) => op.kind === 'gate') });
}

function overlap(a: Float64Array, b: Float64Array): number {
  let re = 0;
  let im = 0;
  for (let i = 0; i < a.length; i += 2) {
    re += a[i] * b[i] + a[i + 1] * b[i + 1];
    im += a[i] * b[i + 1] - a[i + 1] * b[i];
  }
  return re * re + im * im;
}

function top(d: Distribution): string {
  const entries = Object.entries(d)
    .filter(([, v]) => v > 1e-9)
    .sort((x, y) => y[1] - x[1]);
  const shown = entries
    .slice(0, 4)
    .map(([k, v]) => `${k}: ${v.toFixed(3)}`)
    .join(', ');
  return `{${shown}${entries.length > 4 ? `, … (${entries.length} outcomes)` : ''}}`;
}

function describe(error: unknown, fallback: string): string {
  if (error instanceof CircuitError) return `${fallback}: ${error.message}`;
  return `${fallback}: ${(error as Error)?.message ?? String(error)}`;
}

/** OpenQASM 3 text of a circuit: how PennyLane and Braket answers (which we do not parse) are checked. */
export const checkableSource = (circuit: Circuit): string => emitQasm3(circuit);
