/**
 * The statevector simulator's entry point. Circuits whose measurements are all terminal (no
 * later operation touches a measured qubit, no reset after a gate, no classical condition) are
 * simulated once and their shots sampled from the final distribution; all others are run as
 * one trajectory per shot from the first non-unitary instruction on (the prefix is shared).
 */
import { addCreg, expandCircuit, type Circuit, type Operation } from '../ir/circuit.js';
import { CircuitError } from '../errors.js';
import { compileProgram, type Program } from './program.js';
import { createRng, randomSeed, type Rng } from './rng.js';
import { BYTES_PER_AMPLITUDE, runInstructions, zeroState } from './statevector.js';

export type SimulationMethod = 'qasm' | 'statevector';

export interface SimulateOptions {
  method?: SimulationMethod;
  shots?: number;
  seed?: number;
  /** Largest state vector (bytes) the simulator may allocate; larger circuits throw a `memory` CircuitError. */
  memoryLimitBytes?: number;
  /** `statevector` output is refused above this many qubits (the answer would be huge). */
  maxStatevectorQubits?: number;
}

export interface SimulationResult {
  method: SimulationMethod;
  shots: number;
  seed: number;
  qubitCount: number;
  /** Bitstring (classical bit 0 rightmost; registers separated by spaces, first register rightmost) → count. */
  counts: Record<string, number>;
  /** Amplitudes [re, im], index little-endian in qubit number (qubit 0 is bit 0). */
  statevector?: [number, number][];
  /** True when the shots were simulated one trajectory each (mid-circuit measurement, reset, conditions). */
  trajectories: boolean;
}

export const DEFAULT_MEMORY_LIMIT_BYTES = 2 * 1024 ** 3;
export const DEFAULT_MAX_STATEVECTOR_QUBITS = 16;

/** Bytes of state a circuit needs (two vectors when shots run as trajectories). */
export function stateBytes(numQubits: number, trajectories: boolean): number {
  return BYTES_PER_AMPLITUDE * 2 ** numQubits * (trajectories ? 2 : 1);
}

/** What a simulation will cost: amplitude updates ≈ 2^n × instructions × (shots if trajectories). */
export function simulationCost(circuit: Circuit, shots: number): { qubits: number; instructions: number; trajectories: boolean; bytes: number; work: number } {
  const expanded = expandCircuit(circuit);
  const plan = planMeasurements(expanded);
  const program = compileProgram(plan.unitary);
  const instructions = program.instructions.length;
  const work = 2 ** expanded.numQubits * Math.max(1, instructions) * (plan.trajectories ? shots : 1);
  return { qubits: expanded.numQubits, instructions, trajectories: plan.trajectories, bytes: stateBytes(expanded.numQubits, plan.trajectories), work };
}

export function simulate(circuit: Circuit, options: SimulateOptions = {}): SimulationResult {
  const method = options.method ?? 'qasm';
  const shots = options.shots ?? 1024;
  if (!Number.isInteger(shots) || shots < 1) throw new CircuitError('limit', `shots must be a positive integer; got ${shots}`);
  const seed = options.seed ?? randomSeed();
  const limit = options.memoryLimitBytes ?? DEFAULT_MEMORY_LIMIT_BYTES;
  let expanded = expandCircuit(circuit);
  if (!expanded.ops.some((op) => op.kind === 'measure')) expanded = withMeasureAll(expanded);
  const n = expanded.numQubits;
  const plan = planMeasurements(expanded);
  const bytes = stateBytes(n, plan.trajectories);
  if (bytes > limit) {
    throw new CircuitError(
      'memory',
      `simulating ${n} qubits needs ${formatBytes(bytes)} of state vector${plan.trajectories ? ' (two copies for mid-circuit measurement)' : ''}; the limit is ${formatBytes(limit)}`,
    );
  }
  const maxSv = options.maxStatevectorQubits ?? DEFAULT_MAX_STATEVECTOR_QUBITS;
  if (method === 'statevector' && n > maxSv) {
    throw new CircuitError(
      'limit',
      `the statevector method returns 2^n amplitudes and is limited to ${maxSv} qubits; this circuit has ${n} (use method "qasm" for counts)`,
    );
  }
  const rng = createRng(seed);
  const keyOf = clbitKeyFormatter(expanded);
  let counts: Map<string, number>;
  let state: Float64Array;
  if (!plan.trajectories) {
    const program = compileProgram(plan.unitary);
    state = zeroState(n);
    runInstructions(state, program, 0, program.instructions.length, new Uint8Array(0));
    counts = sampleTerminal(state, n, plan.measured, expanded.numClbits, shots, rng, keyOf);
  } else {
    const program = compileProgram(expanded);
    ({ counts, state } = runTrajectories(program, shots, rng, keyOf, method === 'statevector'));
  }
  const result: SimulationResult = { method, shots, seed, qubitCount: n, counts: Object.fromEntries(counts), trajectories: plan.trajectories };
  if (method === 'statevector') result.statevector = amplitudes(state, n);
  return result;
}

/** Final state vector of a circuit without measurements (or, with them, of one seeded trajectory). */
export function finalState(circuit: Circuit, seed = 0): Float64Array {
  const expanded = expandCircuit(circuit);
  const program = compileProgram(expanded);
  const state = zeroState(expanded.numQubits);
  runInstructions(state, program, 0, program.instructions.length, new Uint8Array(expanded.numClbits), createRng(seed));
  return state;
}

interface MeasurementPlan {
  trajectories: boolean;
  /** The circuit without its terminal measurements (when !trajectories). */
  unitary: Circuit;
  /** clbit → qubit of its terminal measurement. */
  measured: Map<number, number>;
}

