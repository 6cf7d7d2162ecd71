// Pauli-frame sampling of the rotated surface-code memory experiment (the frame method of Stim: Gidney, Quantum 5,
// 497 (2021)): errors are tracked as X/Z flips relative to the noiseless run, so detection events are the frame's
// syndrome changes. Three noise models (Dennis et al., J. Math. Phys. 43, 4452 (2002); Wang, Harrington & Preskill,
// Ann. Phys. 303, 31 (2003); Fowler et al., Phys. Rev. A 86, 032324 (2012)):
// - code capacity: independent X and Z flips (probability p each) on every data qubit before round 0, perfect rounds;
// - phenomenological: X and Z flips (p each) on every data qubit before every round, each stabilizer outcome
//   flipped with probability q;
// - circuit level: the syndrome-extraction circuit (reset ancillas, four CNOT layers in the hook-safe order of
//   Tomita & Svore, Phys. Rev. A 90, 062320 (2014), measure) with depolarizing noise p after every CNOT (two-qubit)
//   and on the data qubits before every round (one-qubit), reset and measurement flips with probability p.
// The experiment starts in a code state (both stabilizer types deterministic in round 0) and its last round is
// measured without error (it stands for the closing transversal readout), so the final syndrome is exact and the
// true logical flips are well defined. Output: the SPEC.md §6 tensor (shots, 4, T, D, D).
import { rotatedSurfaceCode, standardMask, type RotatedSurfaceCode } from './rotated-surface-code.js';
import { flipBernoulli, seededRandom, type Random } from './seeded-random.js';

export type NoiseModel = { kind: 'code-capacity'; p: number } | { kind: 'phenomenological'; p: number; q: number } | { kind: 'circuit-level'; p: number };

export interface MemoryExperiment {
  distance: number;
  rounds: number;
  noise: NoiseModel;
  shots: number;
  seed: number;
}

export interface MemorySamples {
  distance: number;
  rounds: number;
  shots: number;
  /** (shots, 4, T, D, D) 0/1: channels X events, Z events, X mask, Z mask (SPEC.md §6). */
  syndromes: Uint8Array;
  /** (shots, 2): true flips of the X observable (net Z errors on column 0) and of the Z observable (net X errors on row 0). */
  logicalFlips: Uint8Array;
  /** (shots, 2, D, D): the net data error after the last round, channel 0 = Z error, channel 1 = X error. */
  dataErrors: Uint8Array;
}

/**
 * Explicit faults of one phenomenological shot: data[type][t * D² + q] = a flip before round t on qubit q of the
 * kind that type-`type` stabilizers detect (type 0: Z flip); measurement[type][t * m + k] = outcome flip of
 * stabilizer k of that type in round t.
 */
export interface PhenomenologicalFaults {
  data: [Uint8Array, Uint8Array];
  measurement: [Uint8Array, Uint8Array];
}

export function emptyPhenomenologicalFaults(code: RotatedSurfaceCode, rounds: number): PhenomenologicalFaults {
  const n = code.dataQubits;
  return {
    data: [new Uint8Array(rounds * n), new Uint8Array(rounds * n)],
    measurement: [new Uint8Array(rounds * code.stabilizers[0].length), new Uint8Array(rounds * code.stabilizers[1].length)],
  };
}

function checkExperiment(e: MemoryExperiment): void {
  if (!Number.isInteger(e.rounds) || e.rounds < 1) throw new RangeError(`expected rounds ≥ 1; got ${e.rounds}`);
  if (!Number.isInteger(e.shots) || e.shots < 0) throw new RangeError(`expected shots ≥ 0; got ${e.shots}`);
  const ps = e.noise.kind === 'phenomenological' ? [e.noise.p, e.noise.q] : [e.noise.p];
  if (ps.some((p) => !(p >= 0 && p <= 1))) throw new RangeError(`expected probabilities in [0, 1]; got ${ps.join(', ')}`);
}

/**
 * A (shots, 4, 1, d, d) syndrome tensor of pure noise: standard masks, each stabiliser's detection event a fair coin
 * (the worst case for a decoder's time: half the detectors fire). Seeded; the same arguments give the same tensor.
 */
