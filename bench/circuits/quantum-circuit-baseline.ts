/**
 * The npm `quantum-circuit` package (a popular pure-JS simulator) running the same gate sequence
 * as our IR circuit: the baseline of benchmark (b).
 */
import { createRequire } from 'node:module';
import { evalExpr, type Circuit } from '#qdc/circuits';

interface QuantumCircuitLib {
  new (
    qubits: number,
  ): { appendGate(name: string, wires: number | number[], options?: { params: Record<string, string> }): void; run(): void; probabilities(): number[] };
}

const PARAM_NAMES: Record<string, string[]> = { rx: ['theta'], ry: ['theta'], rz: ['phi'], u3: ['theta', 'phi', 'lambda'] };

export function loadQuantumCircuit(): QuantumCircuitLib | null {
  try {
    return createRequire(import.meta.url)('quantum-circuit') as QuantumCircuitLib;
  } catch {
    return null;
  }
}

/** Builds the circuit in quantum-circuit and returns a function that runs it and gives P(qubit = 1). */
export function baselineRunner(Lib: QuantumCircuitLib, circuit: Circuit): () => number[] {
  const qc = new Lib(circuit.numQubits);
  for (const op of circuit.ops) {
    if (op.kind !== 'gate') continue;
    const names = PARAM_NAMES[op.name] ?? [];
    const params = Object.fromEntries(names.map((n, i) => [n, String(evalExpr(op.params[i]))]));
    qc.appendGate(op.name, op.qubits.length === 1 ? op.qubits[0] : op.qubits, names.length ? { params } : undefined);
  }
  return () => {
    qc.run();
    return qc.probabilities();
  };
}
