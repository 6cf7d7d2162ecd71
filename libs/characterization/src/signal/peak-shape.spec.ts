import { measurePeakShape } from './peak-shape.js';

const lorentzianLike = (n: number, centre: number, halfWidth: number, base: number) =>
  Float64Array.from({ length: n }, (_, i) => base + 1 / Math.cosh((i - centre) / halfWidth) ** 2);

describe('measurePeakShape', () => {
  it('measures the height above background and the FWHM of a cosh⁻² peak', () => {
    // FWHM of cosh⁻²(x / w) is 2 w acosh(√2) = 1.7627 w.
    for (const w of [1.5, 5]) {
      const trace = lorentzianLike(128, 64, w, 0.3);
      const shape = measurePeakShape(trace, 0, 128, 64, Math.ceil(6 * w))!;
      expect(shape.height).toBeCloseTo(1, 1);
      expect(shape.fwhm).toBeCloseTo(1.7627 * w, 0);
    }
  });

  it('reads a peak inside a larger buffer at an offset', () => {
    const row = lorentzianLike(50, 20, 3, 0);
    const buffer = new Float64Array(150);
    buffer.set(row, 100);
    expect(measurePeakShape(buffer, 100, 50, 20, 15)).toEqual(measurePeakShape(row, 0, 50, 20, 15));
  });

  it('uses the higher side as background (prominence), so a peak on a flank is only as high as its dip', () => {
    const trace = Float64Array.from({ length: 60 }, (_, i) => i / 10 + 2 / Math.cosh((i - 30) / 2) ** 2);
    const shape = measurePeakShape(trace, 0, 60, 30, 12)!;
    expect(shape.height).toBeGreaterThan(1.2);
    expect(shape.height).toBeLessThan(1.8); // 2 minus the rise of the uphill side to its dip
  });

  it('finds nothing to measure on a flat trace or a sample that is not a maximum', () => {
    expect(measurePeakShape(new Float64Array(10).fill(2), 0, 10, 5, 3)).toBeUndefined();
    expect(
      measurePeakShape(
        Float64Array.from({ length: 10 }, (_, i) => i),
        0,
        10,
        5,
        3,
      ),
    ).toBeUndefined();
  });
});
