import { createSeededRandom } from '#qdc/device-physics';
import { medianInPlace, selectInPlace } from './order-statistics.js';

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
