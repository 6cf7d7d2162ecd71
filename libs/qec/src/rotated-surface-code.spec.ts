import { rotatedSurfaceCode, standardMask } from './rotated-surface-code.js';

const overlap = (a: readonly number[], b: readonly number[]): number => a.filter((q) => b.includes(q)).length;

describe(rotatedSurfaceCode.name, () => {
  it.each([3, 5, 7, 9, 11])('d = %i: (d² − 1)/2 stabilizers of each type, weights 4 (bulk) and 2 (edges), one per storage cell', (d) => {
    const sut = rotatedSurfaceCode(d);
    for (const type of [0, 1] as const) {
      const stabs = sut.stabilizers[type];
      expect(stabs).toHaveLength((d * d - 1) / 2);
      expect(stabs.filter((s) => s.qubits.length === 2)).toHaveLength(d - 1);
      expect(stabs.filter((s) => s.qubits.length === 4)).toHaveLength((d - 1) ** 2 / 2);
      expect(new Set(stabs.map((s) => s.cell)).size).toBe(stabs.length);
      expect(standardMask(sut, type).reduce((a, b) => a + b, 0)).toBe(stabs.length);
    }
    // SPEC §6: weight-2 X plaquettes on the top/bottom edges, Z on the left/right edges.
    for (const s of sut.stabilizers[0].filter((s) => s.qubits.length === 2)) expect([-1, d - 1]).toContain(s.r);
    for (const s of sut.stabilizers[1].filter((s) => s.qubits.length === 2)) expect([-1, d - 1]).toContain(s.c);
  });

  it('matches the SPEC layout at d = 3 cell by cell', () => {
    const sut = rotatedSurfaceCode(3);
    // X: bulk (0,0), (1,1); top (−1,1) → cell (0,1); bottom (2,0) → cell (2,0).
    expect(Array.from(standardMask(sut, 0))).toEqual([1, 1, 0, 0, 1, 0, 1, 0, 0]);
    // Z: bulk (0,1), (1,0); left (0,−1) → cell (0,0); right (1,2) → cell (1,2).
    expect(Array.from(standardMask(sut, 1))).toEqual([1, 1, 0, 1, 0, 1, 0, 0, 0]);
  });

  it.each([3, 5, 7, 11])(
    'd = %i: every X stabilizer commutes with every Z stabilizer; the logicals commute with the stabilizers and anticommute with each other',
    (d) => {
      const sut = rotatedSurfaceCode(d);
      for (const x of sut.stabilizers[0]) for (const z of sut.stabilizers[1]) expect(overlap(x.qubits, z.qubits) % 2).toBe(0);
      const [xLogical, zLogical] = sut.logicalSupport;
      for (const z of sut.stabilizers[1]) expect(overlap(xLogical, z.qubits) % 2).toBe(0);
      for (const x of sut.stabilizers[0]) expect(overlap(zLogical, x.qubits) % 2).toBe(0);
      expect(overlap(xLogical, zLogical) % 2).toBe(1);
      expect(xLogical).toHaveLength(d);
      expect(zLogical).toHaveLength(d);
    },
  );

  it('every data qubit lies in one or two stabilizers of each type', () => {
    const sut = rotatedSurfaceCode(5);
    for (const type of [0, 1] as const) for (const stabs of sut.qubitStabilizers[type]) expect([1, 2]).toContain(stabs.length);
  });

  it('rejects even or small distances', () => {
    expect(() => rotatedSurfaceCode(4)).toThrow('odd distance');
    expect(() => rotatedSurfaceCode(1)).toThrow('odd distance');
  });
});
