/**
 * Resource counts of a circuit (custom gates inlined first): qubits, clbits, depth (the longest
 * path through qubit and clbit wires, barriers excluded, as Qiskit counts it), gate counts by
 * name, two-qubit and larger gate counts, T-count (t + tdg) and measurements.
 */
import { expandCircuit, type Circuit } from '../ir/circuit.js';

export interface CircuitResources {
  qubitCount: number;
  clbitCount: number;
  depth: number;
  gateCounts: Record<string, number>;
  /** Unitary gates (not measure, reset or barrier). */
  gateCount: number;
  twoQubitGateCount: number;
  multiQubitGateCount: number;
  tCount: number;
  measurementCount: number;
  resetCount: number;
}

export function estimateResources(circuit: Circuit): CircuitResources {
  const c = expandCircuit(circuit);
  const level = new Int32Array(c.numQubits + c.numClbits);
  const counts: Record<string, number> = {};
  let depth = 0;
  let gateCount = 0;
  let two = 0;
  let multi = 0;
  let t = 0;
  let measurements = 0;
  let resets = 0;
  for (const op of c.ops) {
    let name: string;
    let wires: number[];
    if (op.kind === 'barrier') {
      counts.barrier = (counts.barrier ?? 0) + 1;
      continue;
    }
    if (op.kind === 'gate') {
      name = `${'c'.repeat(op.controls ?? 0)}${op.name}`;
      wires = [...op.qubits];
      if (op.qubits.length === 0) {
        counts[name] = (counts[name] ?? 0) + 1;
        continue;
      }
      gateCount++;
      if (op.qubits.length === 2) two++;
      if (op.qubits.length > 2) multi++;
      if (!op.controls && (op.name === 't' || op.name === 'tdg')) t++;
    } else if (op.kind === 'measure') {
      name = 'measure';
      wires = [op.qubit, c.numQubits + op.clbit];
      measurements++;
    } else {
      name = 'reset';
      wires = [op.qubit];
      resets++;
    }
    if (op.condition) wires.push(...op.condition.clbits.map((b) => c.numQubits + b));
    counts[name] = (counts[name] ?? 0) + 1;
    let start = 0;
    for (const w of wires) start = Math.max(start, level[w]);
    for (const w of wires) level[w] = start + 1;
    depth = Math.max(depth, start + 1);
  }
  return {
    qubitCount: c.numQubits,
    clbitCount: c.numClbits,
    depth,
    gateCounts: counts,
    gateCount,
    twoQubitGateCount: two,
    multiQubitGateCount: multi,
    tCount: t,
    measurementCount: measurements,
    resetCount: resets,
  };
}
