import type { QdcConfig } from '#qdc/platform';
import { RateLimiter } from './rate-limiter.js';

const limiter = (perMinute: number) => new RateLimiter({ QDC_RATE_LIMIT_PER_MINUTE: perMinute } as QdcConfig);

describe(RateLimiter.name, () => {
  it('allows a burst of the per-minute budget, then asks to wait', () => {
    const sut = limiter(60);
    const t0 = 1_000_000;
    for (let i = 0; i < 60; i++) expect(sut.take('k', t0)).toBe(0);
    expect(sut.take('k', t0)).toBe(1); // one token per second at 60/min
  });

  it('refills at the configured rate', () => {
    const sut = limiter(6); // one token per 10 s
    const t0 = 5_000_000;
    for (let i = 0; i < 6; i++) sut.take('k', t0);
    expect(sut.take('k', t0)).toBe(10);
    expect(sut.take('k', t0 + 5_000)).toBe(5);
    expect(sut.take('k', t0 + 10_000)).toBe(0);
  });

  it('keeps keys apart', () => {
    const sut = limiter(1);
    expect(sut.take('a', 0)).toBe(0);
    expect(sut.take('a', 0)).toBeGreaterThan(0);
    expect(sut.take('b', 0)).toBe(0);
  });
});
