/**
 * The program corpus of issue #20 (libs/circuits/corpus, tests and benchmarks only): real-style
 * Qiskit and Cirq programs, each pair with the distribution it must produce. Expectations are
 * derived without our simulator (closed forms, see libs/circuits/corpus/README.md) or from a
 * hand-written OpenQASM 2 reference that this module simulates.
 *
 * Distances: Hellinger fidelity F = (Σ_x √(p_x q_x))², the Bhattacharyya coefficient squared
 * (the definition qiskit.quantum_info.hellinger_fidelity uses).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCircuit, type ParsedSource } from '../src/convert.js';
import { CircuitError } from '../src/errors.js';
import { expandCircuit, type Circuit, type Operation } from '../src/ir/circuit.js';
import { parseQasm } from '../src/frontends/qasm.parser.js';
import { finalState, simulate } from '../src/simulator/simulate.js';

export type Framework = 'qiskit' | 'cirq';
export const FRAMEWORKS: readonly Framework[] = ['qiskit', 'cirq'];
export type Distribution = Record<string, number>;

export interface Expected {
  derivation: string;
  /** `reversed`: the Cirq program reads its bits big-endian; its bitstring is the Qiskit one reversed. */
  cirq_bits: 'same' | 'reversed';
  entry_point?: string;
  distribution?: Distribution;
  reference_qasm?: string;
  note?: string;
}

export interface CorpusEntry {
  /** `<algorithm>/<name>` */
  id: string;
  algorithm: string;
  name: string;
  sources: Record<Framework, string>;
  expected: Expected;
  /** The expected distribution in Qiskit bit order (from `distribution` or the QASM reference). */
  distribution: Distribution;
}

/** A program is one framework's version of an entry: `<algorithm>/<name>.<framework>`. */
export interface CorpusProgram {
  id: string;
  entry: CorpusEntry;
  framework: Framework;
  source: string;
}

/** Programs the merged front ends still refuse: program id → the exact CircuitError (422) message. */
export type RefusedList = Record<string, string>;

export function corpusDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const root = here.includes('/dist/') ? resolve(here, '../../../..') : resolve(here, '../../..');
  return resolve(root, 'libs/circuits/corpus');
}

export function loadCorpus(dir = corpusDir()): CorpusEntry[] {
  const entries: CorpusEntry[] = [];
  for (const algorithm of readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()) {
    const folder = join(dir, algorithm);
    for (const file of readdirSync(folder)
      .filter((f) => f.endsWith('.expected.json'))
      .sort()) {
      const name = file.slice(0, -'.expected.json'.length);
      const expected = JSON.parse(readFileSync(join(folder, file), 'utf8')) as Expected;
      const sources = { qiskit: readFileSync(join(folder, `${name}.qiskit.py`), 'utf8'), cirq: readFileSync(join(folder, `${name}.cirq.py`), 'utf8') };
      let distribution: Distribution;
      if (expected.distribution) distribution = normalise(expected.distribution);
      else if (expected.reference_qasm) distribution = exactDistribution(parseQasm(readFileSync(join(folder, expected.reference_qasm), 'utf8'), 2).circuit);
      else throw new Error(`${algorithm}/${file} has neither a distribution nor a reference_qasm`);
      entries.push({ id: `${algorithm}/${name}`, algorithm, name, sources, expected, distribution });
    }
  }
  return entries;
}

export function corpusPrograms(entries: CorpusEntry[]): CorpusProgram[] {
  return entries.flatMap((entry) => FRAMEWORKS.map((framework) => ({ id: `${entry.id}.${framework}`, entry, framework, source: entry.sources[framework] })));
}

export function loadRefused(dir = corpusDir()): RefusedList {
  return JSON.parse(readFileSync(join(dir, 'refused.json'), 'utf8')).programs as RefusedList;
}

/** Parse a corpus program, calling its entry point when the expectation names one. */
export function parseProgram(program: CorpusProgram): ParsedSource {
  const entryPoint = program.entry.expected.entry_point;
  return parseCircuit(program.source, entryPoint ? { entryPoint } : {});
}

