import { generateCoulombBlockadeTrace, tuningSeeds } from '#qdc/device-physics';
import { runModel } from '../model-runner.js';
import {
  classifyCoulombBlockadeV0,
  classifyCoulombBlockadeV1,
  classifyCoulombBlockadeV2,
  classifyCoulombBlockadeV3,
} from './coulomb-blockade-classifiers.model.js';

const SEEDS = tuningSeeds(300, 1500);
const MODELS = [
  ['v0', classifyCoulombBlockadeV0, 100],
  ['v1', classifyCoulombBlockadeV1, 100],
  ['v2', classifyCoulombBlockadeV2, 128],
  ['v3', classifyCoulombBlockadeV3, 128],
] as const;

describe('Coulomb-blockade classifiers', () => {
  it.each(MODELS)('%s classifies labelled traces with accuracy ≥ 0.97', (_, classify, length) => {
    let correct = 0;
    for (const seed of SEEDS) {
      const t = generateCoulombBlockadeTrace(seed, { length });
      if (classify(t.trace)['classification'] === t.isBlockade) correct++;
    }
    expect(correct / SEEDS.length).toBeGreaterThanOrEqual(0.97);
  });

  it('gives v2 and v3 a score in [0, 1] that is high for blockade and low for negatives', () => {
    for (const classify of [classifyCoulombBlockadeV2, classifyCoulombBlockadeV3]) {
      let positive = 0;
      let negative = 0;
      let np = 0;
      for (const seed of SEEDS.slice(0, 100)) {
        const t = generateCoulombBlockadeTrace(seed, { length: 128 });
        const score = classify(t.trace)['score'] as number;
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(1);
        if (t.isBlockade) {
          positive += score;
          np++;
        } else negative += score;
      }
      expect(positive / np).toBeGreaterThan(0.9);
      expect(negative / (100 - np)).toBeLessThan(0.1);
    }
  });

  it('answers constant input and pure noise with false', () => {
    let state = 42;
    const noise = Float64Array.from({ length: 128 }, () => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state / 2 ** 31 - 0.5;
    });
    for (const [, classify, length] of MODELS) {
      expect(classify(new Float64Array(length).fill(1))['classification']).toBe(false);
      expect(classify(noise.subarray(0, length))['classification']).toBe(false);
    }
  });

  it('v2 slides windows over long traces and reports the deciding window in the caller coordinates', () => {
    const short = generateCoulombBlockadeTrace(tuningSeeds(1, 1900)[0]!, { length: 128, kind: 'blockade', snrRange: [40, 60] });
    const long = new Float64Array(600);
    long.fill(short.trace[0]!);
    long.set(short.trace, 400);
    const out = runModel('coulomb-blockade-classifier-v2', { shape: [600], data: long });
    expect(out['classification']).toBe(true);
    const [first, last] = out['window'] as [number, number];
    expect(last - first).toBeLessThanOrEqual(599);
    expect(first).toBeGreaterThanOrEqual(0);
    const v3 = runModel('coulomb-blockade-classifier-v3', { shape: [600], data: long });
    expect(v3['classification']).toBe(true);
    expect(() => runModel('coulomb-blockade-classifier-v3', { shape: [31], data: new Float64Array(31) })).toThrow(/length ≥ 32/);
    expect(() => runModel('coulomb-blockade-classifier-v1', { shape: [31], data: new Float64Array(31) })).toThrow(/length ≥ 32/);
    expect(() => runModel('coulomb-blockade-classifier-v0', { shape: [31], data: new Float64Array(31) })).toThrow(/length ≥ 32/);
  });
});
