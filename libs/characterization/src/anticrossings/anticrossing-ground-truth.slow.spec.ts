// Ground truth from the independent generator (issue #29, cavity input–output transmission): a large splitting
// (2g = 60–80 rows) is found within 4 px with its splitting, a crossing 3–8 columns from the flux edge is found, and
// maps without a crossing (empty window, bare resonator, qubit never reaching the resonator) answer none.
// Tuning seeds only, one or two maps per case, and a sweep of 60 large-splitting maps at the generator's own SNR
// (4–50; the held-out sweeps are in bench:accuracy, BENCH_ONLY=anticrossings).
import { generateCavityAnticrossingMap, tuningSeeds, type CavityAnticrossingKind } from '#qdc/device-physics';
import { detectAnticrossings } from './anticrossing-detector.model.js';
import { anticrossingScore, countAnticrossingMatches, emptyAnticrossingCounts } from './anticrossing-score.js';

function matches(kind: CavityAnticrossingKind, seeds: number[]) {
  let found = 0;
  let labels = 0;
  let splittingError = 0;
  for (const seed of seeds) {
    const t = generateCavityAnticrossingMap(seed, { kind, snr: 20 });
    const detected = detectAnticrossings(t.data, t.shape[1], t.shape[2]).anticrossings;
    for (const c of t.crossings) {
      labels++;
      const m = detected.find((d) => Math.hypot(d.x - c.x, d.y - c.y) <= 4);
      if (m) {
        found++;
        splittingError = Math.max(splittingError, Math.abs(m.splitting_px - c.splittingPx) / c.splittingPx);
      }
    }
  }
  return { found, labels, splittingError };
}

describe('anticrossing-detector-v0 on the independent generator', () => {
  it('finds large splittings (2g = 60–80 rows) within 4 px, splitting within 15 %', () => {
    const { found, labels, splittingError } = matches('large', tuningSeeds(1, 7000));
    expect(labels).toBeGreaterThan(0);
    expect(found).toBe(labels);
    expect(splittingError).toBeLessThan(0.15);
  });

  it('finds large splittings on 60 maps (SNR 4–50) with F1 ≥ 0.93 and a mean position error ≤ 1 px', () => {
    const point = (a: { x: number; y: number; splittingPx?: number; splitting_px?: number }) => ({
      x: a.x,
      y: a.y,
      splitting: a.splittingPx ?? a.splitting_px ?? 0,
    });
    const counts = emptyAnticrossingCounts();
    for (const seed of tuningSeeds(60, 7000)) {
      const t = generateCavityAnticrossingMap(seed, { kind: 'large' });
      const detected = detectAnticrossings(t.data, t.shape[1], t.shape[2]).anticrossings;
      countAnticrossingMatches(detected.map(point), t.crossings.map(point), t.ignored.map(point), counts);
    }
    const score = anticrossingScore(counts);
    expect(counts.truePositives).toBeGreaterThan(80);
    expect(score.f1).toBeGreaterThanOrEqual(0.93);
    expect(score.meanPositionError).toBeLessThanOrEqual(1);
  });

  it('finds a crossing 3–8 columns from the flux edge', () => {
    const seeds = tuningSeeds(2, 7000);
    for (const seed of seeds) {
      const t = generateCavityAnticrossingMap(seed, { kind: 'edge', snr: 20 });
      expect(t.crossings.some((c) => c.x <= 8 || c.x >= 118)).toBe(true);
    }
    const { found, labels } = matches('edge', seeds);
    expect(found).toBe(labels);
  });

  it.each(['empty', 'above'] as const)('answers no crossing on a %s map', (kind) => {
    for (const seed of tuningSeeds(1, 7200)) {
      const t = generateCavityAnticrossingMap(seed, { kind });
      expect(t.crossings).toEqual([]);
      expect(detectAnticrossings(t.data, t.shape[1], t.shape[2]).anticrossings).toEqual([]);
    }
  });
});
