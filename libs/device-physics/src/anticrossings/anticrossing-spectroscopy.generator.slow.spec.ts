import { tuningSeeds } from '../seeds.js';
import { ANTICROSSING_EDGE_COLUMNS, dressedModes, generateAnticrossingSpectroscopy } from './anticrossing-spectroscopy.generator.js';

describe(generateAnticrossingSpectroscopy.name, () => {
  it('makes (2, 801, 127) maps with crossings inside the window, at the resonator row, splitting 2g', () => {
    let crossings = 0;
    for (const seed of tuningSeeds(5, 3000)) {
      const t = generateAnticrossingSpectroscopy(seed, { kind: 'crossings' });
      expect(t.shape).toEqual([2, 801, 127]);
      expect(t.data.length).toBe(2 * 801 * 127);
      let finite = true;
      for (let i = 0; i < t.data.length; i++) finite &&= Number.isFinite(t.data[i]!);
      expect(finite).toBe(true);
      for (const c of t.crossings) {
        expect(c.x).toBeGreaterThanOrEqual(ANTICROSSING_EDGE_COLUMNS);
        expect(c.x).toBeLessThanOrEqual(126 - ANTICROSSING_EDGE_COLUMNS);
        expect(c.y).toBe(t.resonatorRow);
        expect(c.splittingPx).toBeCloseTo(2 * t.couplingRows, 10);
      }
      crossings += t.crossings.length;
    }
    expect(crossings).toBeGreaterThan(5);
  });

  it('has no crossing labels for the negative kinds, and is deterministic', () => {
    for (const kind of ['dispersive', 'no-qubit', 'noise'] as const) expect(generateAnticrossingSpectroscopy(5, { kind }).crossings).toEqual([]);
    const a = generateAnticrossingSpectroscopy(11).data;
    const b = generateAnticrossingSpectroscopy(11).data;
    expect(a.every((v, i) => v === b[i])).toBe(true);
  });

  it('dressed modes: splitting 2g at resonance, bare modes far away, resonator-like weight ≥ ½', () => {
    const m = dressedModes(400, 400, 12);
    expect(m.qubitLike - m.resonatorLike).toBeCloseTo(24, 10);
    const far = dressedModes(400, 900, 12);
    expect(far.resonatorLike).toBeCloseTo(400 - 144 / 500, 2);
    expect(far.resonatorWeight).toBeGreaterThan(0.99);
    expect(dressedModes(400, 380, 12).resonatorWeight).toBeGreaterThanOrEqual(0.5);
  });
});
