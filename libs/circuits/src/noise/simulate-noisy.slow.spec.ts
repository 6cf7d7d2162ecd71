import { CircuitError } from '../errors.js';
import { parseQasm } from '../frontends/qasm.parser.js';
import { compileToDevice } from '../compile/compile-to-device.js';
import { lineCouplingMap } from '../compile/coupling-maps.js';
import { randomCircuit } from '../random-circuit.js';
import { noiselessModel, type NoiseModel } from './noise-model.js';
import { simulateNoisy, type NoisyMethod } from './simulate-noisy.js';

const qasm = (body: string) => parseQasm(`OPENQASM 2.0;\ninclude "qelib1.inc";\n${body}`).circuit;
const METHODS: NoisyMethod[] = ['density-matrix', 'trajectories'];

/** |observed − expected| in standard errors of a binomial proportion. */
const zScore = (hits: number, shots: number, p: number) => Math.abs(hits / shots - p) / Math.sqrt((p * (1 - p)) / shots);

function model(
  n: number,
  overrides: { qubit?: Partial<NoiseModel['qubits'][number]>; two?: number; times?: Partial<NoiseModel['gate_times_us']> } = {},
): NoiseModel {
  const base = noiselessModel(n, lineCouplingMap(n));
  base.qubits = base.qubits.map((q) => ({ ...q, ...overrides.qubit }));
  base.edges = base.edges.map((e) => ({ ...e, two_qubit_error: overrides.two ?? 0 }));
  base.gate_times_us = { single: 0.05, two: 0.3, measure: 1, ...overrides.times };
  return base;
}

/** 0.1% upper critical value of χ²(df) (Wilson–Hilferty). */
const chiCritical = (df: number) => df * (1 - 2 / (9 * df) + 3.09 * Math.sqrt(2 / (9 * df))) ** 3;

/** Two-sample χ² homogeneity statistic over outcomes (bins with < 10 counts pooled). */
function homogeneity(a: Record<string, number>, b: Record<string, number>): { chi: number; df: number } {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  const na = Object.values(a).reduce((x, y) => x + y, 0);
  const nb = Object.values(b).reduce((x, y) => x + y, 0);
  let chi = 0,
    bins = 0,
    pa = 0,
    pb = 0;
  const add = (x: number, y: number) => {
    const e = (x + y) / (na + nb);
    chi += (x - na * e) ** 2 / (na * e) + (y - nb * e) ** 2 / (nb * e);
    bins++;
  };
  for (const k of keys) {
    const x = a[k] ?? 0,
      y = b[k] ?? 0;
    if (x + y < 10) {
      pa += x;
      pb += y;
    } else add(x, y);
  }
  if (pa + pb > 0) add(pa, pb);
  return { chi, df: Math.max(1, bins - 1) };
}

