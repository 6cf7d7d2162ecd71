import { addQreg, emptyCircuit, type Circuit, type GateOp } from './circuit.js';
import { controlled, identity, kron2, matrix, multiply, type Matrix } from './complex-matrix.js';
import { evalExpr } from './expr.js';
import { gateMatrix, STANDARD_GATES } from './gates.js';
import {
  checkUnitary,
  MAX_STATE_PREPARATION_QUBITS,
  MAX_SYNTHESIS_QUBITS,
  synthesizeStatePreparation,
  synthesizeUnitary,
  type Complex,
} from './unitary-synthesis.js';
import { circuitUnitary } from '../simulator/unitary.js';
import { createRng } from '../simulator/rng.js';
import { gaussian, haarUnitary } from './haar.js';
import { CircuitError } from '../errors.js';
import { emitCircuit, parseCircuit } from '../convert.js';
import { equivalentUpToGlobalPhase } from '../simulator/unitary.js';
import { compileToDevice } from '../compile/compile-to-device.js';
import { lineCouplingMap } from '../compile/coupling-maps.js';

function circuitOf(n: number, ops: GateOp[], globalPhase: number): Circuit {
  const c = emptyCircuit();
  addQreg(c, 'q', n);
  c.ops = ops;
  c.globalPhase = globalPhase;
  return c;
}

/** Largest entry deviation between the synthesized circuit's unitary (global phase included) and m. */
function deviation(m: Matrix): { error: number; cx: number; ops: GateOp[] } {
  const N = Math.round(Math.sqrt(m.length / 2));
  const n = Math.round(Math.log2(N));
  const { ops, globalPhase } = synthesizeUnitary(m);
  const columns = circuitUnitary(circuitOf(n, ops, globalPhase));
  let error = 0;
  for (let c = 0; c < N; c++)
    for (let r = 0; r < N; r++) error = Math.max(error, Math.hypot(columns[c][2 * r] - m[2 * (r * N + c)], columns[c][2 * r + 1] - m[2 * (r * N + c) + 1]));
  return { error, cx: ops.filter((op) => op.name === 'cx').length, ops };
}

const std = (name: string, params: number[] = []): Matrix => gateMatrix(STANDARD_GATES.get(name)!, params);

function diagonal(phases: number[]): Matrix {
  const N = phases.length;
  const m = new Float64Array(2 * N * N);
  phases.forEach((p, i) => {
    m[2 * (i * N + i)] = Math.cos(p);
    m[2 * (i * N + i) + 1] = Math.sin(p);
  });
  return m;
}

function qft(n: number): Matrix {
  const N = 1 << n;
  const m = new Float64Array(2 * N * N);
  for (let r = 0; r < N; r++)
    for (let c = 0; c < N; c++) {
      m[2 * (r * N + c)] = Math.cos((2 * Math.PI * r * c) / N) / Math.sqrt(N);
      m[2 * (r * N + c) + 1] = Math.sin((2 * Math.PI * r * c) / N) / Math.sqrt(N);
    }
  return m;
}

const adjointOf = (m: Matrix): Matrix => {
  const N = Math.round(Math.sqrt(m.length / 2));
  const out = new Float64Array(m.length);
  for (let r = 0; r < N; r++)
    for (let c = 0; c < N; c++) {
      out[2 * (c * N + r)] = m[2 * (r * N + c)];
      out[2 * (c * N + r) + 1] = -m[2 * (r * N + c) + 1];
    }
  return out;
};

