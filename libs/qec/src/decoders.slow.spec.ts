import { DEFAULT_DECODING_WEIGHTS, edgeLengths, matchingLengths, spatialGraph } from './decoding-graph.js';
import { MAX_EXACT_COMPONENT, matchDetectionEvents, matchingDecoder } from './matching.decoder.js';
import {
  emptyPhenomenologicalFaults,
  sampleMemoryExperiment,
  writePhenomenologicalShot,
  type MemorySamples,
  type PhenomenologicalFaults,
} from './pauli-frame.sampler.js';
import { rotatedSurfaceCode, type RotatedSurfaceCode } from './rotated-surface-code.js';
import { seededRandom } from './seeded-random.js';
import type { SyndromeDecoder } from './syndrome-decoder.js';
import { decodeSyndromeTensor, readSyndromeTensor, type DecoderVariant } from './syndrome-tensor.js';
import { unionFindDecoder } from './union-find.decoder.js';

const VARIANTS: [DecoderVariant, (code: RotatedSurfaceCode) => SyndromeDecoder][] = [
  ['accurate', (code) => matchingDecoder(code)],
  ['fast', (code) => unionFindDecoder(code)],
];

/** Events of one type of shot 0 as events[t * m + k]. */
function eventsOfType(code: RotatedSurfaceCode, samples: MemorySamples, type: 0 | 1): Uint8Array {
  const { rounds: T } = samples;
  const n = code.dataQubits;
  const m = code.stabilizers[type].length;
  const events = new Uint8Array(T * m);
  for (let t = 0; t < T; t++) {
    code.stabilizers[type].forEach((s, k) => {
      events[t * m + k] = samples.syndromes[(type * T + t) * n + s.cell]!;
    });
  }
  return events;
}

/** True when error ⊕ correction has no syndrome and does not flip the logical: the shot was decoded exactly. */
function decodedExactly(code: RotatedSurfaceCode, type: 0 | 1, error: Uint8Array, correction: Uint8Array): boolean {
  const residual = error.map((e, q) => e ^ correction[q]!);
  if (code.stabilizers[type].some((s) => s.qubits.reduce((a, q) => a ^ residual[q]!, 0) === 1)) return false;
  return code.logicalSupport[type].reduce((a, q) => a ^ residual[q]!, 0) === 0;
}

function shotOf(code: RotatedSurfaceCode, T: number, faults: PhenomenologicalFaults): MemorySamples {
  const d = code.distance;
  const out: MemorySamples = {
    distance: d,
    rounds: T,
    shots: 1,
    syndromes: new Uint8Array(4 * T * d * d),
    logicalFlips: new Uint8Array(2),
    dataErrors: new Uint8Array(2 * d * d),
  };
  writePhenomenologicalShot(code, T, faults, out, 0);
  return out;
}

function expectCorrected(code: RotatedSurfaceCode, decoder: SyndromeDecoder, samples: MemorySamples, what: string): void {
  const n = code.dataQubits;
  for (const type of [0, 1] as const) {
    const correction = new Uint8Array(n);
    const flip = decoder.decode(type, eventsOfType(code, samples, type), correction);
    const ok = decodedExactly(code, type, samples.dataErrors.subarray(type * n, (type + 1) * n), correction) && flip === samples.logicalFlips[type];
    if (!ok) throw new Error(`not corrected: ${what}, type ${type}`);
  }
}