describe(simulateNoisy.name, () => {
  const bell = qasm('qreg q[2]; creg c[2]; h q[0]; cx q[0],q[1]; measure q -> c;');

  it.each(METHODS)('Bell pair with two-qubit depolarizing p only: P(00) + P(11) = 1 − 8p/15 (%s)', (method) => {
    for (const gates of [
      ['rz', 'sx', 'x', 'cz'],
      ['rz', 'sx', 'x', 'ecr'],
      ['gpi', 'gpi2', 'ms'],
    ]) {
      const compiled = compileToDevice(bell, { numQubits: 2, nativeGates: gates, couplingMap: [[0, 1]] });
      expect(compiled.stats.twoQubitGateCount).toBe(1);
      const p = 0.3;
      const shots = method === 'density-matrix' ? 40_000 : 8_000;
      const result = simulateNoisy(compiled.circuit, model(2, { two: p }), { shots, seed: 11, method });
      expect(result.method).toBe(method);
      const even = (result.counts['00'] ?? 0) + (result.counts['11'] ?? 0);
      expect(zScore(even, shots, 1 - (8 * p) / 15)).toBeLessThan(3);
    }
  });

  it.each(METHODS)('readout error alone flips a prepared |1⟩ with the configured probability, each direction (%s)', (method) => {
    const c = qasm('qreg q[2]; creg c[2]; x q[0]; measure q -> c;');
    const shots = 20_000;
    const result = simulateNoisy(c, model(2, { qubit: { readout_error: 0.5, readout_p10: 0.08, readout_p01: 0.03 } }), { shots, seed: 3, method });
    // bit 0 prepared 1 reads 0 with p10; bit 1 prepared 0 reads 1 with p01
    const bit0Zero = (result.counts['00'] ?? 0) + (result.counts['10'] ?? 0);
    const bit1One = (result.counts['10'] ?? 0) + (result.counts['11'] ?? 0);
    expect(zScore(bit0Zero, shots, 0.08)).toBeLessThan(3);
    expect(zScore(bit1One, shots, 0.03)).toBeLessThan(3);
  });

  it.each(METHODS)('an idle |1⟩ decays as exp(−t/T1) (%s)', (method) => {
    const t1 = 40;
    const single = 1;
    for (const idles of [0, 20, 50]) {
      const c = qasm(`qreg q[1]; creg c[1]; x q[0]; ${'id q[0]; '.repeat(idles)} measure q[0] -> c[0];`);
      const shots = 6000;
      const result = simulateNoisy(c, model(1, { qubit: { t1_us: t1, t2_us: 2 * t1 }, times: { single } }), { shots, seed: 100 + idles, method });
      // relaxation during the x gate and each identity: t = (1 + idles) µs
      expect(zScore(result.counts['1'] ?? 0, shots, Math.exp(-((1 + idles) * single) / t1))).toBeLessThan(3);
    }
  });

  it.each(METHODS)('a |1⟩ held for 30·T1 has relaxed to |0⟩; a |0⟩ never excites (%s)', (method) => {
    const c = qasm('qreg q[2]; creg c[2]; x q[0]; id q[1]; measure q -> c;');
    const result = simulateNoisy(c, model(2, { qubit: { t1_us: 1, t2_us: 1.5 }, times: { single: 30 } }), { shots: 500, seed: 4, method });
    expect(result.counts).toEqual({ '00': 500 });
  });

  it.each(METHODS)('Ramsey: coherence of |+⟩ decays as exp(−t/T2) (%s)', (method) => {
    const t1 = 100,
      t2 = 30,
      tau = 1;
    for (const idles of [5, 30, 60]) {
      const c = qasm(`qreg q[1]; creg c[1]; h q[0]; ${'id q[0]; '.repeat(idles)} h q[0]; measure q[0] -> c[0];`);
      const shots = 6000;
      const result = simulateNoisy(c, model(1, { qubit: { t1_us: t1, t2_us: t2 }, times: { single: tau } }), { shots, seed: 7 + idles, method });
      // coherence after (idles + 1)·τ, then the second H maps it to P(1), which relaxes for one more τ
      const p1 = 0.5 * (1 - Math.exp(-((idles + 1) * tau) / t2)) * Math.exp(-tau / t1);
      expect(zScore(result.counts['1'] ?? 0, shots, p1)).toBeLessThan(3);
    }
  });

  it('density matrix and trajectories agree on a compiled random circuit with every noise source', () => {
    const source = randomCircuit({ qubits: 4, depth: 4, seed: 21, measure: true });
    const compiled = compileToDevice(source, { numQubits: 5, nativeGates: ['rz', 'sx', 'x', 'cz'], couplingMap: lineCouplingMap(5) }, { seed: 1 });
    const noise = model(5, {
      qubit: { t1_us: 30, t2_us: 20, single_qubit_error: 0.01, readout_error: 0.04 },
      two: 0.05,
      times: { single: 0.05, two: 0.4, measure: 1 },
    });
    const a = simulateNoisy(compiled.circuit, noise, { shots: 6000, seed: 1, method: 'density-matrix' });
    const b = simulateNoisy(compiled.circuit, noise, { shots: 6000, seed: 2, method: 'trajectories' });
    const { chi, df } = homogeneity(a.counts, b.counts);
    expect(chi).toBeLessThan(chiCritical(df));
    // and noise is visible: the noiseless distribution differs
    const clean = simulateNoisy(compiled.circuit, noiselessModel(5, lineCouplingMap(5)), { shots: 6000, seed: 3, method: 'density-matrix' });
    expect(homogeneity(a.counts, clean.counts).chi).toBeGreaterThan(chiCritical(homogeneity(a.counts, clean.counts).df));
  });

  it('without noise reproduces the ideal distribution and keeps clbit order; only touched qubits are simulated', () => {
    const c = qasm('qreg q[3]; creg c[3]; h q[0]; cx q[0],q[2]; measure q -> c;');
    const compiled = compileToDevice(c, { numQubits: 16, nativeGates: ['rz', 'sx', 'x', 'cz'], couplingMap: lineCouplingMap(16) });
    for (const method of METHODS) {
      const result = simulateNoisy(compiled.circuit, noiselessModel(16, lineCouplingMap(16)), { shots: 2000, seed: 5, method });
      expect(Object.keys(result.counts).sort()).toEqual(['000', '101']);
      expect(result.simulatedQubits).toBeLessThanOrEqual(4);
      expect(zScore(result.counts['101'], 2000, 0.5)).toBeLessThan(3);
    }
  });

  it('is reproducible for a seed and picks a method automatically', () => {
    const noise = model(2, { qubit: { t1_us: 50, t2_us: 40, single_qubit_error: 0.01, readout_error: 0.02 }, two: 0.02 });
    const a = simulateNoisy(bell, noise, { shots: 500, seed: 9 });
    expect(simulateNoisy(bell, noise, { shots: 500, seed: 9 })).toEqual(a);
    expect(a.method).toBe('density-matrix');
    const midCircuit = qasm('qreg q[2]; creg c[2]; h q[0]; measure q[0] -> c[0]; cx q[0],q[1]; measure q[1] -> c[1];');
    expect(simulateNoisy(midCircuit, noise, { shots: 100, seed: 1 }).method).toBe('trajectories');
    // ten qubits and few shots: a trajectory per shot is cheaper than a 4^10 density matrix
    const wide = qasm(
      'qreg q[10]; creg c[10]; h q[0]; cx q[0],q[1]; cx q[1],q[2]; cx q[2],q[3]; cx q[3],q[4]; cx q[4],q[5]; cx q[5],q[6]; cx q[6],q[7]; cx q[7],q[8]; cx q[8],q[9]; measure q -> c;',
    );
    const wideNoise = { ...model(10), qubits: model(10).qubits.map((q) => ({ ...q, readout_error: 0.01 })) };
    expect(simulateNoisy(wide, wideNoise, { shots: 20, seed: 1 }).method).toBe('trajectories');
  });

  it('checks memory before allocating and rejects bad models', () => {
    const wide = qasm(`qreg q[12]; creg c[12]; h q; measure q -> c;`);
    const noise = model(12);
    expect(() => simulateNoisy(wide, noise, { shots: 10, method: 'density-matrix', memoryLimitBytes: 64 * 1024 ** 2 })).toThrow(
      /density matrix of 12 qubits needs 256 MiB; the limit is 64 MiB/,
    );
    expect(() =>
      simulateNoisy(bell, { ...model(2), qubits: [{ t1_us: 10, t2_us: 30, single_qubit_error: 0, readout_error: 0 }, model(2).qubits[1]] }, { shots: 10 }),
    ).toThrow(CircuitError);
    expect(() => simulateNoisy(bell, { ...model(2), edges: [] }, { shots: 10 })).toThrow(/no two_qubit_error for qubits \(0, 1\)/);
    expect(() => simulateNoisy(qasm('qreg q[3]; ccx q[0],q[1],q[2];'), model(3), { shots: 10 })).toThrow(/one- and two-qubit gates/);
  });
});
