/**
 * Claims a request makes about its circuit that can be tested on the answer, read from the text
 * itself (not from the template chosen for it): what is measured, how many qubits, and the
 * answer's own shape. Each becomes one line of the answer's closing paragraph, with its figure.
 */
import { circuitUnitary, expandCircuit, type Circuit } from '#qdc/circuits';
import type { CircuitTask } from './circuit-task.js';

export type MeasurementClaim = { kind: 'none' } | { kind: 'all' } | { kind: 'only'; qubits: number[] };

export function measurementClaim(text: string): MeasurementClaim | undefined {
  if (
    /\b(no|without)\s+(any\s+)?(final\s+)?measurements?\b|\bdo\s*n[o']t\s+measure\b|\bwithout\s+measuring\b|\bno\s+measure\b|\bnot\s+be\s+measured\b/i.test(
      text,
    )
  )
    return { kind: 'none' };
  const range = /\bmeasure\s+(?:only\s+)?(?:the\s+)?(?:qubits?\s*|q)(\d+)\s*(?:-|–|\.\.|to)\s*(?:q)?(\d+)\b/i.exec(text);
  if (range && Number(range[2]) > Number(range[1]) && Number(range[2]) < 64)
    return { kind: 'only', qubits: Array.from({ length: Number(range[2]) - Number(range[1]) + 1 }, (_, i) => Number(range[1]) + i) };
  const only = /\bmeasure\s+only\s+(?:qubit\s*|q)(\d+)\b|\bmeasure\s+(?:qubit\s*|q)(\d+)(?:\s+only)?\b(?!\s*(?:,|and|-|–|\.\.|to)\s*(?:qubit\s*|q)?\d)/i.exec(
    text,
  );
  if (only) return { kind: 'only', qubits: [Number(only[1] ?? only[2])] };
  if (/\bmeasure\s+(all|every(thing)?|both)\b|\bmeasure_all\b|\bmeasur(e|ing)\s+all\s+(the\s+)?qubits\b|\ball qubits measured\b/i.test(text))
    return { kind: 'all' };
  return undefined;
}

/** The total qubit count a request states, for the kinds whose circuit has no ancilla. */
export function statedQubits(task: CircuitTask, stated: number | undefined): number | undefined {
  if (stated === undefined) return undefined;
  if (task.kind === 'ghz' || task.kind === 'w' || task.kind === 'uniform' || task.kind === 'grover' || task.kind === 'qft' || task.kind === 'ansatz')
    return stated;
  if (task.kind === 'deutsch-jozsa' || task.kind === 'bernstein-vazirani') return stated + 1;
  return undefined;
}

/** Qubits the circuit measures (last measurement of each), in qubit order. */
export function measuredQubits(circuit: Circuit): number[] {
  const expanded = expandCircuit(circuit);
  return [...new Set(expanded.ops.flatMap((op) => (op.kind === 'measure' ? [op.qubit] : [])))].sort((a, b) => a - b);
}

/** One tested claim: what it says (with its figure) and whether it held. */
export interface ClaimCheck {
  ok: boolean;
  text: string;
}

export function checkMeasurement(circuit: Circuit, claim: MeasurementClaim): ClaimCheck {
  const measured = measuredQubits(circuit);
  const n = circuit.numQubits;
  const list = (qs: number[]) => (qs.length ? `qubit${qs.length > 1 ? 's' : ''} ${qs.join(', ')}` : 'no qubit');
  switch (claim.kind) {
    case 'none':
      return {
        ok: measured.length === 0,
        text: measured.length ? `it measures ${list(measured)} although the request asked for no measurement` : 'no measurement, as asked',
      };
    case 'all':
      return {
        ok: measured.length === n,
        text: measured.length === n ? `all ${n} qubits measured, as asked` : `only ${list(measured)} of ${n} measured, although the request asked for all`,
      };
    case 'only': {
      const ok = measured.length === claim.qubits.length && claim.qubits.every((q) => measured.includes(q));
      return {
        ok,
        text: ok ? `only ${list(claim.qubits)} measured, as asked` : `it measures ${list(measured)}; the request asked for ${list(claim.qubits)} only`,
      };
    }
  }
}

export function checkQubitCount(circuit: Circuit, expected: number): ClaimCheck {
  const ok = circuit.numQubits === expected;
  return { ok, text: ok ? `${expected} qubits, as the request states` : `${circuit.numQubits} qubits, but the request implies ${expected}` };
}

/** The circuit is the n-qubit QFT (or its inverse), |x⟩ ↦ Σ_k e^{±2πi·xk/N}|k⟩/√N, up to global phase: |Tr(F†U)|/N. */
export function checkFourierUnitary(circuit: Circuit, n: number, inverse: boolean, threshold: number): ClaimCheck {
  if (circuit.numQubits !== n) return { ok: false, text: `${circuit.numQubits} qubits where the ${n}-qubit QFT was asked` };
  const N = 1 << n;
  const columns = circuitUnitary(circuit);
  let re = 0;
  let im = 0;
  for (let x = 0; x < N; x++)
    for (let k = 0; k < N; k++) {
      const angle = ((inverse ? -2 : 2) * Math.PI * x * k) / N;
      // conj(F[k][x]) · U[k][x]
      const fr = Math.cos(angle) / Math.sqrt(N);
      const fi = -Math.sin(angle) / Math.sqrt(N);
      re += fr * columns[x][2 * k] - fi * columns[x][2 * k + 1];
      im += fr * columns[x][2 * k + 1] + fi * columns[x][2 * k];
    }
  const fidelity = Math.hypot(re, im) / N;
  return {
    ok: fidelity >= threshold,
    text: `its unitary is the ${n}-qubit ${inverse ? 'inverse ' : ''}QFT matrix, computed from its definition (|Tr(F†U)|/N = ${fidelity.toFixed(4)}, threshold ${threshold})`,
  };
}
