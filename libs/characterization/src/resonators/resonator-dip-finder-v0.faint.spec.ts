// Faint single dips in repeated sweeps (issue 29), through the catalogue runner, on fixed tuning seeds of
// generateRepeatedDipSweep (ground truth from the generator): 6σ rows are answered near the dip (low_confidence
// allowed), 5σ rows are found within ½ width (the faint ones with low_confidence), 15σ rows confidently, white-noise
// flat rows stay empty (designed false-alarm rate 1 % per row). Flat rows with slow drift (slower to run):
// resonator-dip-finder-v0.model.slow.spec.ts.
import { generateRepeatedDipSweep, tuningSeeds } from '#qdc/device-physics';
import { runModel } from '../model-runner.js';
import { FAINT_FALSE_ALARM, independentTrials, lookElsewhereThreshold } from './resonator-dip-finder-v0.model.js';

const ID = 'resonator-dip-finder-v0';
const LENGTH = 200;

interface Answer {
  dip_indices: number[];
  low_confidence: boolean[];
}

function run(trace: Float64Array): Answer {
  return runModel(ID, { shape: [trace.length], data: trace }) as unknown as Answer;
}

describe(`${ID}: faint dips in repeated sweeps`, () => {
  it('sets the look-elsewhere threshold from the number of independent trials (1 % false alarms per row)', () => {
    expect(FAINT_FALSE_ALARM).toBe(0.01);
    // 1000 points: Σ n / FWHM over the template bank ≈ 2 300 trials → Q(t) = 4.3e-6 → t ≈ 4.45, + ½ for the fit.
    expect(independentTrials(1000)).toBeGreaterThan(2000);
    expect(independentTrials(1000)).toBeLessThan(2700);
    expect(lookElsewhereThreshold(1000)).toBeCloseTo(4.95, 1);
    expect(lookElsewhereThreshold(91)).toBeLessThan(lookElsewhereThreshold(2001));
  });

  it('answers rows with a 6σ dip with a dip within 3 linewidths of the truth (16 of 18 rows at least)', () => {
    let near = 0;
    let rows = 0;
    for (const seed of tuningSeeds(3, 9700)) {
      for (const row of generateRepeatedDipSweep(seed, { rows: 6, length: LENGTH, depthSigma: 6 }).rows) {
        rows++;
        const found = run(row.trace).dip_indices;
        if (found.some((i) => Math.abs(i - row.dip!.index) <= Math.max(3, 3 * row.dip!.width))) near++;
      }
    }
    expect(rows).toBe(18);
    expect(near).toBeGreaterThanOrEqual(16);
  });

  it('reports 15σ dips confidently (low_confidence false), one per row, within ½ width', () => {
    for (const seed of tuningSeeds(2, 9720)) {
      for (const row of generateRepeatedDipSweep(seed, { rows: 3, length: LENGTH, depthSigma: 15 }).rows) {
        const out = run(row.trace);
        expect({ seed, n: out.dip_indices.length, low: out.low_confidence }).toEqual({ seed, n: 1, low: [false] });
        expect(Math.abs(out.dip_indices[0]! - row.dip!.index)).toBeLessThanOrEqual(Math.max(1, row.dip!.width / 2));
      }
    }
  });

  it('finds 5σ dips on white-noise rows within ½ width (16 of 18), the faintest with low_confidence, and nothing else', () => {
    let hits = 0;
    let lowConfidenceHits = 0;
    let others = 0;
    for (const seed of tuningSeeds(3, 9780)) {
      for (const row of generateRepeatedDipSweep(seed, { rows: 6, length: LENGTH, depthSigma: 5, driftSigma: 0 }).rows) {
        const out = run(row.trace);
        const hit = out.dip_indices.findIndex((i) => Math.abs(i - row.dip!.index) <= Math.max(1, row.dip!.width / 2));
        if (hit >= 0) {
          hits++;
          if (out.low_confidence[hit]) lowConfidenceHits++;
        }
        others += out.dip_indices.length - (hit >= 0 ? 1 : 0);
      }
    }
    expect({ hits, others }).toEqual({ hits: 16, others: 0 });
    expect(lowConfidenceHits).toBeGreaterThanOrEqual(4);
  });

  it('stays empty on 12 white-noise flat rows (1 % false alarms per row designed)', () => {
    let falseDips = 0;
    for (const seed of tuningSeeds(2, 9740)) {
      for (const row of generateRepeatedDipSweep(seed, { rows: 6, length: LENGTH, flatFraction: 1, driftSigma: 0 }).rows)
        falseDips += run(row.trace).dip_indices.length;
    }
    expect(falseDips).toBe(0);
  });
});
