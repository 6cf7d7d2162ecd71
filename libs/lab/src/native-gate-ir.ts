import { CircuitError, evalExpr, num, type Circuit } from '#qdc/circuits';
import type { NativeGateIR } from '#qdc/contracts';

/**
 * Compiled native circuits ⇄ NativeGateIR (SPEC §6), the JSON a lab executor reads: gates with numeric
 * parameters (radians) on physical qubits, then terminal measurements `{qubit, clbit}`. A lab device
 * measures once, at the end: resets, conditions and gates after a measurement are refused at submission.
 */
export function toNativeGateIR(circuit: Circuit, shots: number): NativeGateIR {
  const gates: NativeGateIR['gates'] = [];
  const measurements: NativeGateIR['measurements'] = [];
  for (const op of circuit.ops) {
    if (op.kind === 'barrier') continue;
    if (op.kind === 'reset') throw new CircuitError('unsupported', 'lab devices take circuits without resets (NativeGateIR has terminal measurements only)');
    if (op.condition) throw new CircuitError('unsupported', 'lab devices take circuits without classically conditioned operations');
    if (op.kind === 'measure') {
      measurements.push({ qubit: op.qubit, clbit: op.clbit });
      continue;
    }
    if (measurements.some((m) => op.qubits.includes(m.qubit)))
      throw new CircuitError('unsupported', `gate ${op.name} acts on a measured qubit; lab devices measure once, at the end`);
    if (op.controls) throw new CircuitError('unsupported', `gate ${op.name} has extra controls; a compiled circuit should not`);
    gates.push({ gate: op.name, qubits: [...op.qubits], params: op.params.map((p) => evalExpr(p)) });
  }
  return { version: 1, num_qubits: circuit.numQubits, num_clbits: circuit.numClbits, gates, measurements, shots };
}

/** The IR as a circuit of the circuits library (one classical register `c`), for `--simulate`. */
export function fromNativeGateIR(ir: NativeGateIR): Circuit {
  return {
    numQubits: ir.num_qubits,
    numClbits: ir.num_clbits,
    qregs: [{ name: 'q', size: ir.num_qubits, offset: 0 }],
    cregs: ir.num_clbits ? [{ name: 'c', size: ir.num_clbits, offset: 0 }] : [],
    definitions: new Map(),
    ops: [
      ...ir.gates.map((g) => ({ kind: 'gate' as const, name: g.gate, qubits: [...g.qubits], params: g.params.map((p) => num(p)) })),
      ...ir.measurements.map((m) => ({ kind: 'measure' as const, qubit: m.qubit, clbit: m.clbit })),
    ],
    globalPhase: 0,
  };
}

/**
 * A node's counts (bitstrings of `num_clbits` characters, clbit 0 rightmost) keyed like the simulator's
 * counts of the submitted circuit (registers separated by spaces, the first register rightmost).
 * Throws a message naming the bad key or total.
 */
export function countsForCircuit(counts: Record<string, number>, circuit: Circuit, shots: number): Record<string, number> {
  const width = circuit.numClbits;
  const registers = circuit.cregs.length ? circuit.cregs : [{ name: 'c', size: width, offset: 0 }];
  const out: Record<string, number> = {};
  let total = 0;
  for (const [key, count] of Object.entries(counts)) {
    const bits = key.replace(/[\s_]/g, '');
    if (bits.length !== width || !/^[01]*$/.test(bits)) throw new Error(`counts key '${key}' is not a bitstring of ${width} classical bit(s)`);
    if (!Number.isInteger(count) || count < 0) throw new Error(`count of '${key}' is not a non-negative integer: ${count}`);
    // bits[width - 1 - i] is clbit i.
    const keyOut = [...registers]
      .reverse()
      .map((r) => Array.from({ length: r.size }, (_, i) => bits[width - 1 - (r.offset + r.size - 1 - i)]).join(''))
      .join(' ');
    out[keyOut] = (out[keyOut] ?? 0) + count;
    total += count;
  }
  if (total !== shots) throw new Error(`counts sum to ${total}, expected ${shots} shots`);
  return out;
}
