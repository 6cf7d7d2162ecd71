/**
 * (e) of `npm run bench:circuits`: the real-style program corpus of issue #20
 * (libs/circuits/corpus). Pass = the program parses, simulates to its expected distribution
 * (Hellinger fidelity ≥ 0.99) and keeps it through the Qiskit, Cirq, OpenQASM 2 and 3 emitters.
 * Parse time per program (median of 5 runs each; median and p95 over programs) is set against
 * parsing the same circuit written as OpenQASM 3 (our own emitter's output) in the same run.
 */
import { emitCircuit, parseCircuit, type Circuit } from '#qdc/circuits';
import {
  corpusPrograms,
  exactDistribution,
  hellingerFidelity,
  loadCorpus,
  parseProgram,
  programDistribution,
  refusalGroup,
  refusalMessage,
} from '../../libs/circuits/test/corpus.js';

type Report = (metric: string, value: string, baseline: string, ratio: string, target: string, pass: boolean | null) => void;

const TARGETS = ['qiskit', 'cirq', 'openqasm2', 'openqasm3'] as const;

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

function timed(fn: () => unknown, repeats = 5): number {
  const samples: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  return quantile(samples, 0.5);
}

export function benchCorpus(report: Report): void {
  const programs = corpusPrograms(loadCorpus());
  const refused = new Map<string, string[]>();
  const failures: string[] = [];
  const parseMs: number[] = [];
  const qasmMs: number[] = [];
  const ratios: number[] = [];
  const passed = { qiskit: 0, cirq: 0 };
  const totals = { qiskit: 0, cirq: 0 };
  for (const program of programs) {
    totals[program.framework]++;
    let circuit: Circuit;
    try {
      circuit = parseProgram(program).circuit;
    } catch (error) {
      const message = refusalMessage(error) ?? `crash: ${String(error)}`;
      const group = refusalGroup(message);
      refused.set(group, [...(refused.get(group) ?? []), program.id]);
      continue;
    }
    const dist = exactDistribution(circuit);
    let ok = hellingerFidelity(programDistribution(program, circuit), program.entry.distribution) >= 0.99;
    if (!ok) failures.push(`${program.id}: wrong distribution`);
    for (const target of TARGETS) {
      if (!ok) break;
      try {
        ok = hellingerFidelity(exactDistribution(parseCircuit(emitCircuit(circuit, target)).circuit), dist) >= 0.99;
        if (!ok) failures.push(`${program.id}: ${target} round trip changes the distribution`);
      } catch (error) {
        ok = false;
        failures.push(`${program.id}: ${target} round trip: ${String(error)}`);
      }
    }
    if (ok) passed[program.framework]++;
    const qasm = emitCircuit(circuit, 'openqasm3');
    const ours = timed(() => parseProgram(program));
    const base = timed(() => parseCircuit(qasm));
    parseMs.push(ours);
    qasmMs.push(base);
    ratios.push(ours / base);
  }
  const total = programs.length;
  const pass = passed.qiskit + passed.cirq;
  report('(e) corpus pass rate', `${pass}/${total} (${((100 * pass) / total).toFixed(1)} %)`, '', '', '100 %', pass === total);
  for (const fw of ['qiskit', 'cirq'] as const)
    report(`(e) corpus pass rate, ${fw}`, `${passed[fw]}/${totals[fw]}`, '', '', '100 %', passed[fw] === totals[fw]);
  if (parseMs.length) {
    report(
      `(e) parse time per program (median, ${parseMs.length} parsed)`,
      `${quantile(parseMs, 0.5).toFixed(2)} ms`,
      `QASM 3 ${quantile(qasmMs, 0.5).toFixed(2)} ms`,
      `${quantile(ratios, 0.5).toFixed(1)}×`,
      '',
      null,
    );
    report(
      '(e) parse time per program (p95)',
      `${quantile(parseMs, 0.95).toFixed(2)} ms`,
      `QASM 3 ${quantile(qasmMs, 0.95).toFixed(2)} ms`,
      `${quantile(ratios, 0.95).toFixed(1)}× (p95 of ratios)`,
      '',
      null,
    );
  }
  console.log(
    `\n(e) corpus: ${total} programs, ${pass} pass, ${total - pass - failures.length} refused by the front ends, ${failures.length} parsed but failed`,
  );
  for (const f of failures) console.log(`  FAIL ${f}`);
  const groups = [...refused.entries()].sort((a, b) => b[1].length - a[1].length);
  if (groups.length) {
    console.log('\n| refused construct (422) | programs | examples |\n|---|---|---|');
    for (const [group, ids] of groups)
      console.log(`| ${group.replace(/\|/g, '\\|')} | ${ids.length} | ${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', …' : ''} |`);
  }
}
