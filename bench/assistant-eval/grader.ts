/**
 * Grades one assistant answer to one eval task, strictly: the answer's code must be in the
 * framework asked for, define the scaffold's function with the same parameters (when there is a
 * scaffold), and the circuit that function returns (called through libs/circuits' front end with
 * the task's arguments) must pass every check of the task on libs/circuits' simulator.
 */
import { detectFramework, expandCircuit, finalState, parseCircuit, simulate, circuitUnitary, type Circuit, type EntryPointArgs } from '#qdc/circuits';
import type { C, Distribution, Matrix } from './ideal.js';

export type EvalFramework = 'qiskit' | 'cirq';

export const CATEGORIES = [
  'named-states',
  'state-preparation',
  'fourier',
  'grover',
  'oracle-algorithms',
  'phase-estimation',
  'protocols',
  'tests-and-games',
  'decomposition',
  'hamiltonians',
  'arithmetic-and-codes',
  'underspecified',
] as const;
export type Category = (typeof CATEGORIES)[number];

/** What the returned circuit must do. Qubit lists are little-endian: the first listed qubit is the rightmost key character. */
export type Check =
  /** The measured distribution of `qubits` (default: all) has Hellinger fidelity ≥ 0.99 with `ideal`. */
  | { kind: 'distribution'; ideal: Distribution; qubits?: number[] }
  /** `outcomes` together carry at least `min` of the probability of `qubits`. */
  | { kind: 'dominant'; outcomes: string[]; min: number; qubits?: number[] }
  /** `outcomes` are the most likely outcomes of `qubits` (each above every other outcome). */
  | { kind: 'peaks'; outcomes: string[]; qubits?: number[] }
  /** The distribution of `qubits` is uniform over exactly `outcomes` (each within 0.01 of 1/k). */
  | { kind: 'support'; outcomes: string[]; qubits?: number[] }
  /** The state before measurement has fidelity ≥ 0.99 with `amplitudes` (over all the circuit's qubits). */
  | { kind: 'state'; amplitudes: C[] }
  /** The circuit (terminal measurements ignored) implements `matrix` up to global phase (|Tr(T†U)|/d ≥ 0.99), from gates in `basis` when given. */
  | { kind: 'unitary'; matrix: Matrix; basis?: string[] }
  /** The distribution of the classical bits (registers concatenated) has Hellinger fidelity ≥ 0.99 with `ideal`. */
  | { kind: 'clbits'; ideal: Distribution }
  /** The request is missing a parameter or mixes constructs: the answer asks, or says what it assumed. */
  | { kind: 'clarify' };

export interface EvalTask {
  id: string;
  category: Category;
  framework: EvalFramework;
  prompt: string;
  /** The scaffold's function: the answer must define it with `params`, and it is called to get the circuit. */
  entryPoint?: string;
  params?: string[];
  entryPointArgs?: EntryPointArgs;
  checks: Check[];
}

export interface Grade {
  pass: boolean;
  /** Why it failed (first failing requirement). */
  reason?: string;
  /** The answer says it checked its circuit. */
  claimsChecked: boolean;
  /** The answer's code was in another framework than the one asked. */
  wrongFramework: boolean;
}

const FIDELITY = 0.99;

/** The answer's circuit source: the first fenced block holding Python or OpenQASM, or the whole text when it is bare source. */
export function answerCode(text: string): string | undefined {
  const fences = [...text.matchAll(/```([\w+-]*)[^\n]*\n([\s\S]*?)```/g)].map((m) => m[2]);
  const circuit = fences.find((c) => /\b(import|from)\s+(qiskit|cirq)\b|^\s*OPENQASM/m.test(c));
  if (circuit) return circuit;
  if (!fences.length && /^\s*(from|import)\s+(qiskit|cirq)\b/m.test(text)) return text;
  return undefined;
}

/** An answer claims a check when it carries circuit code and says "checked" outside it (a capability note without code is no claim). */
export function claimsChecked(text: string): boolean {
  return answerCode(text) !== undefined && /\bchecked\b/i.test(text.replace(/```[\s\S]*?```/g, ''));
}

