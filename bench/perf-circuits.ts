/**
 * `npm run bench:circuits` — performance of libs/circuits, each number next to a baseline
 * measured in the same run:
 *  (a) effective GB/s of one single-qubit gate on a 24-qubit state (read + write of the whole
 *      vector) vs a plain typed-array copy of the same size (memory-bandwidth baseline; target ≥ 0.4)
 *  (b) identical random circuits (depth 20, 12–22 qubits) in our simulator vs the npm
 *      `quantum-circuit` package (target ≥ 10× faster; sizes it cannot finish in budget are skipped)
 *  (c) parse + emit throughput of a 10 000-gate OpenQASM 2 file (gates/s, MB/s)
 *  (d) exact synthesis of seeded Haar-random 2–5-qubit unitaries (KAK / quantum Shannon
 *      decomposition) vs the unitary simulation of the circuit it produced, and of random 8- and
 *      12-qubit state preparations vs the statevector simulation of theirs; CX counts alongside
 *  (e) the real-style program corpus (libs/circuits/corpus): pass rate, refused constructs,
 *      parse time per program vs parsing the same circuit as OpenQASM 3
 */
import { applyDense1, createRng, emitQasm2, emitQasm3, emitQiskit, finalState, parseCircuit, randomCircuit, type Circuit } from '#qdc/circuits';
import { addQreg, circuitUnitary, emptyCircuit, haarUnitary, synthesizeStatePreparation, synthesizeUnitary, type Complex } from '#qdc/circuits';
import { baselineRunner, loadQuantumCircuit } from './circuits/quantum-circuit-baseline.js';
import { benchCorpus } from './circuits/corpus-bench.js';

const rows: string[][] = [];
const report = (metric: string, value: string, baseline: string, ratio: string, target: string, pass: boolean | null) =>
  rows.push([metric, value, baseline, ratio, target, pass === null ? 'n/a' : pass ? 'PASS' : 'FAIL']);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function time(fn: () => void, repeats: number): number {
  const samples: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  return median(samples);
}

function benchGateBandwidth(): void {
  const n = 24;
  const state = new Float64Array(2 << n);
  const copy = new Float64Array(2 << n);
  const rng = createRng(1);
  for (let i = 0; i < state.length; i++) state[i] = rng.next() - 0.5;
  // A random unitary (rx·rz), so no kernel shortcut applies.
  const t = 0.7;
  const c = Math.cos(t / 2),
    s = Math.sin(t / 2);
  const m = new Float64Array([c, 0, 0, -s, 0, -s, c, 0]);
  const bytes = 2 * state.byteLength; // each amplitude read once and written once
  applyDense1(state, n, 3, m); // warm up the JIT
  copy.set(state);
  const qubits = [0, 1, 7, 15, 23];
  const gateMs = median(qubits.map((q) => time(() => applyDense1(state, n, q, m), 5)));
  const copyMs = time(() => copy.set(state), 7);
  const gate = bytes / gateMs / 1e6;
  const base = bytes / copyMs / 1e6;
  report('(a) 1-qubit gate, 24 qubits (GB/s)', gate.toFixed(2), `copy ${base.toFixed(2)}`, (gate / base).toFixed(2), '≥ 0.4', gate / base >= 0.4);
  console.log(`(a) gate ${gateMs.toFixed(1)} ms per application (median over qubits ${qubits.join(', ')}), copy ${copyMs.toFixed(1)} ms, 512 MiB moved`);
}

function marginals(c: Circuit, state: Float64Array): number[] {
  const p = new Array(c.numQubits).fill(0);
  for (let i = 0; i < state.length / 2; i++) {
    const w = state[2 * i] ** 2 + state[2 * i + 1] ** 2;
    for (let q = 0; q < c.numQubits; q++) if ((i >> q) & 1) p[q] += w;
  }
  return p;
}

function benchVersusQuantumCircuit(): void {
  const Lib = loadQuantumCircuit();
  if (!Lib) {
    report('(b) vs quantum-circuit', 'skipped', 'package not installed', '', '≥ 10×', null);
    return;
  }
  const budgetMs = Number(process.env.BENCH_BASELINE_BUDGET_MS ?? 60_000);
  let skipRest = false;
  for (const n of [12, 14, 16, 18, 20, 22]) {
    const circuit = randomCircuit({ qubits: n, depth: 20, seed: 100 + n, gates: ['h', 'x', 't', 's', 'rx', 'ry', 'rz', 'cx', 'cz'] });
    const gates = circuit.ops.length;
    const ours = time(() => finalState(circuit), n >= 20 ? 3 : 5);
    if (skipRest) {
      report(`(b) depth 20, ${n} qubits (${gates} gates)`, `${ours.toFixed(1)} ms`, 'skipped (too slow)', '', '≥ 10×', null);
      continue;
    }
    const run = baselineRunner(Lib, circuit);
    const t0 = performance.now();
    const theirs = run();
    const baseMs = performance.now() - t0;
    const agree = marginals(circuit, finalState(circuit)).every((p, q) => Math.abs(p - theirs[q]) < 1e-6);
    const ratio = baseMs / ours;
    report(
      `(b) depth 20, ${n} qubits (${gates} gates)`,
      `${ours.toFixed(1)} ms`,
      `${baseMs.toFixed(0)} ms${agree ? '' : ' (DISAGREE)'}`,
      `${ratio.toFixed(1)}×`,
      '≥ 10×',
      ratio >= 10 && agree,
    );
    if (baseMs * 4 > budgetMs) skipRest = true; // the next size costs ~4× as much
  }
}

