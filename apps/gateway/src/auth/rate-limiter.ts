import { Inject, Injectable, Logger, type OnApplicationShutdown, Optional } from '@nestjs/common';
import { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { QDC_CONFIG, logConnectionErrors, type QdcConfig } from '#qdc/platform';

/**
 * What the limiter needs of its store: rate-limiter-flexible's `consume` (resolves when allowed, rejects otherwise;
 * both with the window's points consumed so far and the time before it opens again).
 */
export interface RateLimitStore {
  consume(key: string, points?: number): Promise<unknown>;
}

/** Tests replace the Redis-backed store with their own. */
export const RATE_LIMIT_STORE = Symbol('RATE_LIMIT_STORE');

/** The length of the rate limit's window: QDC_RATE_LIMIT_PER_MINUTE per this many seconds. */
export const RATE_LIMIT_WINDOW_S = 60;

/** A rate-limit check waits at most this long for Redis before the request is let through (fail open). */
const REDIS_COMMAND_TIMEOUT_MS = 500;

/** While Redis does not answer, the "failing open" warning is logged at most once per this period. */
const FAIL_OPEN_WARNING_EVERY_MS = 10_000;

/** Requests counted here between two writes to Redis (one `consume` of their sum per key) while a key is far from its limit. */
const FLUSH_EVERY_MS = 10;
/** A key this close to its limit (as last read from Redis, plus what is counted here) is checked in Redis request by request. */
export const EXACT_WITHIN_POINTS = 64;

/** What this gateway knows of a key's window: its points in Redis when last read, and its requests not written yet. */
interface KeyWindow {
  used: number;
  pending: number;
  resetAt: number;
}

/**
 * Per-API-key rate limit shared by every gateway replica: QDC_RATE_LIMIT_PER_MINUTE requests per key in a
 * 60 s window that starts at the key's first request (rate-limiter-flexible's RateLimiterRedis: one atomic
 * Lua script per request — `SET key 0 EX 60 NX`, `INCRBY`, `PTTL` — on `<QDC_NAMESPACE>:ratelimit:<key id>`).
 * The Redis key expires with its window.
 *
 * A key far from its limit is not checked in Redis request by request (that Lua script was ~15 % of the gateway's CPU
 * per small run, bench:perf (b) profile): the gateway counts its requests and adds their sum to the key's window every
 * 10 ms, reading back the window's total (all replicas) and its end. The first request of a window, and every
 * request once the key is within EXACT_WITHIN_POINTS (64) of its limit, goes to Redis as before, so the limit stays
 * exact unless other replicas together send more than 64 requests of one key within one 10 ms flush.
 *
 * When Redis does not answer (down, restarting, slower than 500 ms), the request is allowed and a warning is
 * logged (at most every 10 s): an outage of the limiter's store does not take the API down with it.
 */
@Injectable()
export class RateLimiter implements OnApplicationShutdown {
  private readonly logger = new Logger('RateLimiter');
  private readonly store: RateLimitStore;
  private readonly redis?: Redis;
  private lastWarningAt = Number.NEGATIVE_INFINITY;
  private readonly points: number;
  private readonly windows = new Map<string, KeyWindow>();
  private flushTimer?: NodeJS.Timeout;

  constructor(@Inject(QDC_CONFIG) config: QdcConfig, @Optional() @Inject(RATE_LIMIT_STORE) store?: RateLimitStore) {
    this.points = config.QDC_RATE_LIMIT_PER_MINUTE;
    if (store) {
      this.store = store;
      return;
    }
    // Its own connection: no offline queue and a short command timeout, so a check never waits on a Redis that is gone
    // (BullMQ's connections wait forever by design).
    this.redis = new Redis(config.REDIS_URL, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      connectionName: `${config.QDC_NAMESPACE}-gateway-ratelimit`,
    });
    logConnectionErrors(this.redis, this.logger, 'rate limit Redis');
    this.store = new RateLimiterRedis({
      storeClient: this.redis,
      keyPrefix: `${config.QDC_NAMESPACE}:ratelimit`,
      points: config.QDC_RATE_LIMIT_PER_MINUTE,
      duration: RATE_LIMIT_WINDOW_S,
      rejectIfRedisNotReady: true,
    });
  }

  /** 0 when allowed, else the seconds to wait (≥ 1) before this key's window opens again. */
  async take(key: string, now = Date.now()): Promise<number> {
    const known = this.windows.get(key);
    if (known && now < known.resetAt && known.used + known.pending + EXACT_WITHIN_POINTS <= this.points) {
      known.pending += 1;
      this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_EVERY_MS);
      return 0;
    }
    // Exact: this request and any counted here go to Redis now.
    const pending = known && now < known.resetAt ? known.pending : 0;
    if (known) known.pending = 0;
    try {
      this.learn(key, (await this.store.consume(key, 1 + pending)) as RateLimiterRes, now);
      return 0;
    } catch (outcome) {
      if (outcome instanceof RateLimiterRes) {
        this.learn(key, outcome, now);
        return Math.max(1, Math.ceil(outcome.msBeforeNext / 1000));
      }
      this.failOpen(outcome, now);
      return 0;
    }
  }

  /** Adds each key's requests counted here to its window in Redis, and reads the window back. */
  private flush(): void {
    this.flushTimer = undefined;
    const now = Date.now();
    for (const [key, known] of this.windows) {
      if (now >= known.resetAt) {
        this.windows.delete(key); // its window is over in Redis too: the next request starts a new one there
        continue;
      }
      if (known.pending === 0) continue;
      const pending = known.pending;
      known.pending = 0;
      this.store.consume(key, pending).then(
        (res) => this.learn(key, res as RateLimiterRes, now),
        (outcome: unknown) => (outcome instanceof RateLimiterRes ? this.learn(key, outcome, now) : this.failOpen(outcome, now)),
      );
    }
  }

  private learn(key: string, res: RateLimiterRes | undefined, now: number): void {
    if (!(res instanceof RateLimiterRes)) return; // a store that answers nothing (tests): nothing to learn
    const known = this.windows.get(key);
    const window = { used: res.consumedPoints, resetAt: now + res.msBeforeNext };
    if (known) Object.assign(known, window);
    else this.windows.set(key, { ...window, pending: 0 });
  }

  private failOpen(outcome: unknown, now: number): void {
    if (now - this.lastWarningAt < FAIL_OPEN_WARNING_EVERY_MS) return;
    this.lastWarningAt = now;
    const reason = outcome instanceof Error ? outcome.message : String(outcome);
    this.logger.warn(`rate limit not checked (Redis: ${reason}); allowing requests until Redis answers again`);
  }

  /** After the HTTP server has closed (Nest runs this hook last), so requests still draining are checked as usual. */
  onApplicationShutdown(): void {
    clearTimeout(this.flushTimer);
    this.flush();
    this.redis?.disconnect();
  }
}