describe('synthesizeUnitary', () => {
  it.each([1, 2, 3, 4])('reproduces seeded Haar-random %i-qubit unitaries exactly, global phase included', (n) => {
    const rng = createRng(1000 + n);
    for (let trial = 0; trial < (n <= 2 ? 20 : n === 3 ? 6 : 3); trial++) {
      const { error } = deviation(haarUnitary(n, rng));
      expect(error).toBeLessThan(1e-9);
    }
  });

  it('reproduces a 5-qubit Haar-random unitary with the documented CX count', () => {
    const { error, cx } = deviation(haarUnitary(5, createRng(55)));
    expect(error).toBeLessThan(1e-9);
    expect(cx).toBe(444);
  });

  it('uses at most 3 CX on two qubits and the documented counts on 3 and 4', () => {
    const rng = createRng(3);
    for (let trial = 0; trial < 10; trial++) expect(deviation(haarUnitary(2, rng)).cx).toBeLessThanOrEqual(3);
    expect(deviation(haarUnitary(3, rng)).cx).toBe(20);
    expect(deviation(haarUnitary(4, rng)).cx).toBe(100);
  });

  it('needs exactly 1 CX for CX-class gates, 2 for controlled-U and 0 for products', () => {
    expect(deviation(std('cx')).cx).toBe(1);
    expect(deviation(multiply(kron2(haarUnitary(1, createRng(12)), haarUnitary(1, createRng(13))), std('cz'))).cx).toBe(1);
    expect(deviation(controlled(haarUnitary(1, createRng(14)), 1)).cx).toBe(2);
    expect(deviation(kron2(haarUnitary(1, createRng(15)), haarUnitary(1, createRng(16)))).cx).toBe(0);
  });

  it('emits only standard gates on qubits 0..n−1 with finite parameters', () => {
    const { ops } = deviation(haarUnitary(3, createRng(9)));
    for (const op of ops) {
      expect(['u', 'rx', 'ry', 'rz', 'h', 'cx']).toContain(op.name);
      expect(op.qubits.every((q) => q >= 0 && q < 3)).toBe(true);
      expect(op.params.every((p) => Number.isFinite(evalExpr(p)))).toBe(true);
    }
  });

  it.each<[string, Matrix, number]>([
    ['identity (1 qubit)', identity(2), 0],
    ['identity (2 qubits)', identity(4), 0],
    ['identity (3 qubits)', identity(8), 0],
    ['a global phase', diagonal([0.4, 0.4, 0.4, 0.4]), 0],
    ['H ⊗ T (a product)', kron2(std('h'), std('t')), 0],
    ['CX', std('cx'), 1],
    ['CZ', std('cz'), 1],
    ['CX with control on qubit 1', multiply(kron2(std('h'), std('h')), multiply(std('cx'), kron2(std('h'), std('h')))), 1],
    [
      '√iSWAP-like exp(iπ/8(XX+YY))',
      (() => {
        const m = identity(4);
        const c = Math.cos(Math.PI / 4),
          s = Math.sin(Math.PI / 4);
        m[2 * 5] = c;
        m[2 * 10] = c;
        m[2 * 6 + 1] = s;
        m[2 * 9 + 1] = s;
        return m;
      })(),
      2,
    ],
    ['SWAP', std('swap'), 3],
    ['iSWAP', std('iswap'), 2],
    ['RZZ(0.3)', std('rzz', [0.3]), 2],
    ['RXX(0.3)·RYY(−1.1)', multiply(std('rxx', [0.3]), std('ryy', [-1.1])), 2],
    ['controlled-Haar (2 qubits)', controlled(haarUnitary(1, createRng(4)), 1), 2],
    ['diagonal phases (2 qubits)', diagonal([0.1, -0.7, 2.3, 1.1]), 2],
    [
      'degenerate spectrum diag(1, 1, −1, −1) in a Haar basis',
      (() => {
        const v = haarUnitary(2, createRng(5));
        return multiply(v, multiply(diagonal([0, 0, Math.PI, Math.PI]), adjointOf(v)));
      })(),
      3,
    ],
    ['the 2-qubit QFT', qft(2), 3],
  ])('synthesizes %s exactly, with at most the expected CX count', (_, m, maxCx) => {
    const { error, cx } = deviation(m);
    expect(error).toBeLessThan(1e-9);
    expect(cx).toBeLessThanOrEqual(maxCx);
  });

  it.each<[string, () => Matrix]>([
    ['Toffoli', () => std('ccx')],
    ['Fredkin', () => std('cswap')],
    ['diagonal phases (3 qubits)', () => diagonal([0, 0.3, -1.2, 2.2, 0.9, -0.4, 1.7, 3.0])],
    [
      'degenerate spectrum (3 qubits, eigenvalues 1, 1, 1, 1, i, i, −1, −1) in a Haar basis',
      () => {
        const v = haarUnitary(3, createRng(6));
        return multiply(v, multiply(diagonal([0, 0, 0, 0, Math.PI / 2, Math.PI / 2, Math.PI, Math.PI]), adjointOf(v)));
      },
    ],
    ['controlled-Haar 2-qubit unitary (3 qubits)', () => controlled(haarUnitary(2, createRng(8)), 1)],
    ['doubly controlled Haar 1-qubit unitary', () => controlled(haarUnitary(1, createRng(10)), 2)],
    ['the 3-qubit QFT', () => qft(3)],
    ['the 4-qubit QFT', () => qft(4)],
    [
      'a permutation (cyclic shift on 3 qubits)',
      () => {
        const m = new Float64Array(128);
        for (let c = 0; c < 8; c++) m[2 * (((c + 1) % 8) * 8 + c)] = 1;
        return m;
      },
    ],
    ['a unitary a hair from the identity (Haar^(1e-6) stand-in: I·e^{iε diag})', () => diagonal([0, 1e-9, 2e-9, 0, 1e-9, 0, 0, 3e-9])],
  ])('synthesizes %s exactly', (_, make) => {
    expect(deviation(make()).error).toBeLessThan(1e-9);
  });

  it('reports a non-unitary matrix as a semantic error naming the size and the deviation', () => {
    const m = matrix([
      [1, 0],
      [0, 1.001],
    ]);
    expect(() => synthesizeUnitary(m)).toThrow(CircuitError);
    try {
      synthesizeUnitary(m);
    } catch (e) {
      expect((e as CircuitError).kind).toBe('semantic');
      expect((e as Error).message).toBe('the matrix (2×2) is not unitary: max |U†U − I| = 2.00e-3 exceeds the tolerance 1e-8');
    }
    expect(() =>
      checkUnitary(
        matrix([
          [1, 1],
          [0, 1],
        ]),
        'UnitaryGate',
      ),
    ).toThrow(/^UnitaryGate \(2×2\) is not unitary: max \|U†U − I\| = 1\.00e\+0/);
  });

  it('accepts a matrix unitary within the tolerance and rejects NaN and non-power-of-two sizes', () => {
    const h = std('h');
    const nearly = Float64Array.from(h, (v, i) => (i === 0 ? v + 2e-10 : v));
    expect(deviation(nearly).error).toBeLessThan(1e-9);
    expect(() =>
      checkUnitary(
        matrix([
          [Number.NaN, 0],
          [0, 1],
        ]),
        'M',
      ),
    ).toThrow('M has a non-finite entry');
    expect(() => checkUnitary(identity(3), 'M')).toThrow('M must be a square matrix whose size is a power of two; got 9 entries');
  });

  it('returns an independent copy when the same matrix is synthesized again', () => {
    const m = haarUnitary(2, createRng(40));
    const first = synthesizeUnitary(m);
    first.ops[0].qubits[0] = 7;
    const second = synthesizeUnitary(m);
    expect(second.ops[0].qubits[0]).not.toBe(7);
    expect(deviation(m).error).toBeLessThan(1e-9);
  });

  it('refuses a 12-qubit matrix by its size at once, before checking unitarity', () => {
    const big = new Float64Array(2 * 4096 * 4096);
    expect(() => synthesizeUnitary(big)).toThrow(`unitaries are synthesized up to ${MAX_SYNTHESIS_QUBITS} qubits (a 64×64 matrix); this one has 12`);
  });

  it('refuses matrices above the qubit limit, naming it', () => {
    const big = identity(1 << (MAX_SYNTHESIS_QUBITS + 1));
    expect(() => synthesizeUnitary(big)).toThrow(`unitaries are synthesized up to ${MAX_SYNTHESIS_QUBITS} qubits (a 64×64 matrix); this one has 7`);
    try {
      synthesizeUnitary(big);
    } catch (e) {
      expect((e as CircuitError).kind).toBe('limit');
    }
  });
});

