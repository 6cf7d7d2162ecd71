// The bench's peer re-implementations behave like the tools they stand for: scipy's local maxima (plateau middle,
// edges excluded) and prominences, and one answer per row from both peers (no significance test).
import { createSeededRandom } from '#qdc/device-physics';
import { findPeaksLorentzianDip, firstDifferenceNoise, localMaxima, prominenceOf, resonatorToolsNotchDip } from './resonator-peer-baselines.js';

describe('resonator peer baselines', () => {
  it('finds local maxima like scipy._local_maxima_1d: plateaus resolved to their middle (floor), edges never peaks', () => {
    expect(localMaxima(Float64Array.from([3, 1, 2, 1, 4]))).toEqual([2]);
    expect(localMaxima(Float64Array.from([0, 1, 1, 0]))).toEqual([1]);
    expect(localMaxima(Float64Array.from([0, 2, 2, 2, 0, 1, 0]))).toEqual([2, 5]);
    // A plateau running into the end is not a peak.
    expect(localMaxima(Float64Array.from([0, 1, 1]))).toEqual([]);
  });

  it('computes prominences like scipy.signal.peak_prominences (wlen = None)', () => {
    const x = Float64Array.from([0, 5, 1, 3, 2, 4, 0]);
    // Peak 3 (value 3): left it meets 5 after the minimum 1, right it meets 4 after the minimum 2 → 3 − max(1, 2).
    expect(prominenceOf(x, 3)).toEqual({ prominence: 1, leftBase: 2, rightBase: 4 });
    // Peak 1 (value 5): nothing higher either side → 5 − max(0, 0).
    expect(prominenceOf(x, 1).prominence).toBe(5);
  });

  it('estimates the point-to-point noise from first differences (σ of white noise within 10 %)', () => {
    const random = createSeededRandom(7);
    const x = Float64Array.from({ length: 4000 }, (_, i) => 0.01 * i + 0.5 * random.normal());
    expect(firstDifferenceNoise(x)).toBeGreaterThan(0.45);
    expect(firstDifferenceNoise(x)).toBeLessThan(0.55);
  });

  it('both peers put a clear Lorentzian dip within a sample of its bottom, and answer one dip on pure noise too', () => {
    const random = createSeededRandom(11);
    const dip = Float64Array.from({ length: 301 }, (_, i) => 1 - 0.5 / (1 + ((i - 140) / 6) ** 2) + 0.005 * random.normal());
    for (const peer of [findPeaksLorentzianDip, resonatorToolsNotchDip]) {
      const found = peer(dip);
      expect(found).toHaveLength(1);
      expect(Math.abs(found[0]! - 140)).toBeLessThanOrEqual(1);
    }
    const noise = Float64Array.from({ length: 301 }, () => 1 + 0.01 * random.normal());
    expect(resonatorToolsNotchDip(noise)).toHaveLength(1);
  });
});
