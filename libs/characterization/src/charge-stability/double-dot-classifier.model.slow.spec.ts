// Metric tests of the double-dot classifiers on simulated patches from tuning seeds 9001–9200: unused by training
// (seeds 1–9000) and by the score calibration (9201–9999), and not benchmark seeds.
import { generateChargeStabilityDiagram, tuningSeeds } from '#qdc/device-physics';
import { runModel } from '../model-runner.js';
import { ModelInputError } from '../model-input-error.js';
import { LISTED_CLASSIFIER_IDS } from './index.js';

const KINDS = ['double', 'single', 'double', 'none'] as const;
const sizeOf = (id: string): number => (id.endsWith('-48x48') ? 48 : 16);

// On these 200 seeds (accuracy resolved to ±0.012–0.016, 1 σ) v1–v3-16x16 and the 48×48 versions score 0.960–0.965
// with miss rate 0.030 (0.975–0.986 and 0.004–0.020 on the held-out benchmark); v0-16x16, the smallest network,
// scores 0.945 with miss rate 0.05 here (0.974 and 0.028 on the held-out benchmark). The bounds allow two more
// errors, no more.
const BOUNDS: Record<string, { accuracy: number; missRate: number }> = {
  'charge-stability-diagram-binary-classifier-v0-16x16': { accuracy: 0.935, missRate: 0.07 },
};
const boundsOf = (id: string): { accuracy: number; missRate: number } => BOUNDS[id] ?? { accuracy: 0.95, missRate: 0.04 };

describe('double-dot classifiers', () => {
  it.each(LISTED_CLASSIFIER_IDS.map((id) => [id, boundsOf(id).accuracy, boundsOf(id).missRate] as const))(
    '%s: accuracy ≥ %s and miss rate ≤ %s on tuning seeds 9001–9200',
    (id, minAccuracy, maxMissRate) => {
      const size = sizeOf(id);
      let correct = 0;
      let positives = 0;
      let misses = 0;
      const seeds = tuningSeeds(200, 9_000); // 100 double-dot patches: a miss rate resolved to 0.01
      seeds.forEach((seed, k) => {
        const d = generateChargeStabilityDiagram(seed, { rows: size, cols: size, kind: KINDS[k % 4]! });
        const yes = runModel(id, { shape: [size, size], data: d.data })['classification'] === true;
        if (yes === (d.label === 'double')) correct++;
        if (d.label === 'double') {
          positives++;
          if (!yes) misses++;
        }
      });
      expect(correct / seeds.length).toBeGreaterThanOrEqual(minAccuracy);
      expect(misses / positives).toBeLessThanOrEqual(maxMissRate);
    },
  );

  it.each(LISTED_CLASSIFIER_IDS)('%s: pure noise, constants and huge values give false, deterministically', (id) => {
    const size = sizeOf(id);
    let state = 3;
    const noise = Float64Array.from({ length: size * size }, () => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state / 2 ** 31;
    });
    for (const data of [noise, new Float64Array(size * size), new Float64Array(size * size).fill(1e300)]) {
      const a = runModel(id, { shape: [size, size], data });
      expect(a['classification']).toBe(false);
      expect(runModel(id, { shape: [size, size], data })).toEqual(a);
    }
  });

  it.each(LISTED_CLASSIFIER_IDS)('%s: rejects other shapes with the expected shape in the message', (id) => {
    const size = sizeOf(id);
    expect(() => runModel(id, { shape: [size, size + 1], data: new Float64Array(size * (size + 1)) })).toThrow(ModelInputError);
    expect(() => runModel(id, { shape: [size * size], data: new Float64Array(size * size) })).toThrow(`(${size}, ${size})`);
  });
});
