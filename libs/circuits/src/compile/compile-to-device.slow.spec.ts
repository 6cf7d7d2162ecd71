import { CircuitError } from '../errors.js';
import { addCreg, addQreg, emptyCircuit, type Circuit } from '../ir/circuit.js';
import { num } from '../ir/expr.js';
import { parseQasm } from '../frontends/qasm.parser.js';
import { randomCircuit } from '../random-circuit.js';
import { finalState, simulate } from '../simulator/simulate.js';
import { circuitUnitary } from '../simulator/unitary.js';
import { compileToDevice, type CompiledCircuit, type DeviceTarget } from './compile-to-device.js';
import { gridCouplingMap, heavyHex16CouplingMap, lineCouplingMap } from './coupling-maps.js';

const qasm = (body: string) => parseQasm(`OPENQASM 2.0;\ninclude "qelib1.inc";\n${body}`).circuit;

const BASES: Record<string, string[]> = {
  'rz-sx-x-cz': ['rz', 'sx', 'x', 'cz'],
  'rz-sx-x-ecr': ['rz', 'sx', 'x', 'ecr'],
  'rz-sx-x-cx': ['rz', 'sx', 'x', 'cx'],
  'gpi-gpi2-ms': ['gpi', 'gpi2', 'ms'],
  'rx-ry-rxx': ['rx', 'ry', 'rxx'],
};

const withoutMeasurements = (c: Circuit): Circuit => ({ ...c, ops: c.ops.filter((op) => op.kind !== 'measure') });

/** Physical index of a logical basis index under a layout (ancillas 0). */
const place = (x: number, layout: number[]): number => layout.reduce((y, p, q) => y | (((x >> q) & 1) << p), 0);

/**
 * The compiled circuit's unitary equals the source's, modulo the layouts: column for logical
 * input x (placed by initialLayout) is the source column placed by finalLayout, global phase included.
 */
function expectUnitaryEquivalent(source: Circuit, compiled: CompiledCircuit): void {
  const us = circuitUnitary(source);
  const uc = circuitUnitary(withoutMeasurements(compiled.circuit));
  const n = source.numQubits;
  for (let x = 0; x < 1 << n; x++) {
    const col = uc[place(x, compiled.initialLayout)];
    const expected = new Float64Array(col.length);
    for (let z = 0; z < 1 << n; z++) {
      const y = place(z, compiled.finalLayout);
      expected[2 * y] = us[x][2 * z];
      expected[2 * y + 1] = us[x][2 * z + 1];
    }
    for (let i = 0; i < col.length; i++) expect(Math.abs(col[i] - expected[i])).toBeLessThan(1e-8);
  }
}

/** finalState without the circuit's global phase, so multiply it in. */
function stateWithPhase(c: Circuit): Float64Array {
  const s = finalState(c);
  const [pr, pi] = [Math.cos(c.globalPhase), Math.sin(c.globalPhase)];
  for (let i = 0; i < s.length; i += 2) [s[i], s[i + 1]] = [s[i] * pr - s[i + 1] * pi, s[i] * pi + s[i + 1] * pr];
  return s;
}

/** The compiled circuit's final state (from |0…0⟩) is the source's state placed by finalLayout, global phase included. */
function expectStateEquivalent(source: Circuit, compiled: CompiledCircuit): void {
  const s = stateWithPhase(source);
  const c = stateWithPhase(withoutMeasurements(compiled.circuit));
  const expected = new Float64Array(c.length);
  for (let z = 0; z < s.length / 2; z++) {
    const y = place(z, compiled.finalLayout);
    expected[2 * y] = s[2 * z];
    expected[2 * y + 1] = s[2 * z + 1];
  }
  for (let i = 0; i < c.length; i++) expect(Math.abs(c[i] - expected[i])).toBeLessThan(1e-8);
}

