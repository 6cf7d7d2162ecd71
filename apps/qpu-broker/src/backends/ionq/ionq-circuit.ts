import { CircuitError, evalExpr, type Circuit } from '#qdc/circuits';

/**
 * Compiled native circuits ⇄ IonQ's v0.3 job input (docs.ionq.com/api-reference/v0.3, "Using native gates
 * with the IonQ API"): `{format: "ionq.circuit.v0", gateset: "native", qubits, circuit: [...]}` with
 * `gpi`/`gpi2` (`target`, `phase`) and `ms` (`targets`, `phases`, `angle`); IonQ's angles are in turns
 * (1 turn = 2π), ours in radians. IonQ measures every qubit at the end and returns, per basis state
 * (an integer, qubit 0 the least significant bit), a probability.
 */
export interface IonqNativeInput {
  format: 'ionq.circuit.v0';
  gateset: 'native';
  qubits: number;
  circuit: ({ gate: 'gpi' | 'gpi2'; target: number; phase: number } | { gate: 'ms'; targets: [number, number]; phases: [number, number]; angle: number })[];
}

const TURN = 2 * Math.PI;
const turns = (radians: number): number => {
  const t = radians / TURN;
  return Math.round((t - Math.floor(t)) * 1e12) / 1e12;
};

/** The compiled circuit as IonQ input plus where each classical bit comes from. */
export function toIonqInput(circuit: Circuit): { input: IonqNativeInput; measurements: { qubit: number; clbit: number }[] } {
  const gates: IonqNativeInput['circuit'] = [];
  const measurements: { qubit: number; clbit: number }[] = [];
  for (const op of circuit.ops) {
    if (op.kind === 'barrier') continue;
    if (op.kind === 'measure') {
      measurements.push({ qubit: op.qubit, clbit: op.clbit });
      continue;
    }
    if (op.kind === 'reset' || op.condition) throw new CircuitError('unsupported', 'IonQ jobs cannot reset qubits or condition gates on measurements');
    if (measurements.some((m) => op.qubits.includes(m.qubit)))
      throw new CircuitError('unsupported', 'IonQ measures every qubit once, at the end; this circuit acts on a measured qubit');
    const p = op.params.map((e) => evalExpr(e));
    if (op.name === 'gpi' || op.name === 'gpi2') gates.push({ gate: op.name, target: op.qubits[0]!, phase: turns(p[0]!) });
    else if (op.name === 'ms')
      gates.push({
        gate: 'ms',
        targets: [op.qubits[0]!, op.qubits[1]!],
        phases: [turns(p[0]!), turns(p[1]!)],
        angle: Math.round((p[2]! / TURN) * 1e12) / 1e12,
      });
    else throw new CircuitError('unsupported', `gate ${op.name} is not one of IonQ's native gates (gpi, gpi2, ms)`);
  }
  return { input: { format: 'ionq.circuit.v0', gateset: 'native', qubits: circuit.numQubits, circuit: gates }, measurements };
}

/**
 * IonQ's probabilities as counts summing to `shots` (largest remainder), keyed like the simulator's
 * counts: classical bit 0 rightmost, registers separated by spaces, the first register rightmost.
 */
export function countsFromHistogram(
  histogram: Record<string, number>,
  circuit: Circuit,
  measurements: { qubit: number; clbit: number }[],
  shots: number,
): Record<string, number> {
  const byKey = new Map<string, number>();
  for (const [state, probability] of Object.entries(histogram)) {
    const index = Number(state);
    if (!Number.isInteger(index) || index < 0 || !(probability >= 0)) throw new Error(`IonQ result has an unexpected entry ${state}: ${probability}`);
    const clbits = new Array<number>(circuit.numClbits).fill(0);
    for (const m of measurements) clbits[m.clbit] = Math.floor(index / 2 ** m.qubit) % 2;
    const key = clbitKey(circuit, clbits);
    byKey.set(key, (byKey.get(key) ?? 0) + probability);
  }
  const total = [...byKey.values()].reduce((a, b) => a + b, 0);
  const entries = [...byKey.entries()].map(([key, p]) => {
    const exact = (p / (total || 1)) * shots;
    return { key, count: Math.floor(exact), rest: exact - Math.floor(exact) };
  });
  let missing = shots - entries.reduce((a, e) => a + e.count, 0);
  for (const e of [...entries].sort((a, b) => b.rest - a.rest || (a.key < b.key ? -1 : 1))) {
    if (missing <= 0) break;
    e.count += 1;
    missing -= 1;
  }
  return Object.fromEntries(entries.filter((e) => e.count > 0).map((e) => [e.key, e.count]));
}

function clbitKey(circuit: Circuit, clbits: number[]): string {
  const registers = circuit.cregs.length ? circuit.cregs : [{ name: 'c', size: circuit.numClbits, offset: 0 }];
  return [...registers]
    .reverse()
    .map((r) => Array.from({ length: r.size }, (_, i) => clbits[r.offset + r.size - 1 - i]).join(''))
    .join(' ');
}