describe('surface-code decoders', () => {
  describe.each(VARIANTS)('%s', (_variant, make) => {
    it.each([3, 5])('d = %i: decodes every single data error (each qubit, round, type) and every single measurement error exactly', (d) => {
      const code = rotatedSurfaceCode(d);
      const sut = make(code);
      for (const T of [1, 3]) {
        for (const type of [0, 1] as const) {
          for (let t = 0; t < T; t++) {
            for (let q = 0; q < d * d; q++) {
              const faults = emptyPhenomenologicalFaults(code, T);
              faults.data[type][t * d * d + q] = 1;
              expectCorrected(code, sut, shotOf(code, T, faults), `data ${q} round ${t} of ${T}`);
            }
            if (t === T - 1) continue;
            for (let k = 0; k < code.stabilizers[type].length; k++) {
              const faults = emptyPhenomenologicalFaults(code, T);
              faults.measurement[type][t * code.stabilizers[type].length + k] = 1;
              expectCorrected(code, sut, shotOf(code, T, faults), `measurement ${k} round ${t} of ${T}`);
            }
          }
        }
      }
    });

    it.each([3, 5, 7])('d = %i: corrects random fault sets of weight ≤ (d − 1)/2, within one round slice and spread over space-time', (d) => {
      const code = rotatedSurfaceCode(d);
      const sut = make(code);
      const random = seededRandom(1000 + d);
      const T = d;
      const budget = (d - 1) / 2;
      const n = d * d;
      for (let trial = 0; trial < 300; trial++) {
        const faults = emptyPhenomenologicalFaults(code, T);
        const slice = trial % 2 === 0 ? Math.floor(random() * T) : -1;
        const weight = 1 + Math.floor(random() * budget);
        for (let f = 0; f < weight; f++) {
          const type = random() < 0.5 ? 0 : 1;
          const t = slice >= 0 ? slice : Math.floor(random() * T);
          const m = code.stabilizers[type].length;
          // Measurement faults exist only before the exact last round.
          if (t < T - 1 && random() < 0.3) faults.measurement[type][t * m + Math.floor(random() * m)] = 1;
          else faults.data[type][t * n + Math.floor(random() * n)] = 1;
        }
        expectCorrected(code, sut, shotOf(code, T, faults), `trial ${trial}`);
      }
    });

    it('corrections reproduce the last-round syndrome on noisy samples of every noise model (d = 3 … 9)', () => {
      for (const d of [3, 5, 9]) {
        const code = rotatedSurfaceCode(d);
        const sut = make(code);
        const T = 4;
        for (const noise of [
          { kind: 'code-capacity', p: 0.15 },
          { kind: 'phenomenological', p: 0.06, q: 0.06 },
          { kind: 'circuit-level', p: 0.01 },
        ] as const) {
          const samples = sampleMemoryExperiment({ distance: d, rounds: T, noise, shots: 40, seed: d });
          const tensor = readSyndromeTensor([40, 4, T, d, d], samples.syndromes);
          for (let shot = 0; shot < 40; shot++) {
            for (const type of [0, 1] as const) {
              const m = code.stabilizers[type].length;
              const events = tensor.events[type].subarray(shot * T * m, (shot + 1) * T * m);
              const correction = new Uint8Array(d * d);
              sut.decode(type, events, correction);
              code.stabilizers[type].forEach((s, k) => {
                let last = 0;
                for (let t = 0; t < T; t++) last ^= events[t * m + k]!;
                expect(s.qubits.reduce((a, q) => a ^ correction[q]!, 0)).toBe(last);
              });
            }
          }
        }
      }
    });
  });

  it('accurate (MWPM) is not worse than fast (union-find + local matching) on the same samples (paired McNemar test, 3σ)', () => {
    // Both are near-minimum-weight: on a shot either may be right where the other is wrong. "Not worse" = the shots
    // only fast gets right do not outnumber those only accurate gets right by more than 3σ of their difference.
    for (const [d, p] of [
      [5, 0.03],
      [7, 0.025],
    ] as const) {
      const shots = 1500;
      const samples = sampleMemoryExperiment({ distance: d, rounds: d, noise: { kind: 'phenomenological', p, q: p }, shots, seed: 4242 + d });
      const tensor = readSyndromeTensor([shots, 4, d, d, d], samples.syndromes);
      const accurate = decodeSyndromeTensor(tensor, 'accurate', { p, q: p }).logicalFlips;
      const fast = decodeSyndromeTensor(tensor, 'fast', { p, q: p }).logicalFlips;
      let onlyAccurateWrong = 0;
      let onlyFastWrong = 0;
      let accurateWrong = 0;
      for (let i = 0; i < 2 * shots; i++) {
        const a = accurate[i] !== samples.logicalFlips[i];
        const f = fast[i] !== samples.logicalFlips[i];
        accurateWrong += a ? 1 : 0;
        if (a && !f) onlyAccurateWrong++;
        if (f && !a) onlyFastWrong++;
      }
      expect(accurateWrong).toBeGreaterThan(0);
      expect(onlyAccurateWrong - onlyFastWrong).toBeLessThanOrEqual(3 * Math.sqrt(onlyAccurateWrong + onlyFastWrong));
    }
  });

  it('plain union-find (peeling every cluster) makes more logical errors than MWPM near threshold', () => {
    const d = 7;
    const p = 0.025;
    const shots = 1500;
    const code = rotatedSurfaceCode(d);
    const samples = sampleMemoryExperiment({ distance: d, rounds: d, noise: { kind: 'phenomenological', p, q: p }, shots, seed: 4249 });
    const tensor = readSyndromeTensor([shots, 4, d, d, d], samples.syndromes);
    const failures = (decoder: SyndromeDecoder): number => {
      let count = 0;
      const correction = new Uint8Array(d * d);
      for (let b = 0; b < shots; b++) {
        for (const type of [0, 1] as const) {
          const size = d * code.stabilizers[type].length;
          count += decoder.decode(type, tensor.events[type].subarray(b * size, (b + 1) * size), correction) !== samples.logicalFlips[b * 2 + type] ? 1 : 0;
        }
      }
      return count;
    };
    expect(failures(matchingDecoder(code, { p, q: p }))).toBeLessThan(failures(unionFindDecoder(code, { p, q: p }, { localMatching: false })));
  });
});

