/**
 * The real-style program corpus (issue #20, libs/circuits/corpus): every Qiskit and Cirq program
 * parses, simulates to its independently derived distribution (Hellinger fidelity ≥ 0.99), agrees
 * with its twin in the other framework, and survives a round trip through each emitter. Programs
 * the front ends still refuse are listed with their exact 422 message in corpus/refused.json; that
 * list is asserted both ways (a listed program must fail with exactly that message, an unlisted
 * one must pass), so it can only shrink.
 */
import { emitCircuit, parseCircuit } from './convert.js';
import { CircuitError } from './errors.js';
import type { Circuit } from './ir/circuit.js';
import {
  corpusPrograms,
  hellingerFidelity,
  loadCorpus,
  loadRefused,
  parseProgram,
  programDistribution,
  exactDistribution,
  isDynamic,
  type CorpusProgram,
  type Distribution,
} from '../test/corpus.js';

const MIN_FIDELITY = 0.99;
const entries = loadCorpus();
const programs = corpusPrograms(entries);
const refused = loadRefused();
const READABLE_TARGETS = ['qiskit', 'cirq', 'openqasm2', 'openqasm3'] as const;
const WRITE_ONLY_TARGETS = ['pennylane', 'braket'] as const;
const BRAKET_DYNAMIC = 'Amazon Braket circuits measure at the end only: mid-circuit measurement, reset and classical conditions cannot be converted';
const ALGORITHMS = [
  'adders',
  'bernstein_vazirani',
  'deutsch_jozsa',
  'grover',
  'hadamard_test',
  'hhl_matrix_gates',
  'qaoa',
  'qft_qpe',
  'simon',
  'state_preparation',
  'superdense',
  'swap_test',
  'teleportation',
  'vqe',
];

const parsed = new Map<string, { circuit: Circuit; distribution: Distribution }>();
function accepted(program: CorpusProgram): { circuit: Circuit; distribution: Distribution } {
  let hit = parsed.get(program.id);
  if (!hit) {
    const { framework, circuit } = parseProgram(program);
    expect(framework).toBe(program.framework);
    hit = { circuit, distribution: programDistribution(program, circuit) };
    parsed.set(program.id, hit);
  }
  return hit;
}

const fidelityReport = (id: string, p: Distribution, q: Distribution) => ({ id, fidelity: Number(hellingerFidelity(p, q).toFixed(4)) });

describe('program corpus (issue #20)', () => {
  it('holds at least 120 programs covering every algorithm family, each with an expectation', () => {
    expect(programs.length).toBeGreaterThanOrEqual(120);
    expect([...new Set(entries.map((e) => e.algorithm))].sort()).toEqual(ALGORITHMS);
    for (const e of entries) {
      expect([e.id, e.expected.derivation.length > 10]).toEqual([e.id, true]);
      const total = Object.values(e.distribution).reduce((a, b) => a + b, 0);
      expect([e.id, Math.abs(total - 1) < 1e-6]).toEqual([e.id, true]);
    }
  });

  it('lists only existing programs as refused', () => {
    const ids = new Set(programs.map((p) => p.id));
    expect(Object.keys(refused).filter((id) => !ids.has(id))).toEqual([]);
  });

  const acceptedPrograms = programs.filter((p) => !(p.id in refused));
  const refusedPrograms = programs.filter((p) => p.id in refused);

  if (acceptedPrograms.length) {
    it.each(acceptedPrograms.map((p) => [p.id, p] as const))('%s simulates to its expected distribution', (id, program) => {
      const { distribution } = accepted(program);
      expect(fidelityReport(id, distribution, program.entry.distribution).fidelity).toBeGreaterThanOrEqual(MIN_FIDELITY);
    });

    it.each(acceptedPrograms.map((p) => [p.id, p] as const))('%s round-trips through every emitter', (id, program) => {
      const { circuit } = accepted(program);
      const own = exactDistribution(circuit); // the circuit's own bit order (no Cirq big-endian mapping)
      for (const target of READABLE_TARGETS) {
        const back = parseCircuit(emitCircuit(circuit, target));
        expect(back.framework).toBe(target);
        const f = hellingerFidelity(exactDistribution(back.circuit), own);
        expect({ id, target, ok: f >= MIN_FIDELITY }).toEqual({ id, target, ok: true });
      }
      // Braket programs measure at the end only: a dynamic circuit gets the documented refusal.
      for (const target of WRITE_ONLY_TARGETS) {
        if (target === 'braket' && isDynamic(circuit)) expect(() => emitCircuit(circuit, target)).toThrow(BRAKET_DYNAMIC);
        else expect(emitCircuit(circuit, target).length).toBeGreaterThan(0);
      }
    });
  }

  const pairs = entries.filter((e) => !(`${e.id}.qiskit` in refused) && !(`${e.id}.cirq` in refused));
  if (pairs.length) {
    it.each(pairs.map((e) => [e.id, e] as const))('%s: the Qiskit and Cirq versions agree', (id) => {
      const [q, c] = programs.filter((p) => p.entry.id === id).map((p) => accepted(p).distribution);
      expect(fidelityReport(id, q, c).fidelity).toBeGreaterThanOrEqual(MIN_FIDELITY);
    });
  }

  if (refusedPrograms.length) {
    it.each(refusedPrograms.map((p) => [p.id, p] as const))('%s is still refused with its recorded 422 message', (id, program) => {
      let outcome: string;
      try {
        parseProgram(program);
        outcome = 'parsed: remove it from corpus/refused.json';
      } catch (error) {
        outcome = error instanceof CircuitError ? error.message : `not a CircuitError (would be a 500): ${String(error)}`;
      }
      expect({ id, outcome }).toEqual({ id, outcome: refused[id] });
    });
  }
});
