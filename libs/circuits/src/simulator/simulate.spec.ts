import { parseQasm } from '../frontends/qasm.parser.js';
import { simulate } from './simulate.js';

const qasm = (body: string) => parseQasm(`OPENQASM 2.0;\ninclude "qelib1.inc";\n${body}`).circuit;

/** Pearson chi-square of observed counts against expected probabilities. */
function chiSquare(counts: Record<string, number>, expected: Record<string, number>, shots: number): number {
  let chi = 0;
  for (const [key, p] of Object.entries(expected)) {
    const e = p * shots;
    chi += ((counts[key] ?? 0) - e) ** 2 / e;
  }
  return chi;
}

const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

describe('simulate', () => {
  it('puts classical bit 0 rightmost (X on qubit 0 only)', () => {
    const result = simulate(qasm('qreg q[3]; creg c[3]; x q[0]; measure q -> c;'), { shots: 100, seed: 1 });
    expect(result.counts).toEqual({ '001': 100 });
  });

  it('samples a Bell state 50/50 with exactly `shots` counts', () => {
    const shots = 20_000;
    const result = simulate(qasm('qreg q[2]; creg c[2]; h q[0]; cx q[0],q[1]; measure q -> c;'), { shots, seed: 7 });
    expect(total(result.counts)).toBe(shots);
    expect(Object.keys(result.counts).sort()).toEqual(['00', '11']);
    // 1 degree of freedom: 10.83 is the 0.1% critical value
    expect(chiSquare(result.counts, { '00': 0.5, '11': 0.5 }, shots)).toBeLessThan(10.83);
  });

  it('prepares GHZ on 5 qubits', () => {
    const result = simulate(qasm('qreg q[5]; creg c[5]; h q[0]; cx q[0],q[1]; cx q[1],q[2]; cx q[2],q[3]; cx q[3],q[4]; measure q -> c;'), {
      shots: 4000,
      seed: 3,
    });
    expect(Object.keys(result.counts).sort()).toEqual(['00000', '11111']);
    expect(chiSquare(result.counts, { '00000': 0.5, '11111': 0.5 }, 4000)).toBeLessThan(10.83);
  });

  it('is reproducible with a seed and differs across seeds', () => {
    const c = qasm('qreg q[3]; creg c[3]; h q; measure q -> c;');
    const a = simulate(c, { shots: 1000, seed: 42 });
    const b = simulate(c, { shots: 1000, seed: 42 });
    const d = simulate(c, { shots: 1000, seed: 43 });
    expect(a.counts).toEqual(b.counts);
    expect(a.counts).not.toEqual(d.counts);
    // uniform over 8 outcomes: 7 dof, 24.32 is the 0.1% critical value
    const uniform = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [i.toString(2).padStart(3, '0'), 1 / 8]));
    expect(chiSquare(a.counts, uniform, 1000)).toBeLessThan(24.32);
  });

  it('returns amplitudes little-endian for the statevector method', () => {
    const result = simulate(qasm('qreg q[2]; x q[1];'), { method: 'statevector', shots: 10, seed: 1 });
    const sv = result.statevector!;
    expect(sv).toHaveLength(4);
    expect(sv[2][0]).toBeCloseTo(1); // |q1=1, q0=0⟩ is index 2
    expect(result.counts).toEqual({ '10': 10 });
  });

  it('teleports a state (mid-circuit measurement and classically conditioned corrections)', () => {
    // Teleport ry(θ)|0⟩ from q0 to q2; P(q2 = 1) = sin²(θ/2).
    const theta = 1.1;
    const src = `qreg q[3]; creg m0[1]; creg m1[1]; creg out[1];
      ry(${theta}) q[0];
      h q[1]; cx q[1],q[2];
      cx q[0],q[1]; h q[0];
      measure q[0] -> m0[0]; measure q[1] -> m1[0];
      if (m1==1) x q[2];
      if (m0==1) z q[2];
      measure q[2] -> out[0];`;
    const shots = 8000;
    const result = simulate(qasm(src), { shots, seed: 11 });
    expect(result.trajectories).toBe(true);
    expect(total(result.counts)).toBe(shots);
    let ones = 0;
    for (const [key, n] of Object.entries(result.counts)) {
      expect(key).toMatch(/^[01] [01] [01]$/); // out m1 m0
      if (key[0] === '1') ones += n;
    }
    const p = Math.sin(theta / 2) ** 2;
    const sigma = Math.sqrt((p * (1 - p)) / shots);
    expect(Math.abs(ones / shots - p)).toBeLessThan(4 * sigma);
  });

  it('resets a qubit mid-circuit', () => {
    const result = simulate(qasm('qreg q[1]; creg c[2]; h q[0]; measure q[0] -> c[0]; reset q[0]; measure q[0] -> c[1];'), { shots: 2000, seed: 5 });
    for (const key of Object.keys(result.counts)) expect(key[0]).toBe('0');
    expect(Object.keys(result.counts).sort()).toEqual(['00', '01']);
  });

  it('measures every qubit when the circuit has no measurement', () => {
    const result = simulate(qasm('qreg q[2]; x q[0];'), { shots: 5, seed: 1 });
    expect(result.counts).toEqual({ '01': 5 });
  });

  it('refuses a circuit larger than the memory limit before allocating', () => {
    expect(() => simulate(qasm('qreg q[30]; h q[0];'), { shots: 1, memoryLimitBytes: 1024 ** 3 })).toThrow(/30 qubits needs 16 GiB.*limit is 1 GiB/);
  });

  it('limits statevector output and shots with a limit error', () => {
    expect(() => simulate(qasm('qreg q[17]; h q[0];'), { method: 'statevector', shots: 1 })).toThrow(
      expect.objectContaining({ kind: 'limit', message: expect.stringMatching(/limited to 16 qubits; this circuit has 17/) }),
    );
    expect(() => simulate(qasm('qreg q[1];'), { shots: 0 })).toThrow(expect.objectContaining({ kind: 'limit' }));
  });

  it('runs Grover on 3 qubits to the marked state', () => {
    // Marked state |101⟩: oracle = X on q1, CCZ, X on q1. Two iterations give P ≈ 0.945.
    const iteration = `x q[1]; h q[2]; ccx q[0],q[1],q[2]; h q[2]; x q[1];
      h q; x q; h q[2]; ccx q[0],q[1],q[2]; h q[2]; x q; h q;`;
    const result = simulate(qasm(`qreg q[3]; creg c[3]; h q; ${iteration} ${iteration} measure q -> c;`), { shots: 4000, seed: 9 });
    expect(result.counts['101'] / 4000).toBeGreaterThan(0.9);
  });

  it('inverts a QFT exactly', () => {
    // QFT then its inverse on |101⟩ gives |101⟩ back.
    const qft = 'h q[2]; cp(pi/2) q[1],q[2]; cp(pi/4) q[0],q[2]; h q[1]; cp(pi/2) q[0],q[1]; h q[0]; swap q[0],q[2];';
    const iqft = 'swap q[0],q[2]; h q[0]; cp(-pi/2) q[0],q[1]; h q[1]; cp(-pi/4) q[0],q[2]; cp(-pi/2) q[1],q[2]; h q[2];';
    const result = simulate(qasm(`qreg q[3]; creg c[3]; x q[0]; x q[2]; ${qft} ${iqft} measure q -> c;`), { shots: 100, seed: 1 });
    expect(result.counts).toEqual({ '101': 100 });
  });

  it('gives the uniform distribution after a QFT of a basis state', () => {
    const qft = 'h q[2]; cp(pi/2) q[1],q[2]; cp(pi/4) q[0],q[2]; h q[1]; cp(pi/2) q[0],q[1]; h q[0]; swap q[0],q[2];';
    const result = simulate(qasm(`qreg q[3]; x q[0]; ${qft}`), { method: 'statevector', shots: 1, seed: 1 });
    for (const [re, im] of result.statevector!) expect(re * re + im * im).toBeCloseTo(1 / 8, 12);
  });
});