/** The program's distribution mapped to Qiskit bit order (the corpus convention). */
export function programDistribution(program: CorpusProgram, circuit: Circuit): Distribution {
  const dist = exactDistribution(circuit);
  return program.framework === 'cirq' && program.entry.expected.cirq_bits === 'reversed' ? reverseKeys(dist) : dist;
}

export function hellingerFidelity(p: Distribution, q: Distribution): number {
  let bc = 0;
  for (const [k, v] of Object.entries(p)) bc += Math.sqrt(v * (q[k] ?? 0));
  return bc * bc;
}

export function normalise(dist: Distribution): Distribution {
  const total = Object.values(dist).reduce((a, b) => a + b, 0);
  return Object.fromEntries(Object.entries(dist).map(([k, v]) => [k.replace(/ /g, ''), v / total]));
}

export function reverseKeys(dist: Distribution): Distribution {
  const out: Distribution = {};
  for (const [k, v] of Object.entries(dist)) {
    const r = [...k].reverse().join('');
    out[r] = (out[r] ?? 0) + v;
  }
  return out;
}

const SHOTS = 20_000;

/**
 * The distribution over all classical bits (clbit 0 rightmost, no register separators). Exact
 * (from the state vector) when every measurement is terminal; otherwise sampled from 20 000
 * trajectories with a fixed seed (mid-circuit measurement, conditions, resets).
 */
export function exactDistribution(circuit: Circuit): Distribution {
  const expanded = expandCircuit(circuit);
  const terminal = terminalMeasurements(expanded);
  if (!terminal) return normalise(simulate(circuit, { shots: SHOTS, seed: 20 }).counts);
  const unitary: Circuit = { ...expanded, ops: expanded.ops.filter((op) => op.kind !== 'measure') };
  let measured = terminal;
  let numClbits = expanded.numClbits;
  if (measured.size === 0) {
    measured = new Map(Array.from({ length: expanded.numQubits }, (_, q) => [q, q]));
    numClbits = expanded.numQubits;
  }
  const state = finalState(unitary);
  const dist: Distribution = {};
  const pairs = [...measured.entries()];
  for (let i = 0; i < state.length / 2; i++) {
    const w = state[2 * i] ** 2 + state[2 * i + 1] ** 2;
    if (w < 1e-14) continue;
    const bits = new Array<string>(numClbits).fill('0');
    for (const [clbit, qubit] of pairs) if ((i >> qubit) & 1) bits[numClbits - 1 - clbit] = '1';
    const key = bits.join('');
    dist[key] = (dist[key] ?? 0) + w;
  }
  return dist;
}

/** True when the circuit measures mid-circuit, resets or conditions (a dynamic circuit). */
export function isDynamic(circuit: Circuit): boolean {
  return terminalMeasurements(expandCircuit(circuit)) === undefined;
}

/** clbit → qubit when every measurement is terminal and nothing is conditioned or reset; else undefined. */
function terminalMeasurements(c: Circuit): Map<number, number> | undefined {
  const measured = new Map<number, number>();
  const touchedLater = new Set<number>();
  const qubitsOf = (op: Operation): number[] => (op.kind === 'gate' || op.kind === 'barrier' ? op.qubits : [op.qubit]);
  for (let i = c.ops.length - 1; i >= 0; i--) {
    const op = c.ops[i];
    if (op.kind === 'barrier') continue;
    if (op.kind === 'reset' || ('condition' in op && op.condition)) return undefined;
    if (op.kind === 'measure') {
      if (touchedLater.has(op.qubit) || measured.has(op.clbit)) return undefined;
      measured.set(op.clbit, op.qubit);
    }
    for (const q of qubitsOf(op)) touchedLater.add(q);
  }
  return measured;
}

/** What a refusal looks like in the refused list and the benchmark: the CircuitError message. */
export function refusalMessage(error: unknown): string | undefined {
  return error instanceof CircuitError ? error.message : undefined;
}

/** The construct a refusal names (for grouping): `unsupported construct \`X\`` → X; else the message without its line. */
export function refusalGroup(message: string): string {
  const m = /unsupported construct `([^`]*)`/.exec(message);
  if (!m) return message.replace(/^line \d+: /, '');
  return /^[\d.]+j$/.test(m[1]) ? 'complex literal (…j)' : m[1];
}
