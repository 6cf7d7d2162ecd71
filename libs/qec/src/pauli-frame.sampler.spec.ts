import {
  emptyPhenomenologicalFaults,
  runCircuitShot,
  sampleMemoryExperiment,
  surfaceCodeCircuit,
  writePhenomenologicalShot,
  type MemorySamples,
} from './pauli-frame.sampler.js';
import { rotatedSurfaceCode, standardMask } from './rotated-surface-code.js';

const emptySamples = (d: number, T: number): MemorySamples => ({
  distance: d,
  rounds: T,
  shots: 1,
  syndromes: new Uint8Array(4 * T * d * d),
  logicalFlips: new Uint8Array(2),
  dataErrors: new Uint8Array(2 * d * d),
});

/** Flat (type, t, cell) indices of the events of shot 0. */
const eventsOf = (s: MemorySamples): string[] => {
  const n = s.distance ** 2;
  const found: string[] = [];
  for (const type of [0, 1])
    for (let t = 0; t < s.rounds; t++)
      for (let cell = 0; cell < n; cell++) if (s.syndromes[(type * s.rounds + t) * n + cell]) found.push(`${type}:${t}:${cell}`);
  return found.sort();
};

describe(sampleMemoryExperiment.name, () => {
  it.each([3, 5])('d = %i: a single data flip before round t fires exactly its stabilizers of the detecting type in round t', (d) => {
    const code = rotatedSurfaceCode(d);
    const T = 3;
    for (const type of [0, 1] as const) {
      for (let t = 0; t < T; t++) {
        for (let q = 0; q < d * d; q++) {
          const faults = emptyPhenomenologicalFaults(code, T);
          faults.data[type][t * d * d + q] = 1;
          const out = emptySamples(d, T);
          writePhenomenologicalShot(code, T, faults, out, 0);
          const expected = code.qubitStabilizers[type][q]!.map((k) => `${type}:${t}:${code.stabilizers[type][k]!.cell}`).sort();
          expect(eventsOf(out)).toEqual(expected);
          // Column 0 carries X_L (flipped by Z errors, type 0), row 0 carries Z_L (flipped by X errors, type 1).
          const onLogical = type === 0 ? q % d === 0 : q < d;
          expect(Array.from(out.logicalFlips)).toEqual(type === 0 ? [onLogical ? 1 : 0, 0] : [0, onLogical ? 1 : 0]);
          expect(out.dataErrors[type * d * d + q]).toBe(1);
        }
      }
    }
  });

  it.each([3, 5])('d = %i: a single measurement flip in round t < T − 1 fires its stabilizer in rounds t and t + 1', (d) => {
    const code = rotatedSurfaceCode(d);
    const T = 4;
    for (const type of [0, 1] as const) {
      code.stabilizers[type].forEach((s, k) => {
        for (let t = 0; t < T - 1; t++) {
          const faults = emptyPhenomenologicalFaults(code, T);
          faults.measurement[type][t * code.stabilizers[type].length + k] = 1;
          const out = emptySamples(d, T);
          writePhenomenologicalShot(code, T, faults, out, 0);
          expect(eventsOf(out)).toEqual([`${type}:${t}:${s.cell}`, `${type}:${t + 1}:${s.cell}`].sort());
          expect(Array.from(out.logicalFlips)).toEqual([0, 0]);
        }
      });
    }
  });

  it('writes the standard masks in every round of channels 2 and 3', () => {
    const d = 5;
    const T = 3;
    const s = sampleMemoryExperiment({ distance: d, rounds: T, noise: { kind: 'phenomenological', p: 0.05, q: 0.05 }, shots: 4, seed: 3 });
    const code = rotatedSurfaceCode(d);
    for (let shot = 0; shot < 4; shot++) {
      for (const type of [0, 1] as const) {
        for (let t = 0; t < T; t++) {
          const offset = ((shot * 4 + 2 + type) * T + t) * d * d;
          expect(Array.from(s.syndromes.subarray(offset, offset + d * d))).toEqual(Array.from(standardMask(code, type)));
        }
      }
    }
  });

  it('the events of each stabilizer add up to the syndrome of the net error (the last round is exact), for every noise model', () => {
    const d = 5;
    const T = 4;
    const code = rotatedSurfaceCode(d);
    for (const noise of [
      { kind: 'code-capacity', p: 0.1 },
      { kind: 'phenomenological', p: 0.05, q: 0.1 },
      { kind: 'circuit-level', p: 0.01 },
    ] as const) {
      const s = sampleMemoryExperiment({ distance: d, rounds: T, noise, shots: 50, seed: 7 });
      let events = 0;
      for (let shot = 0; shot < 50; shot++) {
        for (const type of [0, 1] as const) {
          const error = s.dataErrors.subarray((shot * 2 + type) * d * d, (shot * 2 + type + 1) * d * d);
          for (const stab of code.stabilizers[type]) {
            let sum = 0;
            for (let t = 0; t < T; t++) sum += s.syndromes[((shot * 4 + type) * T + t) * d * d + stab.cell]!;
            events += sum;
            expect(sum % 2).toBe(stab.qubits.reduce((a, q) => a ^ error[q]!, 0));
          }
          let flip = 0;
          for (const q of code.logicalSupport[type]) flip ^= error[q]!;
          expect(s.logicalFlips[shot * 2 + type]).toBe(flip);
        }
      }
      expect(events).toBeGreaterThan(0);
    }
  });

  it('phenomenological event rates match p and q: a bulk stabilizer fires with probability ≈ 1 − (1 − 2p)⁴(1 − 2q)² / … in the middle rounds', () => {
    const d = 5;
    const T = 5;
    const p = 0.02;
    const q = 0.03;
    const shots = 4000;
    const s = sampleMemoryExperiment({ distance: d, rounds: T, noise: { kind: 'phenomenological', p, q }, shots, seed: 11 });
    const code = rotatedSurfaceCode(d);
    const bulk = code.stabilizers[0].find((x) => x.qubits.length === 4)!;
    let fired = 0;
    for (let shot = 0; shot < shots; shot++) fired += s.syndromes[((shot * 4 + 0) * T + 2) * d * d + bulk.cell]!;
    // An event in a middle round is the parity of 4 data flips and 2 measurement flips.
    const expected = (1 - (1 - 2 * p) ** 4 * (1 - 2 * q) ** 2) / 2;
    const sigma = Math.sqrt((expected * (1 - expected)) / shots);
    expect(Math.abs(fired / shots - expected)).toBeLessThan(4 * sigma);
  });

  it('is deterministic for a seed and differs between seeds', () => {
    const run = (seed: number) =>
      sampleMemoryExperiment({ distance: 3, rounds: 3, noise: { kind: 'phenomenological', p: 0.1, q: 0.1 }, shots: 20, seed }).syndromes;
    expect(run(5)).toEqual(run(5));
    expect(run(5)).not.toEqual(run(6));
  });
});