function benchParseEmit(): void {
  // 10 000 gates: stacked random layers on 20 qubits.
  const big = randomCircuit({ qubits: 20, depth: 1, seed: 5 });
  let seed = 6;
  while (big.ops.length < 10_000) big.ops.push(...randomCircuit({ qubits: 20, depth: 1, seed: seed++ }).ops);
  big.ops.length = 10_000;
  const source = emitQasm2(big);
  const mb = Buffer.byteLength(source) / 1e6;
  parseCircuit(source); // warm up
  const parseMs = time(() => parseCircuit(source), 7);
  const parsed = parseCircuit(source).circuit;
  const emit3Ms = time(() => emitQasm3(parsed), 7);
  const emitQiskitMs = time(() => emitQiskit(parsed), 7);
  const roundMs = parseMs + emit3Ms;
  report('(c) parse 10 000-gate QASM 2', `${(10_000 / parseMs).toFixed(0)} kgates/s`, `${(mb / (parseMs / 1000)).toFixed(1)} MB/s`, '', '', null);
  report('(c) emit OpenQASM 3', `${(10_000 / emit3Ms).toFixed(0)} kgates/s`, '', '', '', null);
  report('(c) emit Qiskit', `${(10_000 / emitQiskitMs).toFixed(0)} kgates/s`, '', '', '', null);
  report('(c) parse + emit (QASM 2 → 3)', `${roundMs.toFixed(1)} ms`, `${(mb / (roundMs / 1000)).toFixed(1)} MB/s`, '', '', null);
}

function benchSynthesis(): void {
  const asCircuit = (n: number, synthesis: { ops: Circuit['ops']; globalPhase: number }): Circuit => {
    const c = emptyCircuit();
    addQreg(c, 'q', n);
    c.ops = synthesis.ops;
    c.globalPhase = synthesis.globalPhase;
    return c;
  };
  const cxOf = (c: Circuit) => c.ops.filter((op) => op.kind === 'gate' && op.name === 'cx').length;
  for (const n of [2, 3, 4, 5]) {
    // A fresh matrix per repeat: synthesizeUnitary reuses the result for a matrix it has just seen.
    const repeats = n >= 5 ? 3 : 5;
    const matrices = Array.from({ length: repeats + 1 }, (_, i) => haarUnitary(n, createRng(500 + 10 * n + i)));
    synthesizeUnitary(matrices[repeats]); // warm up
    let next = 0;
    const ms = time(() => synthesizeUnitary(matrices[next++]), repeats);
    const circuit = asCircuit(n, synthesizeUnitary(matrices[0]));
    const simMs = time(() => circuitUnitary(circuit), 5);
    report(
      `(d) synthesize Haar ${n}-qubit unitary (${cxOf(circuit)} CX, ${circuit.ops.length} gates)`,
      `${ms.toFixed(2)} ms`,
      `unitary sim ${simMs.toFixed(2)} ms`,
      `${(ms / simMs).toFixed(1)}×`,
      '',
      null,
    );
  }
  for (const n of [8, 12]) {
    const rng = createRng(900 + n);
    const amplitudes = Array.from({ length: 1 << n }, (): Complex => [rng.next() - 0.5, rng.next() - 0.5]);
    synthesizeStatePreparation(amplitudes);
    const ms = time(() => synthesizeStatePreparation(amplitudes), 3);
    const circuit = asCircuit(n, synthesizeStatePreparation(amplitudes));
    const simMs = time(() => finalState(circuit), 5);
    report(
      `(d) prepare random ${n}-qubit state (${cxOf(circuit)} CX, ${circuit.ops.length} gates)`,
      `${ms.toFixed(2)} ms`,
      `statevector sim ${simMs.toFixed(2)} ms`,
      `${(ms / simMs).toFixed(1)}×`,
      '',
      null,
    );
  }
}

function printTable(): void {
  const header = ['metric', 'value', 'baseline', 'ratio', 'target', 'result'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(`\n${line(header)}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
}

const only = process.argv[2];
if (!only || only === 'a') benchGateBandwidth();
if (!only || only === 'b') benchVersusQuantumCircuit();
if (!only || only === 'c') benchParseEmit();
if (!only || only === 'd') benchSynthesis();
if (!only || only === 'e') benchCorpus(report);
printTable();
