import { createSeededRandom, deriveSeed } from './seeded-random.js';
import { benchmarkSeeds, BENCHMARK_SEEDS, tuningSeeds, TUNING_SEEDS } from './seeds.js';

describe('createSeededRandom', () => {
  it('repeats its sequence for the same seed and differs for another', () => {
    const a = createSeededRandom(42);
    const b = createSeededRandom(42);
    const c = createSeededRandom(43);
    const first = Array.from({ length: 5 }, () => a.uniform());
    expect(Array.from({ length: 5 }, () => b.uniform())).toEqual(first);
    expect(Array.from({ length: 5 }, () => c.uniform())).not.toEqual(first);
  });

  it('draws standard normals with mean ≈ 0 and std ≈ 1', () => {
    const sut = createSeededRandom(7);
    const values = Array.from({ length: 20000 }, () => sut.normal());
    const mean = values.reduce((s, v) => s + v, 0) / values.length;
    const std = Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length);
    expect(Math.abs(mean)).toBeLessThan(0.03);
    expect(Math.abs(std - 1)).toBeLessThan(0.03);
  });

  it('keeps uniforms in [0, 1) and integers in range', () => {
    const sut = createSeededRandom(1);
    for (let i = 0; i < 1000; i++) {
      const u = sut.uniform();
      expect(u).toBeGreaterThanOrEqual(0);
      expect(u).toBeLessThan(1);
      const k = sut.integer(3, 5);
      expect([3, 4, 5]).toContain(k);
    }
  });

  it('derives distinct seeds per stream', () => {
    expect(deriveSeed(1, 'a')).not.toBe(deriveSeed(1, 'b'));
    expect(deriveSeed(1, 'a')).toBe(deriveSeed(1, 'a'));
  });
});

describe('seed ranges', () => {
  it('keeps tuning and benchmark seeds disjoint', () => {
    expect(TUNING_SEEDS.last).toBeLessThan(BENCHMARK_SEEDS.first);
    expect(tuningSeeds(3, 10)).toEqual([11, 12, 13]);
    expect(benchmarkSeeds(2)).toEqual([1_000_000, 1_000_001]);
    expect(() => tuningSeeds(10_000)).toThrow(RangeError);
  });
});
