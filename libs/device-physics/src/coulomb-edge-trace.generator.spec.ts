import { EDGE_PEAK_MAX_OFFSET_SAMPLES, generateCoulombEdgeTrace } from './coulomb-edge-trace.generator.js';
import { tuningSeeds } from './seeds.js';

describe(generateCoulombEdgeTrace.name, () => {
  it('is deterministic per seed and honours length and kind', () => {
    const a = generateCoulombEdgeTrace(11, { length: 128, kind: 'edge-peaks' });
    const b = generateCoulombEdgeTrace(11, { length: 128, kind: 'edge-peaks' });
    expect(Array.from(b.trace)).toEqual(Array.from(a.trace));
    expect(a.trace).toHaveLength(128);
    expect(a.kind).toBe('edge-peaks');
  });

  it('puts a labelled peak within the first or last few samples of every edge-peak trace', () => {
    for (const seed of tuningSeeds(60, 8000)) {
      const t = generateCoulombEdgeTrace(seed, { length: 100, kind: 'edge-peaks' });
      const nearEnd = t.peakIndices.concat(t.ignoredPeakIndices).filter((i) => i <= EDGE_PEAK_MAX_OFFSET_SAMPLES || i >= 99 - EDGE_PEAK_MAX_OFFSET_SAMPLES);
      expect(nearEnd.length).toBeGreaterThanOrEqual(1);
      expect(t.rise).toBeNull();
    }
  });

  it('makes a rising end that is monotone over its last four samples and carries no label there', () => {
    for (const seed of tuningSeeds(60, 8100)) {
      const t = generateCoulombEdgeTrace(seed, { length: 500, kind: 'end-rise', snrRange: [1e6, 1e6] });
      const x = t.rise!.end === 'end' ? Array.from(t.trace) : Array.from(t.trace).reverse();
      for (let i = 496; i < 499; i++) expect(x[i + 1]!).toBeGreaterThan(x[i]!);
      const labelledAtRise = t.peakIndices.filter((i) => (t.rise!.end === 'end' ? i >= 480 : i <= 19));
      expect(labelledAtRise).toEqual([]);
    }
  });
});
