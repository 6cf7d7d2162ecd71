import { generateResonatorNotchTrace, RESONATOR_SNR_MIN } from './resonator-notch-trace.generator.js';
import { tuningSeeds } from './seeds.js';

describe(generateResonatorNotchTrace.name, () => {
  it('is deterministic per seed', () => {
    const a = generateResonatorNotchTrace(11);
    expect(Array.from(generateResonatorNotchTrace(11).trace)).toEqual(Array.from(a.trace));
  });

  it('labels 0–4 separated dips inside the span, with linewidth fr/Ql in samples', () => {
    for (const seed of tuningSeeds(200)) {
      const t = generateResonatorNotchTrace(seed);
      const n = t.trace.length;
      expect(t.dips.length).toBeLessThanOrEqual(4);
      t.dips.forEach((d, k) => {
        expect(d.index).toBeGreaterThanOrEqual(0);
        expect(d.index).toBeLessThan(n);
        expect(d.linewidth).toBeGreaterThanOrEqual(2);
        expect(d.depth).toBeGreaterThan(0);
        if (k > 0) expect(d.centre - t.dips[k - 1]!.centre).toBeGreaterThan(5 * d.linewidth);
      });
      expect(t.snr).toBeGreaterThanOrEqual(RESONATOR_SNR_MIN);
      if (t.format === 'linear') expect(t.trace.every((v) => v >= 0)).toBe(true);
    }
  });

  it('follows Probst Eq. (1): a φ = 0 notch bottoms out at 1 − Ql/|Qc| of the baseline', () => {
    // Very high SNR, one dip, linear: read the ratio of the bottom to the local baseline.
    const t = generateResonatorNotchTrace(tuningSeeds(1, 123)[0]!, { length: 2001, dipCount: 1, format: 'linear', snrRange: [1e6, 1e6] });
    const dip = t.dips[0]!;
    const bottom = Math.min(...Array.from(t.trace.slice(Math.max(0, dip.index - 3), dip.index + 4)));
    const far = Math.min(t.trace.length - 1, dip.index + Math.round(20 * dip.linewidth));
    const near = Math.max(0, dip.index - Math.round(20 * dip.linewidth));
    const baseline = dip.index + 20 * dip.linewidth < t.trace.length ? t.trace[far]! : t.trace[near]!;
    // Ripple and tilt move the baseline by a few per cent.
    expect(Math.abs(1 - bottom / baseline - dip.depth)).toBeLessThan(0.08);
  });

  it('writes dB as 20 log10 |S21|', () => {
    const linear = generateResonatorNotchTrace(5, { format: 'linear', length: 201 });
    const db = generateResonatorNotchTrace(5, { format: 'dB', length: 201 });
    for (let i = 0; i < 201; i += 20) expect(db.trace[i]!).toBeCloseTo(20 * Math.log10(linear.trace[i]!), 9);
  });
});