function expectNative(compiled: CompiledCircuit, target: DeviceTarget, directional: boolean): void {
  const edges = new Set((target.couplingMap ?? []).map(([a, b]) => `${a},${b}`));
  for (const op of compiled.circuit.ops) {
    if (op.kind !== 'gate') continue;
    expect(target.nativeGates).toContain(op.name);
    if (op.qubits.length === 2 && target.couplingMap) {
      const [a, b] = op.qubits;
      if (directional) expect(edges.has(`${a},${b}`)).toBe(true);
      else expect(edges.has(`${a},${b}`) || edges.has(`${b},${a}`)).toBe(true);
    }
  }
}

const randomSource = (qubits: number, seed: number, depth = 5) => randomCircuit({ qubits, depth, seed });

describe(compileToDevice.name, () => {
  describe.each(Object.entries(BASES))('to %s', (label, nativeGates) => {
    const directional = nativeGates.includes('ecr') || nativeGates.includes('cx');
    const maps: [string, number, [number, number][] | null][] = [
      ['line-5', 5, lineCouplingMap(5)],
      ['grid-2x3', 6, gridCouplingMap(2, 3)],
      ['all-to-all-4', 4, null],
    ];
    it.each(maps)('random circuits on %s keep their unitary (global phase included)', (_, numQubits, couplingMap) => {
      for (let seed = 1; seed <= 4; seed++) {
        const source = randomSource(Math.min(4, numQubits), 100 * seed + label.length);
        const target: DeviceTarget = { numQubits, nativeGates, couplingMap };
        const compiled = compileToDevice(source, target, { seed });
        expectNative(compiled, target, directional);
        expectUnitaryEquivalent(source, compiled);
      }
    });
  });

  it.each([
    ['heavy-hex-16', 16, heavyHex16CouplingMap(), ['rz', 'sx', 'x', 'ecr']],
    ['grid-4x4', 16, gridCouplingMap(4, 4), ['rz', 'sx', 'x', 'cz']],
    ['line-12', 12, lineCouplingMap(12), ['rz', 'sx', 'x', 'cz']],
    ['ion-11', 11, null, ['gpi', 'gpi2', 'ms']],
  ] as const)('random 10-qubit circuits on %s keep their final state; every entangler sits on an edge', (_, numQubits, couplingMap, gates) => {
    for (const seed of [7, 8]) {
      const source = randomSource(10, seed, 6);
      const target: DeviceTarget = { numQubits, nativeGates: [...gates], couplingMap: couplingMap ? [...couplingMap] : null };
      for (const router of ['sabre', 'greedy'] as const) {
        const compiled = compileToDevice(source, target, { seed, router });
        expectNative(compiled, target, (gates as readonly string[]).includes('ecr'));
        expectStateEquivalent(source, compiled);
      }
    }
  });

  it('keeps counts in the user’s clbit order whatever the layout', () => {
    const source = qasm('qreg q[4]; creg c[4]; x q[0]; x q[3]; cx q[3],q[1]; measure q -> c;');
    const compiled = compileToDevice(source, { numQubits: 5, nativeGates: ['rz', 'sx', 'x', 'cz'], couplingMap: lineCouplingMap(5) }, { seed: 3 });
    expect(simulate(compiled.circuit, { shots: 50, seed: 1 }).counts).toEqual({ '1011': 50 });
  });

  it('noiselessly reproduces a GHZ distribution on a heavy-hex device', () => {
    const source = qasm('qreg q[6]; creg c[6]; h q[0]; cx q[0],q[5]; cx q[5],q[2]; cx q[2],q[4]; cx q[0],q[3]; cx q[3],q[1]; measure q -> c;');
    const compiled = compileToDevice(source, { numQubits: 16, nativeGates: ['rz', 'sx', 'x', 'ecr'], couplingMap: heavyHex16CouplingMap() }, { seed: 1 });
    const counts = simulate(compiled.circuit, { shots: 2000, seed: 5 }).counts;
    expect(Object.keys(counts).sort()).toEqual(['000000', '111111']);
  });

  it('adds measurements of every qubit when the circuit has none', () => {
    const source = qasm('qreg q[2]; x q[1];');
    const compiled = compileToDevice(source, { numQubits: 3, nativeGates: ['rz', 'sx', 'x', 'cz'], couplingMap: lineCouplingMap(3) });
    expect(simulate(compiled.circuit, { shots: 10, seed: 1 }).counts).toEqual({ '10': 10 });
  });

  it('compiles one CX of a Bell circuit to exactly one native entangler', () => {
    const source = qasm('qreg q[2]; creg c[2]; h q[0]; cx q[0],q[1]; measure q -> c;');
    for (const gates of Object.values(BASES)) {
      const compiled = compileToDevice(source, { numQubits: 2, nativeGates: gates, couplingMap: [[0, 1]] });
      expect(compiled.stats.twoQubitGateCount).toBe(1);
      expect(compiled.stats.swapCount).toBe(0);
    }
  });

  it('cancels adjacent inverse pairs and fuses one-qubit runs', () => {
    const source = qasm('qreg q[2]; h q[0]; h q[0]; cx q[0],q[1]; cx q[0],q[1]; t q[1]; tdg q[1]; cz q[0],q[1]; s q[0]; s q[0]; z q[0];');
    const compiled = compileToDevice(source, { numQubits: 2, nativeGates: ['rz', 'sx', 'x', 'cz'], couplingMap: null });
    // Only the cz survives; s·s·z is the identity.
    expect(compiled.circuit.ops.filter((op) => op.kind === 'gate').map((op) => op.kind === 'gate' && op.name)).toEqual(['cz']);
    expectUnitaryEquivalent(withoutMeasurements(source), { ...compiled, circuit: withoutMeasurements(compiled.circuit) });
  });

  it('routes a GHZ ladder on a line without swaps and a line-shaped circuit into a grid without swaps', () => {
    const ladder = emptyCircuit();
    addQreg(ladder, 'q', 8);
    addCreg(ladder, 'c', 8);
    ladder.ops.push({ kind: 'gate', name: 'h', qubits: [0], params: [] });
    for (let q = 0; q < 7; q++) ladder.ops.push({ kind: 'gate', name: 'cx', qubits: [q, q + 1], params: [] });
    expect(compileToDevice(ladder, { numQubits: 8, nativeGates: ['rz', 'sx', 'cz'], couplingMap: lineCouplingMap(8) }).stats.swapCount).toBe(0);
    // chain 3-0-5-1-4-2 (a path) fits a 2×3 grid's snake
    const chain = emptyCircuit();
    addQreg(chain, 'q', 6);
    for (const [a, b] of [
      [3, 0],
      [0, 5],
      [5, 1],
      [1, 4],
      [4, 2],
    ])
      chain.ops.push({ kind: 'gate', name: 'cx', qubits: [a, b], params: [] });
    expect(compileToDevice(chain, { numQubits: 6, nativeGates: ['rz', 'sx', 'cz'], couplingMap: gridCouplingMap(2, 3) }, { seed: 2 }).stats.swapCount).toBe(0);
  });

  it('SABRE inserts fewer swaps than the greedy router (QFT-8 on a line, a random circuit on heavy-hex)', () => {
    const qft = emptyCircuit();
    addQreg(qft, 'q', 8);
    for (let i = 0; i < 8; i++) {
      qft.ops.push({ kind: 'gate', name: 'h', qubits: [i], params: [] });
      for (let j = i + 1; j < 8; j++) qft.ops.push({ kind: 'gate', name: 'cp', qubits: [j, i], params: [num(Math.PI / 2 ** (j - i))] });
    }
    const random = randomCircuit({ qubits: 12, depth: 6, seed: 77, gates: ['cx', 'ry'] });
    for (const [source, target] of [
      [qft, { numQubits: 8, nativeGates: ['rz', 'sx', 'cz'], couplingMap: lineCouplingMap(8) }],
      [random, { numQubits: 16, nativeGates: ['rz', 'sx', 'ecr'], couplingMap: heavyHex16CouplingMap() }],
    ] as [typeof qft, DeviceTarget][]) {
      const sabre = compileToDevice(source, target, { seed: 1 });
      const greedy = compileToDevice(source, target, { router: 'greedy' });
      expect(sabre.stats.swapCount).toBeLessThan(0.8 * greedy.stats.swapCount);
      expectStateEquivalent(source, sabre);
    }
  });

  it('handles multi-controlled gates and parameters', () => {
    const source = qasm('qreg q[5]; h q; c3x q[0],q[1],q[2],q[3]; c4x q[0],q[1],q[2],q[3],q[4]; cu3(0.3,0.2,0.1) q[4],q[0]; rzz(0.7) q[1],q[3];');
    const compiled = compileToDevice(source, { numQubits: 5, nativeGates: ['gpi', 'gpi2', 'ms'], couplingMap: null });
    expectUnitaryEquivalent(source, compiled);
  });

  it('refuses circuits larger than the device, unknown native sets and classical feed-forward', () => {
    const big = randomSource(6, 1);
    const err = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e as CircuitError;
      }
      throw new Error('expected a CircuitError');
    };
    const e1 = err(() => compileToDevice(big, { numQubits: 5, nativeGates: ['rz', 'sx', 'cz'], couplingMap: lineCouplingMap(5) }));
    expect(e1).toBeInstanceOf(CircuitError);
    expect(e1.message).toBe('the circuit uses 6 qubits; the device has 5');
    const e2 = err(() => compileToDevice(randomSource(2, 1), { numQubits: 2, nativeGates: ['foo', 'cz'], couplingMap: null }));
    expect(e2.message).toMatch(/no one-qubit basis/);
    const cond = qasm('qreg q[2]; creg c[2]; measure q[0] -> c[0]; if (c==1) x q[1];');
    expect(err(() => compileToDevice(cond, { numQubits: 2, nativeGates: ['rz', 'sx', 'cz'], couplingMap: null })).message).toMatch(/classically conditioned/);
    const bad = err(() => compileToDevice(randomSource(2, 1), { numQubits: 3, nativeGates: ['rz', 'sx', 'cz'], couplingMap: [[0, 5]] }));
    expect(bad.message).toMatch(/coupling map edge \[0, 5\]/);
    const split = err(() =>
      compileToDevice(randomSource(2, 1), {
        numQubits: 4,
        nativeGates: ['rz', 'sx', 'cz'],
        couplingMap: [
          [0, 1],
          [2, 3],
        ],
      }),
    );
    expect(split.message).toMatch(/not connected/);
  });

  it('honours a fixed initial layout and checks it', () => {
    const source = randomSource(4, 5);
    const target: DeviceTarget = { numQubits: 6, nativeGates: ['rz', 'sx', 'x', 'cz'], couplingMap: lineCouplingMap(6) };
    for (const router of ['sabre', 'greedy'] as const) {
      const compiled = compileToDevice(source, target, { router, initialLayout: [5, 3, 1, 0] });
      expect(compiled.initialLayout).toEqual([5, 3, 1, 0]);
      expectUnitaryEquivalent(source, compiled);
    }
    expect(() => compileToDevice(source, target, { initialLayout: [0, 0, 1, 2] })).toThrow(
      'initialLayout must list 4 different physical qubits in 0..5; got [0,0,1,2]',
    );
  });

  it('is reproducible for a seed', () => {
    const source = randomSource(8, 11, 8);
    const target: DeviceTarget = { numQubits: 9, nativeGates: ['rz', 'sx', 'x', 'cz'], couplingMap: gridCouplingMap(3, 3) };
    const a = compileToDevice(source, target, { seed: 4 });
    const b = compileToDevice(source, target, { seed: 4 });
    expect(a.stats).toEqual(b.stats);
    expect(a.initialLayout).toEqual(b.initialLayout);
  });

  it('gives params as numbers', () => {
    const compiled = compileToDevice(qasm('qreg q[1]; u3(0.1,0.2,0.3) q[0];'), { numQubits: 1, nativeGates: ['rz', 'sx'], couplingMap: null });
    for (const op of compiled.circuit.ops) if (op.kind === 'gate') for (const p of op.params) expect(p).toEqual(num((p as { v: number }).v));
  });
});
