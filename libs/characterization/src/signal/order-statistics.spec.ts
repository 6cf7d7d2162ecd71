import { createSeededRandom } from '#qdc/device-physics';
import {
  MAD_TO_SIGMA,
  median,
  medianAbsoluteDeviation,
  medianInPlace,
  orderStatistic,
  quantile,
  runningMedian,
  selectInPlace,
  sortedQuantile,
} from './order-statistics.js';

describe(selectInPlace.name, () => {
  it('returns the k-th smallest like a sort does, with ties and any k', () => {
    const random = createSeededRandom(3);
    for (let trial = 0; trial < 200; trial++) {
      const n = 1 + random.integer(0, 60);
      const values = Float64Array.from({ length: n }, () => Math.round(random.between(-5, 5)) + 0);
      for (let i = 0; i < n; i++) if (values[i] === 0) values[i] = 0;
      const sorted = Array.from(values).sort((a, b) => a - b);
      const k = random.integer(0, n - 1);
      expect(selectInPlace(Float64Array.from(values), n, k)).toEqual(sorted[k]! + 0);
    }
  });

  it('gives the upper median', () => {
    expect(medianInPlace(Float64Array.from([4, 1, 3, 2]), 4)).toBe(3);
  });
});

describe('median, quantile, MAD', () => {
  const sorted = (values: ArrayLike<number>): number[] => Array.from(values).sort((a, b) => a - b);

  it('agree with a sort on random data and leave the input untouched', () => {
    const random = createSeededRandom(11);
    for (let trial = 0; trial < 100; trial++) {
      const n = 1 + random.integer(0, 40);
      const values = Float64Array.from({ length: n }, () => random.between(-3, 3));
      const copy = Float64Array.from(values);
      const s = sorted(values);
      expect(median(values)).toBe(s[n >>> 1]);
      for (const q of [0, 0.02, 0.25, 0.5, 0.9, 1]) expect(quantile(values, q)).toBe(s[Math.floor(q * (n - 1))]);
      const k = random.integer(0, n - 1);
      expect(orderStatistic(values, k)).toBe(s[k]);
      const centre = s[n >>> 1]!;
      expect(medianAbsoluteDeviation(values)).toBe(sorted(Array.from(values, (v) => Math.abs(v - centre)))[n >>> 1]);
      expect(values).toEqual(copy);
    }
  });

  it('quantile(·, 0.5) is the lower median, median the upper one', () => {
    expect(quantile([4, 1, 3, 2], 0.5)).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(3);
  });

  it('NaN for an empty list', () => {
    expect(median([])).toBeNaN();
    expect(quantile([], 0.5)).toBeNaN();
    expect(medianAbsoluteDeviation([])).toBeNaN();
  });

  it('MAD_TO_SIGMA · MAD estimates σ of Gaussian noise', () => {
    const random = createSeededRandom(5);
    const values = Float64Array.from({ length: 20000 }, () => 2 * random.normal());
    expect(MAD_TO_SIGMA * medianAbsoluteDeviation(values)).toBeCloseTo(2, 1);
  });
});

describe(sortedQuantile.name, () => {
  it('takes the nearest rank of an already sorted array: round(q·(n − 1)), clamped', () => {
    const sorted = Float64Array.of(1, 2, 3, 4, 5);
    expect([0, 0.1, 0.125, 0.5, 0.9, 1, -1, 2].map((q) => sortedQuantile(sorted, q))).toEqual([1, 1, 2, 3, 5, 5, 1, 5]);
  });
});

describe(runningMedian.name, () => {
  it('is the upper median of each window, shrunk at the ends', () => {
    const random = createSeededRandom(5);
    const trace = Float64Array.from({ length: 40 }, () => random.between(-2, 2));
    for (const half of [0, 1, 2, 7]) {
      const out = runningMedian(trace, half);
      for (let i = 0; i < trace.length; i++) {
        const window = Array.from(trace.subarray(Math.max(0, i - half), Math.min(trace.length, i + half + 1))).sort((a, b) => a - b);
        expect(out[i]).toBe(window[window.length >>> 1]);
      }
    }
  });

  it('removes an isolated spike and keeps a step', () => {
    const trace = Float64Array.from({ length: 12 }, (_, i) => (i < 6 ? 0 : 1));
    trace[2] = 50;
    expect(Array.from(runningMedian(trace, 2))).toEqual([0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1]);
  });
});
