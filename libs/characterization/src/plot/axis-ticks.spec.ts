import { axisTicks, formatTick } from './axis-ticks.js';

describe(axisTicks.name, () => {
  it('uses 1-2-5 steps covering the range', () => {
    const sut = axisTicks(0.13, 0.91);
    expect(sut.step).toBeCloseTo(0.2);
    expect(sut.low).toBeLessThanOrEqual(0.13);
    expect(sut.high).toBeGreaterThanOrEqual(0.91);
  });

  it('widens a zero-width range and keeps exact axes exact', () => {
    expect(axisTicks(5, 5).ticks.length).toBeGreaterThan(1);
    const exact = axisTicks(0, 127, true);
    expect(exact.low).toBe(0);
    expect(exact.high).toBe(127);
    expect(exact.ticks.every((t) => t >= 0 && t <= 127)).toBe(true);
  });

  it('formats very small and very large values in exponent notation', () => {
    expect(formatTick(2e-12, 1e-12)).toBe('2e-12');
    expect(formatTick(3e6, 1e6)).toBe('3e6');
    expect(formatTick(0.25, 0.05)).toBe('0.25');
  });
});
