import { backoffStepMs, nextRetry } from './webhook-backoff.js';

describe('webhook retry schedule', () => {
  const policy = { baseMs: 10_000, maxMs: 3_600_000, windowMs: 86_400_000 };
  const first = new Date('2026-11-28T00:00:00Z');

  it('doubles from the base up to the cap', () => {
    expect([1, 2, 3, 4, 5, 9, 10, 11, 50].map((n) => backoffStepMs(n, policy))).toEqual([
      10_000, 20_000, 40_000, 80_000, 160_000, 2_560_000, 3_600_000, 3_600_000, 3_600_000,
    ]);
  });

  it('waits between half and all of the step (equal jitter)', () => {
    const now = new Date(first.getTime() + 60_000);
    expect(nextRetry(3, first, now, policy, () => 0)).toEqual({ retry: true, at: new Date(now.getTime() + 20_000) });
    expect(nextRetry(3, first, now, policy, () => 0.5)).toEqual({ retry: true, at: new Date(now.getTime() + 30_000) });
    expect(nextRetry(3, first, now, policy, () => 0.999_999)).toEqual({ retry: true, at: new Date(now.getTime() + 39_999.98) });
  });

  it('tries last at the window’s end, then gives up', () => {
    const late = new Date(first.getTime() + policy.windowMs - 1_000);
    expect(nextRetry(20, first, late, policy, () => 1)).toEqual({ retry: true, at: new Date(first.getTime() + policy.windowMs) });
    expect(nextRetry(21, first, new Date(first.getTime() + policy.windowMs), policy, () => 0)).toEqual({ retry: false });
  });

  it('with the defaults, makes 41 attempts in the 24 h when every attempt fails at once (jitter at its middle)', () => {
    let now = first;
    let attempts = 1;
    for (;;) {
      const next = nextRetry(attempts, first, now, policy, () => 0.5);
      if (!next.retry) break;
      now = next.at;
      attempts += 1;
    }
    expect(attempts).toBe(41);
    expect(now.getTime() - first.getTime()).toBe(policy.windowMs);
  });
});
