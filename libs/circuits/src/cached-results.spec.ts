// The library's two caches (recent unitary syntheses, CX translations) must be invisible: a result never depends on
// what was computed before it.
import { cxTranslation, gate1 } from './compile/synthesis.js';
import { kron2, multiply } from './ir/complex-matrix.js';
import { synthesizeUnitary } from './ir/unitary-synthesis.js';
import { createRng } from './simulator/rng.js';

function randomOneQubit(seed: number) {
  const rng = createRng(seed);
  const a = () => (rng.next() * 2 - 1) * Math.PI;
  return multiply(gate1('rz', [a()]), multiply(gate1('ry', [a()]), gate1('rz', [a()])));
}

const snapshot = (value: unknown) => JSON.parse(JSON.stringify(value));

describe('cached results', () => {
  it('synthesizeUnitary gives the same answer for a matrix before, between and after others', () => {
    const matrices = Array.from({ length: 20 }, (_, i) => kron2(randomOneQubit(2 * i + 1), randomOneQubit(2 * i + 2)));
    const first = matrices.map((m) => snapshot(synthesizeUnitary(m)));
    // Interleaved, and more distinct matrices than the cache holds, so some are hits and some recomputed.
    for (let round = 0; round < 2; round++)
      for (let i = matrices.length - 1; i >= 0; i--) {
        expect(snapshot(synthesizeUnitary(matrices[i]))).toEqual(first[i]);
        expect(snapshot(synthesizeUnitary(matrices[0]))).toEqual(first[0]);
      }
  });

  it('synthesizeUnitary hands out copies: changing one result does not change the next', () => {
    const m = kron2(randomOneQubit(7), randomOneQubit(8));
    const before = snapshot(synthesizeUnitary(m));
    const mutated = synthesizeUnitary(m);
    mutated.ops[0].qubits[0] = 99;
    mutated.ops.length = 0;
    mutated.globalPhase = 42;
    expect(snapshot(synthesizeUnitary(m))).toEqual(before);
  });

  it('cxTranslation gives the same translation whatever was asked before', () => {
    const keys = (['cx', 'cz', 'ecr', 'ms', 'rxx'] as const).flatMap((native) => [false, true].map((reversedOnly) => ({ native, reversedOnly })));
    const first = keys.map(({ native, reversedOnly }) => snapshot(cxTranslation(native, reversedOnly)));
    for (let i = keys.length - 1; i >= 0; i--) expect(snapshot(cxTranslation(keys[i].native, keys[i].reversedOnly))).toEqual(first[i]);
  });
});