describe('synthesized circuits downstream', () => {
  const target = haarUnitary(3, createRng(31));
  const { ops, globalPhase } = synthesizeUnitary(target);
  const circuit = circuitOf(3, ops, globalPhase);
  const columns = circuitUnitary(circuit);

  it.each(['qiskit', 'cirq', 'openqasm2', 'openqasm3'] as const)('round-trip through the %s emitter and parser', (framework) => {
    const back = parseCircuit(emitCircuit(circuit, framework)).circuit;
    expect(equivalentUpToGlobalPhase(circuitUnitary(back), columns)).toBe(true);
  });

  it('compiles to a device (rz, sx, x, cz on a line) with the same unitary modulo the layouts', () => {
    const compiled = compileToDevice(circuit, { numQubits: 3, nativeGates: ['rz', 'sx', 'x', 'cz'], couplingMap: lineCouplingMap(3) }, { seed: 1 });
    const place = (x: number, layout: number[]): number => layout.reduce((y, p, q) => y | (((x >> q) & 1) << p), 0);
    const compiledColumns = circuitUnitary({ ...compiled.circuit, ops: compiled.circuit.ops.filter((op) => op.kind !== 'measure') });
    let error = 0;
    for (let x = 0; x < 8; x++) {
      const col = compiledColumns[place(x, compiled.initialLayout)];
      for (let z = 0; z < 8; z++) {
        const y = place(z, compiled.finalLayout);
        error = Math.max(error, Math.hypot(col[2 * y] - target[2 * (z * 8 + x)], col[2 * y + 1] - target[2 * (z * 8 + x) + 1]));
      }
    }
    expect(error).toBeLessThan(1e-9);
    expect(compiled.circuit.ops.every((op) => op.kind !== 'gate' || ['rz', 'sx', 'x', 'cz'].includes(op.name))).toBe(true);
  });
});

