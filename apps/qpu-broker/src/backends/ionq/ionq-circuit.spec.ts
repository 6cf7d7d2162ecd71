import { addCreg, addQreg, compileToDevice, emptyCircuit, finalState, num, parseQasm, type Circuit } from '#qdc/circuits';
import { countsFromHistogram, toIonqInput } from './ionq-circuit.js';

const bell = () => parseQasm('OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[2];\ncreg c[2];\nh q[0];\ncx q[0],q[1];\nmeasure q -> c;').circuit;

/** Probabilities of IonQ input, as IonQ's simulator would answer them (angles in turns). */
function ionqProbabilities(input: ReturnType<typeof toIonqInput>['input']): Record<string, number> {
  const c = emptyCircuit();
  addQreg(c, 'q', input.qubits);
  for (const g of input.circuit) {
    if (g.gate === 'ms')
      c.ops.push({
        kind: 'gate',
        name: 'ms',
        qubits: g.targets,
        params: [num(g.phases[0] * 2 * Math.PI), num(g.phases[1] * 2 * Math.PI), num(g.angle * 2 * Math.PI)],
      });
    else c.ops.push({ kind: 'gate', name: g.gate, qubits: [g.target], params: [num(g.phase * 2 * Math.PI)] });
  }
  const s = finalState(c);
  const out: Record<string, number> = {};
  for (let i = 0; i < s.length / 2; i++) if (s[2 * i]! ** 2 + s[2 * i + 1]! ** 2 > 1e-12) out[String(i)] = s[2 * i]! ** 2 + s[2 * i + 1]! ** 2;
  return out;
}

describe(toIonqInput.name, () => {
  it('turns a circuit compiled to gpi/gpi2/ms into IonQ native input whose probabilities are the circuit’s', () => {
    const compiled = compileToDevice(bell(), { numQubits: 3, nativeGates: ['gpi', 'gpi2', 'ms'], couplingMap: null });
    const { input, measurements } = toIonqInput(compiled.circuit);
    expect(input).toMatchObject({ format: 'ionq.circuit.v0', gateset: 'native', qubits: 3 });
    for (const g of input.circuit) for (const t of g.gate === 'ms' ? [...g.phases, g.angle] : [g.phase]) expect(t >= 0 && t <= 1).toBe(true);
    const counts = countsFromHistogram(ionqProbabilities(input), compiled.circuit, measurements, 1000);
    expect(counts).toEqual({ '00': 500, '11': 500 });
  });

  it('refuses gates that are not IonQ natives and gates after a measurement', () => {
    expect(() => toIonqInput(bell())).toThrow(/gate h is not one of IonQ's native gates/);
    const c: Circuit = emptyCircuit();
    addQreg(c, 'q', 1);
    addCreg(c, 'c', 1);
    c.ops.push({ kind: 'measure', qubit: 0, clbit: 0 }, { kind: 'gate', name: 'gpi', qubits: [0], params: [num(0)] });
    expect(() => toIonqInput(c)).toThrow(/measures every qubit once, at the end/);
  });
});

describe(countsFromHistogram.name, () => {
  it('maps basis states (qubit 0 least significant) to clbit keys (registers spaced, first rightmost) summing to shots', () => {
    const c = emptyCircuit();
    addQreg(c, 'q', 3);
    addCreg(c, 'a', 1);
    addCreg(c, 'b', 2);
    // a[0] ← q2, b[0] ← q0, b[1] ← q1
    const measurements = [
      { qubit: 2, clbit: 0 },
      { qubit: 0, clbit: 1 },
      { qubit: 1, clbit: 2 },
    ];
    const counts = countsFromHistogram({ '4': 1 / 3, '1': 1 / 3, '3': 1 / 3 }, c, measurements, 100);
    expect(counts).toEqual({ '00 1': 34, '01 0': 33, '11 0': 33 });
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(100);
  });
});
