import { generateRepeatedDipSweep, REPEATED_DIP_FAINT_RANGE, REPEATED_DIP_MAX_DEPTH_SIGMA } from './resonator-repeated-sweep.generator.js';
import { tuningSeeds } from './seeds.js';

describe(generateRepeatedDipSweep.name, () => {
  it('is deterministic and gives rows of one length, a labelled dip per non-flat row', () => {
    const a = generateRepeatedDipSweep(3, { rows: 10, length: 200, flatFraction: 0.3 });
    const b = generateRepeatedDipSweep(3, { rows: 10, length: 200, flatFraction: 0.3 });
    expect(a.rows.map((r) => Array.from(r.trace))).toEqual(b.rows.map((r) => Array.from(r.trace)));
    for (const row of a.rows) {
      expect(row.trace).toHaveLength(200);
      if (row.dip) {
        expect(row.dip.index).toBeGreaterThanOrEqual(0);
        expect(row.dip.index).toBeLessThan(200);
        expect(row.dip.depthSigma).toBeGreaterThanOrEqual(REPEATED_DIP_FAINT_RANGE[0]);
        expect(row.dip.depthSigma).toBeLessThanOrEqual(REPEATED_DIP_MAX_DEPTH_SIGMA);
      }
    }
  });

  it('makes about 70 % of the rows faint (5–8 σ)', () => {
    let faint = 0;
    let rows = 0;
    for (const seed of tuningSeeds(10, 9500)) {
      for (const row of generateRepeatedDipSweep(seed, { rows: 20 }).rows) {
        rows++;
        if (row.dip!.depthSigma <= REPEATED_DIP_FAINT_RANGE[1]) faint++;
      }
    }
    expect(faint / rows).toBeGreaterThan(0.6);
    expect(faint / rows).toBeLessThan(0.8);
  });
});