describe(runCircuitShot.name, () => {
  it.each([3, 5])(
    'd = %i: a noiseless circuit gives no events; every single fault gives at most two events per type, and never an undetectable logical',
    (d) => {
      const code = rotatedSurfaceCode(d);
      const circuit = surfaceCodeCircuit(code);
      const T = 3;
      const silent = emptySamples(d, T);
      const locations = runCircuitShot(code, circuit, T, () => 0, silent, 0);
      expect(eventsOf(silent).filter((e) => !e.startsWith('2') && !e.startsWith('3'))).toEqual([]);
      const kinds: string[] = [];
      runCircuitShot(
        code,
        circuit,
        T,
        (_l, kind) => {
          kinds.push(kind);
          return 0;
        },
        emptySamples(d, T),
        0,
      );
      for (let location = 0; location < locations; location++) {
        const choices = kinds[location] === 'dep1' ? 3 : kinds[location] === 'dep2' ? 15 : 1;
        for (let pauli = 1; pauli <= choices; pauli++) {
          const out = emptySamples(d, T);
          runCircuitShot(code, circuit, T, (l) => (l === location ? pauli : 0), out, 0);
          const events = eventsOf(out).filter((e) => e.startsWith('0') || e.startsWith('1'));
          expect(events.filter((e) => e.startsWith('0')).length).toBeLessThanOrEqual(2);
          expect(events.filter((e) => e.startsWith('1')).length).toBeLessThanOrEqual(2);
          // A single fault is never a logical error without events (distance ≥ 3 is kept by the hook-safe order).
          if (events.length === 0) expect(Array.from(out.logicalFlips)).toEqual([0, 0]);
        }
      }
    },
  );

  it('hook errors lie perpendicular to the logicals: every two-qubit-gate fault leaves a data error that, up to one stabilizer, has weight ≤ 1 along each logical direction', () => {
    const d = 5;
    const code = rotatedSurfaceCode(d);
    const circuit = surfaceCodeCircuit(code);
    const T = 2;
    const kinds: string[] = [];
    const locations = runCircuitShot(
      code,
      circuit,
      T,
      (_l, kind) => {
        kinds.push(kind);
        return 0;
      },
      emptySamples(d, T),
      0,
    );
    // Z errors lined up along a row (type 0) or X errors along a column (type 1) would shorten the logical paths.
    const worstLine = (error: Uint8Array, type: 0 | 1): number => {
      let worst = 0;
      for (let line = 0; line < d; line++) {
        let along = 0;
        for (let i = 0; i < d; i++) along += error[type === 0 ? line * d + i : i * d + line]!;
        worst = Math.max(worst, along);
      }
      return worst;
    };
    for (let location = 0; location < locations; location++) {
      if (kinds[location] !== 'dep2') continue;
      for (let pauli = 1; pauli <= 15; pauli++) {
        const out = emptySamples(d, T);
        runCircuitShot(code, circuit, T, (l) => (l === location ? pauli : 0), out, 0);
        for (const type of [0, 1] as const) {
          const error = out.dataErrors.slice(type * d * d, (type + 1) * d * d);
          // Equivalent errors: multiply by one stabilizer made of the same Pauli (Z errors by Z stabilizers, type 1).
          let best = worstLine(error, type);
          for (const stab of code.stabilizers[1 - type]!) {
            const other = error.slice();
            for (const q of stab.qubits) other[q]! ^= 1;
            best = Math.min(best, worstLine(other, type));
          }
          expect(best).toBeLessThanOrEqual(1);
        }
      }
    }
  });
});