describe(matchDetectionEvents.name, () => {
  /** Exact minimum by dynamic programming over subsets. */
  function bestWeight(count: number, dist: (i: number, j: number) => number, bdist: (i: number) => number): number {
    const memo = new Map<number, number>();
    const solve = (mask: number): number => {
      if (mask === 0) return 0;
      const cached = memo.get(mask);
      if (cached !== undefined) return cached;
      const i = Math.log2(mask & -mask);
      const rest = mask & ~(1 << i);
      let best = bdist(i) + solve(rest);
      for (let j = i + 1; j < count; j++) if (rest & (1 << j)) best = Math.min(best, dist(i, j) + solve(rest & ~(1 << j)));
      memo.set(mask, best);
      return best;
    };
    return solve((1 << count) - 1);
  }

  it('returns a minimum-weight pairing of space-time detection events (exhaustive check, up to 14 events)', () => {
    const d = 7;
    const T = 6;
    const code = rotatedSurfaceCode(d);
    const graph = spatialGraph(code, 0);
    const lengths = edgeLengths({ p: 0.01, q: 0.003 });
    const random = seededRandom(99);
    for (let trial = 0; trial < 150; trial++) {
      const count = 1 + Math.floor(random() * 14);
      const stab = Array.from({ length: count }, () => Math.floor(random() * graph.m));
      const round = Array.from({ length: count }, () => Math.floor(random() * T));
      const dist = (i: number, j: number): number =>
        lengths.space * graph.hops[stab[i]! * graph.m + stab[j]!]! + lengths.time * Math.abs(round[i]! - round[j]!);
      const bdist = (i: number): number => lengths.space * graph.boundaryHops[stab[i]!]!;
      const sut = matchDetectionEvents(count, dist, bdist);
      let weight = 0;
      sut.forEach((j, i) => {
        if (j === -1) weight += bdist(i);
        else {
          expect(sut[j]).toBe(i);
          if (j > i) weight += dist(i, j);
        }
      });
      expect(weight).toBe(bestWeight(count, dist, bdist));
    }
    expect(DEFAULT_DECODING_WEIGHTS).toEqual({ p: 0.01, q: 0.01 });
  });
});

