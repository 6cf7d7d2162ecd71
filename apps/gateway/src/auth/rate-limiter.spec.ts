import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { QdcConfig } from '#qdc/platform';
import { EXACT_WITHIN_POINTS, RATE_LIMIT_WINDOW_S, RateLimiter, type RateLimitStore } from './rate-limiter.js';

const config = { QDC_RATE_LIMIT_PER_MINUTE: 3 } as QdcConfig;

/** {sut, mocks}: the limiter over a store the test controls. */
function newRateLimiter(store: RateLimitStore, perMinute = config.QDC_RATE_LIMIT_PER_MINUTE) {
  const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  return { sut: new RateLimiter({ QDC_RATE_LIMIT_PER_MINUTE: perMinute } as QdcConfig, store), mocks: { store, warn } };
}

const flushed = () => new Promise((resolve) => setTimeout(resolve, 30));

afterEach(() => jest.restoreAllMocks());

describe(RateLimiter.name, () => {
  it('allows the budget of a window, then answers the seconds until the window opens again', async () => {
    // The same counting as in Redis, in memory: 3 points per 60 s window.
    const { sut } = newRateLimiter(new RateLimiterMemory({ points: 3, duration: RATE_LIMIT_WINDOW_S }));
    expect([await sut.take('k'), await sut.take('k'), await sut.take('k')]).toEqual([0, 0, 0]);
    const wait = await sut.take('k');
    expect(wait).toBeGreaterThanOrEqual(59);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await sut.take('other')).toBe(0); // keys apart
  });

  it('rounds the time left up to whole seconds, at least 1', async () => {
    const refusing = (msBeforeNext: number): RateLimitStore => ({ consume: () => Promise.reject(new RateLimiterRes(0, msBeforeNext, 4)) });
    expect(await newRateLimiter(refusing(1_200)).sut.take('k')).toBe(2);
    expect(await newRateLimiter(refusing(0)).sut.take('k')).toBe(1);
  });

  it('fails open when Redis does not answer, with one warning per 10 s however many requests', async () => {
    const store = { consume: jest.fn(() => Promise.reject(new Error('Connection is closed.'))) };
    const { sut, mocks } = newRateLimiter(store);
    const t0 = 1_000_000;
    expect(await sut.take('k', t0)).toBe(0);
    expect(await sut.take('k', t0 + 1)).toBe(0);
    expect(await sut.take('other', t0 + 9_999)).toBe(0);
    expect(mocks.warn).toHaveBeenCalledTimes(1);
    expect(mocks.warn).toHaveBeenCalledWith('rate limit not checked (Redis: Connection is closed.); allowing requests until Redis answers again');
    expect(await sut.take('k', t0 + 10_000)).toBe(0);
    expect(mocks.warn).toHaveBeenCalledTimes(2);
    expect(store.consume).toHaveBeenCalledTimes(4);
  });

  it('checks again as soon as Redis answers (the failure leaves nothing behind)', async () => {
    let down = true;
    const memory = new RateLimiterMemory({ points: 1, duration: RATE_LIMIT_WINDOW_S });
    const { sut } = newRateLimiter({ consume: (key) => (down ? Promise.reject(new Error('Command timed out')) : memory.consume(key)) });
    expect(await sut.take('k')).toBe(0);
    expect(await sut.take('k')).toBe(0);
    down = false;
    expect(await sut.take('k')).toBe(0);
    expect(await sut.take('k')).toBeGreaterThan(0);
  });

  it('counts a key far from its limit here and adds the sum to Redis in one write per 10 ms; every request is counted', async () => {
    const memory = new RateLimiterMemory({ points: 1000, duration: RATE_LIMIT_WINDOW_S });
    const consume = jest.spyOn(memory, 'consume');
    const { sut } = newRateLimiter(memory, 1000);
    const answers: number[] = [];
    for (let i = 0; i < 200; i++) answers.push(await sut.take('k'));
    await flushed();
    expect(answers.every((a) => a === 0)).toBe(true);
    expect(consume.mock.calls.length).toBeLessThan(10); // the first request, then the flushes
    expect((await memory.get('k'))?.consumedPoints).toBe(200);
  });

  it(`checks in Redis request by request within ${EXACT_WITHIN_POINTS} points of the limit, so the limit stays exact`, async () => {
    const limit = EXACT_WITHIN_POINTS + 20;
    const memory = new RateLimiterMemory({ points: limit, duration: RATE_LIMIT_WINDOW_S });
    const { sut } = newRateLimiter(memory, limit);
    const answers: number[] = [];
    for (let i = 0; i < limit + 5; i++) {
      answers.push(await sut.take('k'));
      if (i % 7 === 0) await flushed(); // flushes in between, as in a real stream of requests
    }
    expect(answers.filter((a) => a === 0)).toHaveLength(limit);
    expect(answers.slice(limit).every((a) => a > 0)).toBe(true);
  });

  it('holds one budget for two replicas counting the same key (what Redis holds is the sum)', async () => {
    const limit = 300;
    const memory = new RateLimiterMemory({ points: limit, duration: RATE_LIMIT_WINDOW_S });
    const a = newRateLimiter(memory, limit).sut;
    const b = newRateLimiter(memory, limit).sut;
    let allowed = 0;
    for (let i = 0; i < 400; i++) {
      if ((await (i % 2 ? a : b).take('k')) === 0) allowed += 1;
      if (i % 10 === 0) await flushed();
    }
    expect(allowed).toBe(limit);
  });
});