export function gradeAnswer(task: EvalTask, text: string): Grade {
  const claims = claimsChecked(text);
  const fail = (reason: string, wrongFramework = false): Grade => ({ pass: false, reason, claimsChecked: claims, wrongFramework });
  if (task.checks.some((c) => c.kind === 'clarify')) {
    const asks = /\?\s*$|\?\s*\n/m.test(text.replace(/```[\s\S]*?```/g, '')) || /\bassum(e|ed|ing|ption)\b/i.test(text);
    return asks ? { pass: true, claimsChecked: claims, wrongFramework: false } : fail('neither asks nor states an assumption');
  }
  const code = answerCode(text);
  if (!code) return fail('no circuit code in the answer');
  let framework: string;
  try {
    framework = detectFramework(code);
  } catch {
    return fail('the code is in no framework QDC reads');
  }
  if (framework !== task.framework) return fail(`answered in ${framework}, asked ${task.framework}`, true);
  if (task.entryPoint) {
    const def = new RegExp(`^def\\s+${task.entryPoint}\\s*\\(([^)]*)\\)`, 'm').exec(code);
    if (!def) return fail(`does not define ${task.entryPoint}()`);
    const params = def[1]
      .split(',')
      .map((p) => p.trim().split(/[:=]/)[0].trim())
      .filter(Boolean);
    if ((task.params ?? []).join(',') !== params.join(','))
      return fail(`${task.entryPoint}(${params.join(', ')}) instead of (${(task.params ?? []).join(', ')})`);
  }
  let circuit: Circuit;
  try {
    circuit = parseCircuit(
      code,
      task.entryPoint ? { entryPoint: task.entryPoint, ...(task.entryPointArgs ? { entryPointArgs: task.entryPointArgs } : {}) } : {},
    ).circuit;
  } catch (error) {
    return fail(`does not parse: ${(error as Error).message}`);
  }
  for (const check of task.checks) {
    const problem = runCheck(check, circuit);
    if (problem) return fail(problem);
  }
  return { pass: true, claimsChecked: claims, wrongFramework: false };
}

function runCheck(check: Check, circuit: Circuit): string | undefined {
  try {
    switch (check.kind) {
      case 'distribution': {
        const d = marginal(circuit, check.qubits);
        if (typeof d === 'string') return d;
        const f = hellinger(d, check.ideal);
        return f >= FIDELITY ? undefined : `distribution fidelity ${f.toFixed(3)} < ${FIDELITY}: got ${top(d)}, expected ${top(check.ideal)}`;
      }
      case 'clbits': {
        const d = clbitDistribution(circuit);
        const f = hellinger(d, check.ideal);
        return f >= FIDELITY ? undefined : `classical-bit fidelity ${f.toFixed(3)}: got ${top(d)}, expected ${top(check.ideal)}`;
      }
      case 'dominant': {
        const d = marginal(circuit, check.qubits);
        if (typeof d === 'string') return d;
        const p = check.outcomes.reduce((s, k) => s + (d[k] ?? 0), 0);
        return p >= check.min ? undefined : `${check.outcomes.join(', ')} carry ${p.toFixed(3)} < ${check.min}: got ${top(d)}`;
      }
      case 'peaks': {
        const d = marginal(circuit, check.qubits);
        if (typeof d === 'string') return d;
        const lowestPeak = Math.min(...check.outcomes.map((k) => d[k] ?? 0));
        const others = Object.entries(d).filter(([k]) => !check.outcomes.includes(k));
        const highestOther = Math.max(0, ...others.map(([, v]) => v));
        return lowestPeak > highestOther + 1e-6 ? undefined : `peaks ${check.outcomes.join(', ')} not the most likely: got ${top(d)}`;
      }
      case 'support': {
        const d = marginal(circuit, check.qubits);
        if (typeof d === 'string') return d;
        const want = 1 / check.outcomes.length;
        const ok = check.outcomes.every((k) => Math.abs((d[k] ?? 0) - want) <= 0.01) && Object.keys(d).every((k) => check.outcomes.includes(k) || d[k] < 1e-3);
        return ok ? undefined : `not uniform over ${check.outcomes.join(', ')}: got ${top(d)}`;
      }
      case 'state': {
        const state = unitaryPart(circuit);
        if (typeof state === 'string') return state;
        const s = finalState(state);
        if (s.length !== 2 * check.amplitudes.length) return `the circuit has ${state.numQubits} qubits; the state has ${Math.log2(check.amplitudes.length)}`;
        let re = 0;
        let im = 0;
        check.amplitudes.forEach(([ar, ai], i) => {
          re += ar * s[2 * i] + ai * s[2 * i + 1];
          im += ar * s[2 * i + 1] - ai * s[2 * i];
        });
        const f = re * re + im * im;
        return f >= FIDELITY ? undefined : `state fidelity ${f.toFixed(3)} < ${FIDELITY}`;
      }
      case 'unitary': {
        const unitary = unitaryPart(circuit);
        if (typeof unitary === 'string') return unitary;
        const d = check.matrix.length;
        if (1 << unitary.numQubits !== d) return `the circuit has ${unitary.numQubits} qubits; the target acts on ${Math.log2(d)}`;
        if (check.basis) {
          const used = new Set(expandCircuit(unitary).ops.flatMap((op) => (op.kind === 'gate' ? [op.controls ? `c${op.name}` : op.name] : [])));
          const outside = [...used].filter((g) => !check.basis!.includes(g));
          if (outside.length) return `uses ${outside.join(', ')} outside the allowed ${check.basis.join(', ')}`;
        }
        const columns = circuitUnitary(unitary);
        let re = 0;
        let im = 0;
        for (let k = 0; k < d; k++)
          for (let i = 0; i < d; i++) {
            const [tr, ti] = check.matrix[i][k];
            re += tr * columns[k][2 * i] + ti * columns[k][2 * i + 1];
            im += tr * columns[k][2 * i + 1] - ti * columns[k][2 * i];
          }
        const f = Math.hypot(re, im) / d;
        return f >= FIDELITY ? undefined : `unitary fidelity ${f.toFixed(3)} < ${FIDELITY}`;
      }
      case 'clarify':
        return undefined;
    }
  } catch (error) {
    return `could not be simulated: ${(error as Error).message}`;
  }
}

