import { multiply } from '../ir/complex-matrix.js';
import { createRng } from '../simulator/rng.js';
import { cxTranslation, gate1, phaseBetween, synthesizeOneQubit, type OneQubitBasis, type TwoQubitNative } from './synthesis.js';

const BASIS_GATES: Record<OneQubitBasis, string[]> = { zsx: ['rz', 'sx', 'x'], gpi: ['gpi', 'gpi2'], rxry: ['rx', 'ry'], rzry: ['rz', 'ry'], u: ['u'] };

function randomUnitary(seed: number) {
  const rng = createRng(seed);
  const a = () => (rng.next() * 2 - 1) * Math.PI;
  return multiply(gate1('rz', [a()]), multiply(gate1('ry', [a()]), gate1('rz', [a()])));
}

describe(synthesizeOneQubit.name, () => {
  const special = ['h', 'x', 'y', 'z', 's', 't', 'sx', 'sdg', 'id'].map((n) => [n, gate1(n)] as const);
  const random = Array.from({ length: 40 }, (_, i) => [`random ${i}`, randomUnitary(1000 + i)] as const);

  it.each(['zsx', 'gpi', 'rxry', 'rzry', 'u'] as OneQubitBasis[])('reproduces any one-qubit unitary exactly (with its phase) in the %s basis', (basis) => {
    for (const [, m] of [...special, ...random]) {
      const { gates, phase } = synthesizeOneQubit(m, basis);
      let p = gate1('id');
      for (const g of gates) {
        expect(BASIS_GATES[basis]).toContain(g.name);
        p = multiply(gate1(g.name, g.params), p);
      }
      const c = [Math.cos(phase), Math.sin(phase)];
      const scaled = p.map((_, i) => (i % 2 === 0 ? p[i] * c[0] - p[i + 1] * c[1] : p[i - 1] * c[1] + p[i] * c[0]));
      expect(phaseBetween(m, scaled)).toBeCloseTo(0, 9);
    }
  });

  it('uses short forms: identity → nothing, a Z rotation → one rz, H → rz·sx·rz', () => {
    expect(synthesizeOneQubit(gate1('id'), 'zsx').gates).toEqual([]);
    expect(synthesizeOneQubit(gate1('t'), 'zsx').gates.map((g) => g.name)).toEqual(['rz']);
    expect(synthesizeOneQubit(gate1('h'), 'zsx').gates.map((g) => g.name)).toEqual(['rz', 'sx', 'rz']);
    expect(synthesizeOneQubit(gate1('x'), 'gpi').gates.map((g) => g.name)).toEqual(['gpi']);
    expect(synthesizeOneQubit(gate1('y'), 'zsx').gates.map((g) => g.name)).toContain('x');
    expect(synthesizeOneQubit(gate1('y'), 'zsx').gates.length).toBeLessThanOrEqual(3);
  });
});

describe(cxTranslation.name, () => {
  it.each(['cx', 'cz', 'ecr', 'ms', 'rxx'] as TwoQubitNative[])('translates CX exactly into %s, both orientations', (native) => {
    expect(() => cxTranslation(native, false)).not.toThrow();
    expect(() => cxTranslation(native, true)).not.toThrow();
    expect(cxTranslation(native, false).steps.filter((s) => s.k === 'g2')).toHaveLength(1);
  });
});