describe(readSyndromeTensor.name, () => {
  const d = 3;
  const T = 2;
  const sample = sampleMemoryExperiment({ distance: d, rounds: T, noise: { kind: 'phenomenological', p: 0.1, q: 0.1 }, shots: 2, seed: 1 });

  it('accepts the standard masks and all-zero masks alike, with the same events', () => {
    const standard = readSyndromeTensor([2, 4, T, d, d], sample.syndromes);
    const zeroed = Float32Array.from(sample.syndromes);
    zeroed.fill(0, 2 * T * d * d, 4 * T * d * d);
    zeroed.fill(0, (4 + 2) * T * d * d, 8 * T * d * d);
    expect(readSyndromeTensor([2, 4, T, d, d], zeroed).events).toEqual(standard.events);
  });

  it('rejects a mask that does not fit D, naming the channel, sample, round and cell', () => {
    const wrong = Float32Array.from(sample.syndromes);
    wrong[(4 + 3) * T * d * d + 1 * d * d + 4] = 1; // Z mask of sample 1, round 1, centre cell
    expect(() => readSyndromeTensor([2, 4, T, d, d], wrong)).toThrow(
      'expected the Z-stabilizer mask (channel 3) of a distance-3 rotated surface code (SPEC layout) or all zeros; got 1 at batch 1, round 1, cell (1, 1)',
    );
    const d5 = sampleMemoryExperiment({ distance: 5, rounds: 1, noise: { kind: 'code-capacity', p: 0 }, shots: 1, seed: 1 }).syndromes;
    // A d = 5 layout cropped to 3 × 3 is not the d = 3 layout.
    const cropped = new Float32Array(4 * 9);
    for (let c = 0; c < 4; c++) for (let r = 0; r < 3; r++) for (let col = 0; col < 3; col++) cropped[c * 9 + r * 3 + col] = d5[c * 25 + r * 5 + col]!;
    expect(() => readSyndromeTensor([1, 4, 1, 3, 3], cropped)).toThrow('mask');
  });

  it.each([
    [[2, 4, 3, 3], 'expected a (B, 4, T, D, D) syndrome tensor'],
    [[1, 3, 2, 3, 3], 'expected a (B, 4, T, D, D) syndrome tensor'],
    [[1, 4, 2, 4, 4], 'odd distance'],
    [[1, 4, 2, 3, 5], 'square'],
    [[1, 4, 0, 3, 3], 'T ≥ 1'],
    [[1, 4, 1, 27, 27], 'D ≤ 25'],
  ])('rejects shape %j', (shape, message) => {
    const count = shape.reduce((a, b) => a * b, 1);
    expect(() => readSyndromeTensor(shape, new Float32Array(count))).toThrow(message);
  });
});

describe('matching graph weights and bounds', () => {
  it('merges the two boundary qubits of an edge stabilizer into one edge of probability (1 − (1 − 2p)²)/2', () => {
    const lengths = matchingLengths({ p: 0.01, q: 0.01 });
    expect(lengths.space).toBe(100);
    expect(lengths.time).toBe(100);
    const merged = (1 - 0.98 ** 2) / 2;
    expect(lengths.boundary[1]).toBe(100);
    expect(lengths.boundary[2]).toBe(Math.round((100 * Math.log((1 - merged) / merged)) / Math.log(99)));
    const code = rotatedSurfaceCode(5);
    const graph = spatialGraph(code, 0, lengths);
    code.stabilizers[0].forEach((s, k) => {
      const onBoundary = s.qubits.filter((q) => code.qubitStabilizers[0][q]!.length === 1).length;
      if (onBoundary === 2) expect(graph.boundaryDistance[k]).toBe(lengths.boundary[2]);
      // The stored path ends on the boundary and has the stabilizer's syndrome only.
      const syndrome = code.stabilizers[0].map((t) => t.qubits.filter((q) => graph.boundaryPaths[k]!.includes(q)).length % 2);
      expect(syndrome.map((x, j) => (x ? j : -1)).filter((j) => j >= 0)).toEqual([k]);
    });
  });

  it('gives up on a component above maxComponent, and the accurate decoder then falls back (counted as inexact)', () => {
    const line = (i: number, j: number): number => Math.abs(i - j);
    expect(matchDetectionEvents(5, line, () => 100, { maxComponent: 4 })).toBeUndefined();
    expect(Array.from(matchDetectionEvents(4, line, () => 100, { maxComponent: 4 })!)).toEqual([1, 0, 3, 2]);
    const d = 9;
    const code = rotatedSurfaceCode(d);
    const sut = matchingDecoder(code);
    const m = code.stabilizers[0].length;
    const events = new Uint8Array(d * m).fill(1);
    expect(events.length).toBeGreaterThan(MAX_EXACT_COMPONENT);
    const correction = new Uint8Array(d * d);
    sut.decode(0, events, correction);
    expect(sut.inexact).toBe(1);
    // Still a valid correction: its syndrome is the sum of the events per stabilizer (d rounds of 1 → 1).
    for (const s of code.stabilizers[0]) expect(s.qubits.reduce((a, q) => a ^ correction[q]!, 0)).toBe(d % 2);
    sut.decode(0, new Uint8Array(d * m), correction);
    expect(sut.inexact).toBe(1);
  });
});