/** The circuit without its terminal measurements, or why it has none (mid-circuit measurement, reset, conditions). */
function unitaryPart(circuit: Circuit): Circuit | string {
  const expanded = expandCircuit(circuit);
  const ops = expanded.ops.filter((op) => op.kind !== 'barrier');
  let seenMeasure = false;
  for (const op of ops) {
    if (op.kind === 'reset' || ('condition' in op && op.condition)) return 'the circuit resets or conditions on measurements; no unitary part';
    if (op.kind === 'measure') seenMeasure = true;
    else if (seenMeasure && op.kind === 'gate') {
      const measured = new Set(ops.filter((o) => o.kind === 'measure').map((o) => (o as { qubit: number }).qubit));
      if (op.qubits.some((q) => measured.has(q))) return 'a gate acts on a measured qubit after its measurement';
    }
  }
  return { ...expanded, ops: expanded.ops.filter((op) => op.kind === 'gate') };
}

/** Distribution of the listed qubits (all by default), each of which the circuit must measure. */
function marginal(circuit: Circuit, qubits?: number[]): Distribution | string {
  const expanded = expandCircuit(circuit);
  const list = qubits ?? Array.from({ length: expanded.numQubits }, (_, i) => i);
  if (list.some((q) => q >= expanded.numQubits)) return `the circuit has ${expanded.numQubits} qubits; qubit ${Math.max(...list)} is graded`;
  const lastMeasure = new Map<number, number>();
  for (const op of expanded.ops) if (op.kind === 'measure') lastMeasure.set(op.qubit, op.clbit);
  const unmeasured = list.filter((q) => !lastMeasure.has(q));
  if (unmeasured.length) return `qubit${unmeasured.length > 1 ? 's' : ''} ${unmeasured.join(', ')} not measured`;
  const unitary = unitaryPart(circuit);
  if (typeof unitary !== 'string') {
    const s = finalState(unitary);
    const out: Distribution = {};
    for (let i = 0; i < s.length / 2; i++) {
      const p = s[2 * i] ** 2 + s[2 * i + 1] ** 2;
      if (p < 1e-14) continue;
      const k = list
        .map((q) => String((i >> q) & 1))
        .reverse()
        .join('');
      out[k] = (out[k] ?? 0) + p;
    }
    return out;
  }
  // Mid-circuit measurement: sample, then read each graded qubit's last classical bit.
  const result = simulate(circuit, { shots: 20_000, seed: 11 });
  const out: Distribution = {};
  for (const [bits, n] of Object.entries(result.counts)) {
    const flat = bits.replace(/ /g, '');
    const k = list
      .map((q) => flat[flat.length - 1 - lastMeasure.get(q)!])
      .reverse()
      .join('');
    out[k] = (out[k] ?? 0) + n / result.shots;
  }
  return out;
}

function clbitDistribution(circuit: Circuit): Distribution {
  const result = simulate(circuit, { shots: 20_000, seed: 11 });
  const out: Distribution = {};
  for (const [bits, n] of Object.entries(result.counts)) out[bits.replace(/ /g, '')] = (out[bits.replace(/ /g, '')] ?? 0) + n / result.shots;
  return out;
}

export function hellinger(p: Distribution, q: Distribution): number {
  const total = (d: Distribution) => Object.values(d).reduce((s, v) => s + v, 0) || 1;
  const tp = total(p);
  const tq = total(q);
  let bc = 0;
  for (const [k, v] of Object.entries(p)) bc += Math.sqrt((v / tp) * ((q[k] ?? 0) / tq));
  return bc * bc;
}

function top(d: Distribution): string {
  const entries = Object.entries(d).sort((a, b) => b[1] - a[1]);
  return `{${entries
    .slice(0, 4)
    .map(([k, v]) => `${k}: ${v.toFixed(3)}`)
    .join(', ')}${entries.length > 4 ? ', …' : ''}}`;
}