function planMeasurements(c: Circuit): MeasurementPlan {
  const touchedLater = new Set<number>();
  const measured = new Map<number, number>();
  const unitaryOps: Operation[] = [];
  let trajectories = false;
  const touchedBefore = new Set<number>();
  // Resets of untouched qubits act on |0⟩: drop them.
  const kept: Operation[] = [];
  for (const op of c.ops) {
    if (op.kind === 'reset' && !op.condition && !touchedBefore.has(op.qubit)) continue;
    kept.push(op);
    if (op.kind === 'barrier') continue;
    for (const q of op.kind === 'gate' ? op.qubits : [op.qubit]) touchedBefore.add(q);
  }
  for (let i = kept.length - 1; i >= 0; i--) {
    const op = kept[i];
    if (op.kind === 'barrier') continue;
    if ('condition' in op && op.condition) trajectories = true;
    if (op.kind === 'reset') trajectories = true;
    if (op.kind === 'measure') {
      if (touchedLater.has(op.qubit)) trajectories = true;
      else if (!measured.has(op.clbit)) measured.set(op.clbit, op.qubit);
      else trajectories = true; // two measurements into one clbit: the later wins, but keep it exact
    } else unitaryOps.push(op);
    for (const q of op.kind === 'gate' ? op.qubits : [op.qubit]) touchedLater.add(q);
  }
  unitaryOps.reverse();
  return { trajectories, unitary: { ...c, ops: trajectories ? kept : unitaryOps }, measured };
}

export function withMeasureAll(c: Circuit): Circuit {
  const copy: Circuit = { ...c, cregs: [...c.cregs], ops: [...c.ops] };
  const reg = addCreg(copy, 'meas', c.numQubits);
  for (let q = 0; q < c.numQubits; q++) copy.ops.push({ kind: 'measure', qubit: q, clbit: reg.offset + q });
  return copy;
}

/** Qiskit's count keys: each register's bits high-to-low, registers last-first, space-separated. */
export function clbitKeyFormatter(c: Circuit): (clbits: Uint8Array) => string {
  const regs = [...c.cregs].reverse();
  return (clbits) => {
    let key = '';
    for (let r = 0; r < regs.length; r++) {
      if (r > 0) key += ' ';
      const reg = regs[r];
      for (let j = reg.size - 1; j >= 0; j--) key += clbits[reg.offset + j] ? '1' : '0';
    }
    return key;
  };
}

/** Samples shots from |amplitude|² with one pass over the state (sorted uniforms). */
function sampleTerminal(
  s: Float64Array,
  n: number,
  measured: Map<number, number>,
  numClbits: number,
  shots: number,
  rng: Rng,
  keyOf: (c: Uint8Array) => string,
): Map<string, number> {
  const draws = new Float64Array(shots);
  for (let i = 0; i < shots; i++) draws[i] = rng.next();
  draws.sort();
  let total = 0;
  for (let i = 0; i < s.length; i++) total += s[i] * s[i];
  const pairs = [...measured.entries()];
  let mask = 0;
  for (const [, q] of pairs) mask |= 2 ** q;
  const byIndex = new Map<number, number>();
  let cumulative = 0;
  let d = 0;
  const size = 1 << n;
  let last = 0;
  for (let i = 0; i < size && d < shots; i++) {
    const p = s[2 * i] * s[2 * i] + s[2 * i + 1] * s[2 * i + 1];
    if (p === 0) continue;
    last = i;
    cumulative += p / total;
    let hits = 0;
    while (d < shots && draws[d] < cumulative) {
      d++;
      hits++;
    }
    if (hits) {
      const key = i & mask;
      byIndex.set(key, (byIndex.get(key) ?? 0) + hits);
    }
  }
  // Rounding can leave the last draws above the final cumulative sum: they belong to the last state.
  if (d < shots) byIndex.set(last & mask, (byIndex.get(last & mask) ?? 0) + (shots - d));
  const counts = new Map<string, number>();
  const clbits = new Uint8Array(numClbits);
  for (const [index, hits] of byIndex) {
    clbits.fill(0);
    for (const [c, q] of pairs) clbits[c] = (index >> q) & 1;
    const key = keyOf(clbits);
    counts.set(key, (counts.get(key) ?? 0) + hits);
  }
  return counts;
}

function runTrajectories(
  program: Program,
  shots: number,
  rng: Rng,
  keyOf: (c: Uint8Array) => string,
  keepLast: boolean,
): { counts: Map<string, number>; state: Float64Array } {
  const n = program.numQubits;
  const first = program.instructions.findIndex((ins) => ins.t === 'measure' || ins.t === 'reset' || ins.cond);
  const prefix = zeroState(n);
  runInstructions(prefix, program, 0, first, new Uint8Array(program.numClbits));
  const work = new Float64Array(prefix.length);
  const clbits = new Uint8Array(program.numClbits);
  const counts = new Map<string, number>();
  for (let shot = 0; shot < shots; shot++) {
    work.set(prefix);
    clbits.fill(0);
    runInstructions(work, program, first, program.instructions.length, clbits, rng);
    const key = keyOf(clbits);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return { counts, state: keepLast ? work : prefix };
}

function amplitudes(s: Float64Array, n: number): [number, number][] {
  const out: [number, number][] = new Array(1 << n);
  const tidy = (v: number): number => (Math.abs(v) < 1e-15 ? 0 : v);
  for (let i = 0; i < 1 << n; i++) out[i] = [tidy(s[2 * i]), tidy(s[2 * i + 1])];
  return out;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(bytes % 1024 ** 3 ? 1 : 0)} GiB`;
  return `${(bytes / 1024 ** 2).toFixed(bytes % 1024 ** 2 ? 1 : 0)} MiB`;
}
