import { createSeededRandom } from '#qdc/device-physics';
import { estimateWhiteNoiseStd, quietDifferenceNoise } from './robust-noise.js';

function noisyTrace(n: number, sigma: number, seed: number): Float64Array {
  const random = createSeededRandom(seed);
  return Float64Array.from({ length: n }, (_, i) => 0.01 * i + sigma * random.normal());
}

describe(estimateWhiteNoiseStd.name, () => {
  it('recovers σ of white noise on a slope within ~15 %', () => {
    const ratios = [1, 2, 3, 4, 5].map((seed) => estimateWhiteNoiseStd(noisyTrace(2000, 0.5, seed)) / 0.5);
    for (const r of ratios) expect(Math.abs(r - 1)).toBeLessThan(0.15);
  });

  it('is 0 for a constant trace and floors quantised traces at q/√12', () => {
    expect(estimateWhiteNoiseStd(new Float64Array(50).fill(3))).toBe(0);
    const steps = Float64Array.from({ length: 50 }, (_, i) => (i % 7 === 0 ? 1 : 0));
    expect(estimateWhiteNoiseStd(steps)).toBeCloseTo(1 / Math.sqrt(12));
  });
});

describe(quietDifferenceNoise.name, () => {
  it('ignores a dense train of strong narrow peaks', () => {
    const n = 100;
    const trace = noisyTrace(n, 1, 8);
    const centres: number[] = [];
    for (let c = 4; c < n; c += 8) {
      centres.push(c);
      for (let i = 0; i < n; i++) trace[i] = trace[i]! + 40 / Math.cosh((i - c) / 1.1) ** 2;
    }
    const rough = estimateWhiteNoiseStd(trace);
    const quiet = quietDifferenceNoise(
      trace,
      centres,
      centres.map(() => 2),
      0.4,
    );
    expect(rough).toBeGreaterThan(1.5);
    expect(Math.abs(quiet - 1)).toBeLessThan(0.35);
  });
});