export function pureNoiseSyndromes(distance: number, shots: number, seed: number): Uint8Array {
  const syndromes = sampleMemoryExperiment({ distance, rounds: 1, noise: { kind: 'code-capacity', p: 0 }, shots, seed }).syndromes;
  const code = rotatedSurfaceCode(distance);
  const random = seededRandom(seed);
  const cells = distance * distance;
  for (let b = 0; b < shots; b++)
    for (const type of [0, 1] as const) for (const s of code.stabilizers[type]) syndromes[(b * 4 + type) * cells + s.cell] = random() < 0.5 ? 1 : 0;
  return syndromes;
}

/** Samples `shots` memory experiments; the same arguments give the same samples. */
export function sampleMemoryExperiment(experiment: MemoryExperiment): MemorySamples {
  checkExperiment(experiment);
  const { distance, rounds: T, shots, noise } = experiment;
  const code = rotatedSurfaceCode(distance);
  const n = code.dataQubits;
  const random = seededRandom(experiment.seed);
  const samples: MemorySamples = {
    distance,
    rounds: T,
    shots,
    syndromes: new Uint8Array(shots * 4 * T * n),
    logicalFlips: new Uint8Array(shots * 2),
    dataErrors: new Uint8Array(shots * 2 * n),
  };
  const faults = emptyPhenomenologicalFaults(code, T);
  const circuit = noise.kind === 'circuit-level' ? surfaceCodeCircuit(code) : undefined;
  for (let shot = 0; shot < shots; shot++) {
    if (circuit && noise.kind === 'circuit-level') {
      runCircuitShot(code, circuit, T, randomCircuitNoise(noise.p, random), samples, shot);
      continue;
    }
    for (const type of [0, 1] as const) {
      faults.data[type].fill(0);
      faults.measurement[type].fill(0);
      const m = code.stabilizers[type].length;
      if (noise.kind === 'code-capacity') {
        flipBernoulli(faults.data[type], 0, n, noise.p, random);
      } else if (noise.kind === 'phenomenological') {
        flipBernoulli(faults.data[type], 0, T * n, noise.p, random);
        flipBernoulli(faults.measurement[type], 0, (T - 1) * m, noise.q, random);
      }
    }
    writePhenomenologicalShot(code, T, faults, samples, shot);
  }
  return samples;
}

/** The SPEC tensor, logical flips and net error of one shot with the given phenomenological faults. */
export function writePhenomenologicalShot(code: RotatedSurfaceCode, T: number, faults: PhenomenologicalFaults, out: MemorySamples, shot: number): void {
  const n = code.dataQubits;
  for (const type of [0, 1] as const) {
    const stabilizers = code.stabilizers[type];
    const m = stabilizers.length;
    const error = new Uint8Array(n);
    const previous = new Uint8Array(m);
    for (let t = 0; t < T; t++) {
      for (let q = 0; q < n; q++) error[q]! ^= faults.data[type][t * n + q]!;
      const base = ((shot * 4 + type) * T + t) * n;
      for (let k = 0; k < m; k++) {
        let outcome = faults.measurement[type][t * m + k]!;
        for (const q of stabilizers[k]!.qubits) outcome ^= error[q]!;
        out.syndromes[base + stabilizers[k]!.cell] = outcome ^ previous[k]!;
        previous[k] = outcome;
      }
    }
    finishShot(code, T, type, error, out, shot);
  }
}

function finishShot(code: RotatedSurfaceCode, T: number, type: 0 | 1, error: Uint8Array, out: MemorySamples, shot: number): void {
  const n = code.dataQubits;
  const mask = standardMask(code, type);
  for (let t = 0; t < T; t++) out.syndromes.set(mask, ((shot * 4 + 2 + type) * T + t) * n);
  out.dataErrors.set(error, (shot * 2 + type) * n);
  let flip = 0;
  for (const q of code.logicalSupport[type]) flip ^= error[q]!;
  out.logicalFlips[shot * 2 + type] = flip;
}

// ---- circuit level ----

/** One CNOT of the syndrome-extraction circuit (qubit indices: data 0 … D²-1, then X ancillas, then Z ancillas). */
interface Cnot {
  control: number;
  target: number;
}

export interface SurfaceCodeCircuit {
  qubits: number;
  /** Ancilla qubit of stabilizer k of each type. */
  ancilla: [number[], number[]];
  /** Four layers of CNOTs; X stabilizers visit NW, NE, SW, SE, Z stabilizers NW, SW, NE, SE (hooks perpendicular to the logicals). */
  layers: Cnot[][];
}

