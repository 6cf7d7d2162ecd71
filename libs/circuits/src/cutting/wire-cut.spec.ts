import { parseQasm } from '../frontends/qasm.parser.js';
import { simulate } from '../simulator/simulate.js';
import { fragmentCircuit, fragmentTensor, planWireCuts, reconstructDistribution, type Basis, type CutPlan, type Preparation } from './wire-cut.js';
import { splitCircuit } from './split-circuit.js';
import { compileProgram } from '../simulator/program.js';
import { runInstructions, zeroState } from '../simulator/statevector.js';
import { expandCircuit, type Circuit } from '../ir/circuit.js';

/** Exact probabilities over all qubits (index little-endian) of a circuit's unitary part. */
function exactProbabilities(c: Circuit): Float64Array {
  const e = expandCircuit(c);
  const program = compileProgram({ ...e, ops: e.ops.filter((o) => o.kind === 'gate') });
  const s = zeroState(e.numQubits);
  runInstructions(s, program, 0, program.instructions.length, new Uint8Array(0));
  const p = new Float64Array(1 << e.numQubits);
  for (let i = 0; i < p.length; i++) p[i] = s[2 * i] ** 2 + s[2 * i + 1] ** 2;
  return p;
}

/** P(result bits, cut bits) of a fragment variant: measured clbits are out (results) then cut (outputs). */
function fragmentProbabilities(plan: CutPlan, fi: number, preps: Map<number, Preparation>, bases: Map<number, Basis>, shots?: number, seed = 1): Float64Array {
  const fc = fragmentCircuit(plan.fragments[fi], preps, bases);
  const nBits = fc.numClbits;
  const p = new Float64Array(1 << nBits);
  if (shots === undefined) {
    const probs = exactProbabilities(fc);
    const measures = fc.ops.filter((o) => o.kind === 'measure');
    probs.forEach((v, idx) => {
      let key = 0;
      for (const m of measures) if (m.kind === 'measure' && (idx >> m.qubit) & 1) key |= 1 << m.clbit;
      p[key] += v;
    });
    return p;
  }
  const counts = simulate(fc, { shots, seed }).counts;
  for (const [key, n] of Object.entries(counts)) p[parseInt(key.replace(/ /g, ''), 2)] += n / shots;
  return p;
}

const reconstruct = (plan: CutPlan, shots?: number) =>
  reconstructDistribution(plan, (fi, preps, bases) => fragmentTensor(plan.fragments[fi], bases, fragmentProbabilities(plan, fi, preps, bases, shots, 17 + fi)));

describe('wire cutting', () => {
  const ghz6 = parseQasm(
    'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[6];\ncreg c[6];\nh q[0];\ncx q[0],q[1];\ncx q[1],q[2];\ncx q[2],q[3];\ncx q[3],q[4];\ncx q[4],q[5];\nmeasure q -> c;',
  ).circuit;

  it('cuts a 6-qubit GHZ chain once to fit 3- or 4-qubit subcircuits', () => {
    const plan = planWireCuts(ghz6, 4);
    expect(plan.cuts).toHaveLength(1);
    expect(Math.max(...plan.fragments.map((f) => f.qubits.length))).toBeLessThanOrEqual(4);
    // A cut wire counts in both subcircuits, so 3-qubit pieces need two cuts.
    const plan3 = planWireCuts(ghz6, 3);
    expect(plan3.cuts).toHaveLength(2);
    expect(plan3.fragments.map((f) => f.qubits.length).sort()).toEqual([2, 3, 3]);
  });

  it('does not cut a circuit that already fits', () => {
    expect(planWireCuts(ghz6, 6).cuts).toHaveLength(0);
  });

  it('reconstructs the uncut distribution exactly from exact fragment distributions', () => {
    for (const [circuit, max] of [
      [ghz6, 3],
      [
        parseQasm(
          'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[5];\nh q;\ncx q[0],q[1];\ncrx(0.3) q[1],q[2];\nrzz(0.7) q[2],q[3];\ncz q[3],q[4];\nry(0.2) q[2];\ncx q[2],q[4];\nt q[4];\nrx(0.9) q[0];\ncx q[1],q[0];',
        ).circuit,
        3,
      ],
    ] as const) {
      const plan = planWireCuts(circuit, max);
      expect(plan.cuts.length).toBeGreaterThan(0);
      const exact = exactProbabilities(circuit);
      const rebuilt = reconstruct(plan);
      for (let i = 0; i < exact.length; i++) expect(rebuilt[i]).toBeCloseTo(exact[i], 10);
    }
  });

  it('reconstructs within statistical tolerance from sampled subcircuits', () => {
    const circuit = parseQasm(
      'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[4];\nry(0.3) q[0];\nry(1.1) q[1];\nry(0.7) q[2];\nry(2.0) q[3];\ncx q[0],q[1];\ncx q[1],q[2];\nry(0.4) q[2];\ncx q[2],q[3];\nrz(0.5) q[3];\nh q[3];\ncz q[0],q[1];',
    ).circuit;
    const plan = planWireCuts(circuit, 3);
    expect(plan.cuts.length).toBeGreaterThan(0);
    const exact = exactProbabilities(circuit);
    const rebuilt = reconstruct(plan, 40_000);
    // Total variation distance; each term's sampling error is ~1/sqrt(shots), amplified by ≤ 3^K.
    let tv = 0;
    for (let i = 0; i < exact.length; i++) tv += Math.abs(rebuilt[i] - exact[i]) / 2;
    expect(tv).toBeLessThan(0.06);
    expect(rebuilt.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 1);
  });

  it('describes subcircuits and the recipe', () => {
    const { result } = splitCircuit(ghz6, 3);
    expect(result.originalQubitCount).toBe(6);
    expect(result.subcircuits).toHaveLength(3);
    expect(result.subcircuits.every((s) => s.qubitCount <= 3 && s.openqasm3.startsWith('OPENQASM 3.0;'))).toBe(true);
    expect(result.recombination.numCuts).toBe(2);
    expect(result.cuts[0]).toMatchObject({ cut: 0 });
  });

  it('refuses what cannot be cut', () => {
    const ccx = parseQasm('OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[3];\nccx q[0],q[1],q[2];').circuit;
    expect(() => planWireCuts(ccx, 2)).toThrow(/acts on 3 qubits, more than max_subcircuit_qubits = 2/);
    const mid = parseQasm('OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[2];\ncreg c[2];\nmeasure q[0] -> c[0];\ncx q[0],q[1];').circuit;
    expect(() => planWireCuts(mid, 1)).toThrow(/measurements at the end/);
  });
});
