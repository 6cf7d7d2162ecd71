// Ground-truth tests of the onset fit (onset-fit.ts: baseline + A·max(0, k − t)^p, variable projection) and of the
// turn-on extractor that uses it: known kink / exponent / 5 % point, the independent onset-model generator at lengths
// other than 100, and a conducting level that keeps sloping upwards above the onset. Tuning seeds only.
import { createSeededRandom, generateOnsetTurnOnTrace, tuningSeeds, turnOnThresholdIndex } from '#qdc/device-physics';
import { runModel } from '../model-runner.js';
import { fitOnset, onsetCrossing } from './onset-fit.js';

/** y(k) = b + d·k/m + A·max(0, k − t)^p + noise/snr over m samples; A such that the onset reaches 1 at the last sample. */
function onsetCurve(seed: number, m: number, p: number, snr: number) {
  const random = createSeededRandom(seed);
  const kink = random.between(0.2, 0.5) * m;
  const amplitude = 1 / (m - 1 - kink) ** p;
  const base = random.between(-0.1, 0.1);
  const drift = random.between(-0.05, 0.05);
  const y = new Float64Array(m);
  for (let k = 0; k < m; k++) y[k] = base + (drift * k) / m + (k > kink ? amplitude * (k - kink) ** p : 0) + (snr > 0 ? random.normal() / snr : 0);
  return { y, kink, amplitude, crossing: kink + (0.05 / amplitude) ** (1 / p) };
}

const threshold = (trace: Float64Array): number | null =>
  runModel('turn-on-parameter-extractor-v0', { shape: [trace.length], data: trace })['threshold_index'] as number | null;

describe('onset fit (power-law / linear onset with a kink)', () => {
  it('recovers kink, exponent and amplitude of a noiseless onset on a sloping baseline', () => {
    for (const p of [1, 2, 3]) {
      for (const seed of tuningSeeds(5, 7000)) {
        const truth = onsetCurve(seed, 60, p, 0);
        const fit = fitOnset(truth.y, 59)!;
        expect(fit).not.toBeNull();
        expect(Math.abs(fit.kink - truth.kink)).toBeLessThanOrEqual(0.3);
        expect(fit.exponent).toBe(p);
        expect(Math.abs(fit.amplitude / truth.amplitude - 1)).toBeLessThan(0.1);
        expect(Math.abs(onsetCrossing(fit, 0.05) - truth.crossing)).toBeLessThanOrEqual(0.3);
      }
    }
  });

  it('with noise (swing / σ = 100): the 5 % point within 0.75 samples on average for linear and square-law onsets', () => {
    for (const p of [1, 2]) {
      let error = 0;
      const seeds = tuningSeeds(20, 7000);
      for (const seed of seeds) {
        const truth = onsetCurve(seed, 60, p, 100);
        error += Math.abs(onsetCrossing(fitOnset(truth.y, 59)!, 0.05) - truth.crossing);
      }
      expect(error / seeds.length).toBeLessThanOrEqual(0.75);
    }
  });

  it('returns null on a window shorter than 8 samples or with no rising onset', () => {
    expect(fitOnset(Float64Array.from([0, 0, 1, 2, 3, 4, 5]), 6)).toBeNull();
    expect(
      fitOnset(
        Float64Array.from({ length: 40 }, (_, k) => -Math.max(0, k - 10)),
        39,
      ),
    ).toBeNull();
  });
});

describe('turn-on-parameter-extractor-v0 with the onset fit', () => {
  it('independent onset-model generator at lengths 48, 100, 333 and 1000: threshold MAE ≤ 2 % of the length, ≥ 90 % answered', () => {
    for (const length of [48, 100, 333, 1000]) {
      let error = 0;
      let answered = 0;
      const seeds = tuningSeeds(length === 1000 ? 15 : 30, 7100);
      for (const seed of seeds) {
        const t = generateOnsetTurnOnTrace(seed, { length });
        const found = threshold(t.trace);
        if (found === null) continue;
        answered++;
        error += Math.abs(found - t.thresholdIndex);
      }
      expect(answered).toBeGreaterThanOrEqual(0.9 * seeds.length);
      expect(error / answered).toBeLessThanOrEqual(0.02 * length);
    }
  });

  it('a conducting level that keeps sloping upwards (up to 60 % of the swing over the sweep) does not move the threshold: MAE ≤ 1 sample', () => {
    for (const length of [64, 100, 250]) {
      for (const slope of [0.3, 0.6]) {
        let error = 0;
        const seeds = tuningSeeds(15, 7300);
        for (const seed of seeds) {
          const random = createSeededRandom(seed);
          const vt = random.between(0.2, 0.45) * (length - 1);
          const width = random.between(0.05, 0.15) * length;
          const p = random.between(1, 2.5);
          const clean = new Float64Array(length);
          for (let k = 0; k < length; k++) clean[k] = -Math.expm1(-(Math.max(0, (k - vt) / width) ** p)) + (k > vt ? (slope * (k - vt)) / length : 0);
          const label = turnOnThresholdIndex(clean, 0, true)!;
          const found = threshold(Float64Array.from(clean, (v) => v + random.normal() / 100));
          expect(found).not.toBeNull();
          error += Math.abs(found! - label);
        }
        expect(error / seeds.length).toBeLessThanOrEqual(1);
      }
    }
  });
});