export function surfaceCodeCircuit(code: RotatedSurfaceCode): SurfaceCodeCircuit {
  const n = code.dataQubits;
  const mx = code.stabilizers[0].length;
  const ancilla: [number[], number[]] = [code.stabilizers[0].map((_, k) => n + k), code.stabilizers[1].map((_, k) => n + mx + k)];
  const layers: Cnot[][] = [[], [], [], []];
  const order: [number[], number[]] = [
    [0, 1, 2, 3],
    [0, 2, 1, 3],
  ];
  for (const type of [0, 1] as const) {
    code.stabilizers[type].forEach((s, k) => {
      order[type].forEach((corner, layer) => {
        const q = s.corners[corner]!;
        if (q < 0) return;
        const a = ancilla[type][k]!;
        layers[layer]!.push(type === 0 ? { control: a, target: q } : { control: q, target: a });
      });
    });
  }
  return { qubits: n + mx + code.stabilizers[1].length, ancilla, layers };
}

/**
 * Where the circuit's noise comes from: each call is one fault location (in circuit order) and returns the Pauli
 * that fires there: for 'dep1' 0 = none, 1 = X, 2 = Y, 3 = Z; for 'dep2' 0 … 15 = P1 ⊗ P2 as 4·P1 + P2; for 'flip' 0/1.
 */
export type CircuitNoise = (location: number, kind: 'dep1' | 'dep2' | 'flip') => number;

export function randomCircuitNoise(p: number, random: Random): CircuitNoise {
  return (_location, kind) => {
    if (p <= 0) return 0;
    const u = random();
    if (u >= p) return 0;
    if (kind === 'flip') return 1;
    if (kind === 'dep1') return 1 + Math.floor((u / p) * 3);
    return 1 + Math.floor((u / p) * 15);
  };
}

/**
 * Runs one shot of the circuit: T rounds, the last one noiseless, writing the SPEC tensor, the logical flips and
 * the net data error. Returns the number of fault locations visited (the same for every shot).
 */
export function runCircuitShot(
  code: RotatedSurfaceCode,
  circuit: SurfaceCodeCircuit,
  T: number,
  noise: CircuitNoise,
  out: MemorySamples,
  shot: number,
): number {
  const n = code.dataQubits;
  const x = new Uint8Array(circuit.qubits);
  const z = new Uint8Array(circuit.qubits);
  const previous: [Uint8Array, Uint8Array] = [new Uint8Array(code.stabilizers[0].length), new Uint8Array(code.stabilizers[1].length)];
  let location = 0;
  const pauli = (q: number, p: number): void => {
    if (p === 1 || p === 2) x[q]! ^= 1;
    if (p === 2 || p === 3) z[q]! ^= 1;
  };
  for (let t = 0; t < T; t++) {
    const noisy = t < T - 1;
    for (let q = 0; q < n; q++) pauli(q, noise(location++, 'dep1'));
    for (const type of [0, 1] as const) {
      for (const a of circuit.ancilla[type]) {
        x[a] = 0;
        z[a] = 0;
        // A reset error leaves the ancilla in the wrong eigenstate of its measured basis.
        if (noisy && noise(location++, 'flip')) (type === 0 ? z : x)[a] = 1;
      }
    }
    for (const layer of circuit.layers) {
      for (const { control, target } of layer) {
        x[target]! ^= x[control]!;
        z[control]! ^= z[target]!;
        if (noisy) {
          const p = noise(location++, 'dep2');
          pauli(control, p >> 2);
          pauli(target, p & 3);
        }
      }
    }
    for (const type of [0, 1] as const) {
      const base = ((shot * 4 + type) * T + t) * n;
      code.stabilizers[type].forEach((s, k) => {
        const a = circuit.ancilla[type][k]!;
        let outcome = type === 0 ? z[a]! : x[a]!;
        if (noisy) outcome ^= noise(location++, 'flip');
        out.syndromes[base + s.cell] = outcome ^ previous[type][k]!;
        previous[type][k] = outcome;
      });
    }
  }
  finishShot(code, T, 0, z.subarray(0, n), out, shot);
  finishShot(code, T, 1, x.subarray(0, n), out, shot);
  return location;
}
