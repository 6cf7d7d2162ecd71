import { tuningSeeds } from '../seeds.js';
import { generateElectronUnloadingMap, transitionRowAt, UNLOAD_EDGE_ROWS, UNLOAD_MIN_SEPARATION_ROWS } from './electron-unloading-map.generator.js';

describe(generateElectronUnloadingMap.name, () => {
  it('makes (101, 51) maps with separated transitions away from the edges, labels = rounded rows', () => {
    for (const seed of tuningSeeds(30, 6000)) {
      const t = generateElectronUnloadingMap(seed);
      expect(t.shape).toEqual([101, 51]);
      expect(t.data.length).toBe(101 * 51);
      expect(t.unloadIndices).toEqual(t.transitions.map((x) => Math.round(x.row)));
      t.transitions.forEach((x, k) => {
        expect(x.row).toBeGreaterThanOrEqual(UNLOAD_EDGE_ROWS);
        expect(x.row).toBeLessThanOrEqual(100 - UNLOAD_EDGE_ROWS);
        if (k > 0) expect(x.row - t.transitions[k - 1]!.row).toBeGreaterThanOrEqual(UNLOAD_MIN_SEPARATION_ROWS);
        if (t.axis1 === 'time') expect(x.shift).toBe(0);
      });
    }
  });

  it('labels telegraph bands and step bands around the transitions, flat elsewhere', () => {
    const t = generateElectronUnloadingMap(42, { axis1: 'time', transitions: 3 });
    for (const x of t.transitions) {
      const row = Math.round(transitionRowAt(x, 25, 51));
      expect(t.texture[row * 51 + 25]).toBe(x.telegraphRows > 0 ? 2 : 1);
    }
    const far = Array.from({ length: 101 }, (_, r) => r).filter((r) => t.transitions.every((x) => Math.abs(r - x.row) > 8));
    for (const r of far) expect(t.texture[r * 51 + 10]).toBe(0);
  });

  it('is deterministic', () => {
    const a = generateElectronUnloadingMap(7).data;
    const b = generateElectronUnloadingMap(7).data;
    expect(a.every((v, i) => v === b[i])).toBe(true);
  });
});
