/**
 * Seeded random circuits over the standard gate set, for round-trip tests and benchmarks.
 * Layers of random one- and two-qubit gates; parameters uniform in (−π, π].
 */
import { addCreg, addQreg, emptyCircuit, type Circuit } from './ir/circuit.js';
import { num } from './ir/expr.js';
import { STANDARD_GATES } from './ir/gates.js';
import { createRng } from './simulator/rng.js';

export interface RandomCircuitOptions {
  qubits: number;
  depth: number;
  seed: number;
  /** Gate names to draw from (default: every standard gate on up to 3 qubits). */
  gates?: string[];
  measure?: boolean;
}

/** Device-native gates (gpi, gpi2, ms) are left out of the default pool so existing seeds keep their circuits. */
const DEVICE_NATIVE = new Set(['gpi', 'gpi2', 'ms']);
const DEFAULT_GATES = [...STANDARD_GATES.values()]
  .filter((g) => g.qubits >= 1 && g.qubits <= 3 && g.name !== 'id' && !DEVICE_NATIVE.has(g.name))
  .map((g) => g.name);

export function randomCircuit(options: RandomCircuitOptions): Circuit {
  const rng = createRng(options.seed);
  const names = (options.gates ?? DEFAULT_GATES).filter((n) => (STANDARD_GATES.get(n)?.qubits ?? 99) <= options.qubits);
  const c = emptyCircuit();
  addQreg(c, 'q', options.qubits);
  for (let layer = 0; layer < options.depth; layer++) {
    const free = Array.from({ length: options.qubits }, (_, i) => i);
    while (free.length) {
      const name = names[Math.floor(rng.next() * names.length)];
      const gate = STANDARD_GATES.get(name)!;
      if (gate.qubits > free.length) break;
      const qubits: number[] = [];
      for (let k = 0; k < gate.qubits; k++) qubits.push(free.splice(Math.floor(rng.next() * free.length), 1)[0]);
      c.ops.push({ kind: 'gate', name, qubits, params: Array.from({ length: gate.params }, () => num((rng.next() * 2 - 1) * Math.PI)) });
    }
  }
  if (options.measure) {
    const reg = addCreg(c, 'c', options.qubits);
    for (let q = 0; q < options.qubits; q++) c.ops.push({ kind: 'measure', qubit: q, clbit: reg.offset + q });
  }
  return c;
}