function preparedState(amplitudes: Complex[]): { state: Float64Array; cx: number } {
  const n = Math.round(Math.log2(amplitudes.length));
  const { ops, globalPhase } = synthesizeStatePreparation(amplitudes);
  return { state: circuitUnitary(circuitOf(n, ops, globalPhase))[0], cx: ops.filter((op) => op.name === 'cx').length };
}

function stateError(amplitudes: Complex[]): number {
  const norm = Math.sqrt(amplitudes.reduce((s, [re, im]) => s + re * re + im * im, 0));
  const { state } = preparedState(amplitudes);
  return Math.max(...amplitudes.map(([re, im], i) => Math.hypot(state[2 * i] - re / norm, state[2 * i + 1] - im / norm)));
}

describe('synthesizeStatePreparation', () => {
  it.each([1, 2, 3, 4, 5, 6, 8])('prepares seeded random %i-qubit states exactly, global phase included', (n) => {
    const rng = createRng(2000 + n);
    for (let trial = 0; trial < 3; trial++) {
      const amplitudes = Array.from({ length: 1 << n }, (): Complex => [gaussian(rng), gaussian(rng)]);
      expect(stateError(amplitudes)).toBeLessThan(1e-10);
    }
  });

  it('uses at most 2·(2^n − 2) CX', () => {
    const rng = createRng(77);
    for (const n of [2, 3, 4, 5]) {
      const amplitudes = Array.from({ length: 1 << n }, (): Complex => [gaussian(rng), gaussian(rng)]);
      expect(preparedState(amplitudes).cx).toBeLessThanOrEqual(2 * (2 ** n - 2));
    }
  });

  it.each<[string, Complex[]]>([
    [
      '|0⟩',
      [
        [1, 0],
        [0, 0],
      ],
    ],
    [
      '|1⟩ with a phase',
      [
        [0, 0],
        [0, 1],
      ],
    ],
    ['|101⟩', Array.from({ length: 8 }, (_, i): Complex => (i === 5 ? [1, 0] : [0, 0]))],
    ['GHZ (unnormalised)', Array.from({ length: 8 }, (_, i): Complex => (i === 0 || i === 7 ? [1, 0] : [0, 0]))],
    ['W', Array.from({ length: 8 }, (_, i): Complex => ([1, 2, 4].includes(i) ? [1 / Math.sqrt(3), 0] : [0, 0]))],
    ['the uniform superposition with alternating signs', Array.from({ length: 16 }, (_, i): Complex => [i % 2 ? -0.25 : 0.25, 0])],
    [
      '−|11⟩ (all weight at the end, phase π)',
      [
        [0, 0],
        [0, 0],
        [0, 0],
        [-1, 0],
      ],
    ],
  ])('prepares %s exactly', (_, amplitudes) => {
    expect(stateError(amplitudes)).toBeLessThan(1e-12);
  });

  it('prepares a basis state without any CX', () => {
    expect(preparedState(Array.from({ length: 8 }, (_, i): Complex => (i === 6 ? [0, -1] : [0, 0]))).cx).toBe(0);
  });

  it.each<[string, Complex[], string, string]>([
    [
      'a zero vector',
      [
        [0, 0],
        [0, 0],
      ],
      'semantic',
      'a state vector must have finite amplitudes and a non-zero norm; got norm 0',
    ],
    [
      'a NaN amplitude',
      [
        [Number.NaN, 0],
        [1, 0],
      ],
      'semantic',
      'a state vector must have finite amplitudes and a non-zero norm; got norm NaN',
    ],
    [
      'an infinite amplitude',
      [
        [Number.POSITIVE_INFINITY, 0],
        [1, 0],
      ],
      'semantic',
      'a state vector must have finite amplitudes and a non-zero norm; got norm Infinity',
    ],
    [
      'length 3',
      [
        [1, 0],
        [0, 0],
        [0, 0],
      ],
      'semantic',
      'a state vector must have a power-of-two length (2, 4, 8, …); got 3 amplitudes',
    ],
    ['length 0', [], 'semantic', 'a state vector must have a power-of-two length (2, 4, 8, …); got 0 amplitudes'],
    [
      'too many qubits',
      Array.from({ length: 2 ** (MAX_STATE_PREPARATION_QUBITS + 1) }, (): Complex => [1, 0]),
      'limit',
      `states are prepared up to ${MAX_STATE_PREPARATION_QUBITS} qubits (4096 amplitudes); this one has 13 qubits`,
    ],
  ])('refuses %s with a clear error', (_, amplitudes, kind, message) => {
    expect(() => synthesizeStatePreparation(amplitudes)).toThrow(message);
    try {
      synthesizeStatePreparation(amplitudes);
    } catch (e) {
      expect((e as CircuitError).kind).toBe(kind);
    }
  });
});
