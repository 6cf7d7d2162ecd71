import { couplingLayout } from './coupling-layout.js';

const distance = (p: [number, number][], a: number, b: number) => Math.hypot(p[a]![0] - p[b]![0], p[a]![1] - p[b]![1]);

describe('couplingLayout', () => {
  it('places every qubit in the unit square, the same way every time', () => {
    const line: [number, number][] = [
      [0, 1],
      [1, 2],
      [2, 3],
      [3, 4],
    ];
    const layout = couplingLayout(5, line);
    expect(layout).toHaveLength(5);
    for (const [x, y] of layout) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(1);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(y).toBeLessThanOrEqual(1);
    }
    expect(couplingLayout(5, line)).toEqual(layout);
  });

  it('pulls coupled qubits closer than uncoupled ones (a line is drawn open, not as a ring)', () => {
    const line: [number, number][] = Array.from({ length: 7 }, (_, i) => [i, i + 1]);
    const layout = couplingLayout(8, line);
    const neighbours = line.map(([a, b]) => distance(layout, a, b));
    expect(Math.max(...neighbours)).toBeLessThan(distance(layout, 0, 7));
  });

  it('draws all-to-all devices on a circle and handles tiny devices', () => {
    expect(couplingLayout(1, null)).toEqual([[0.5, 0.5]]);
    expect(couplingLayout(0, null)).toEqual([]);
    expect(couplingLayout(4, null)).toHaveLength(4);
  });
});
