import { Inject, Injectable, Logger, type OnApplicationShutdown, Optional } from '@nestjs/common';
import { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { QDC_CONFIG, logConnectionErrors, type QdcConfig } from '#qdc/platform';

/** What the limiter needs of its store: rate-limiter-flexible's `consume` (resolves when allowed, rejects otherwise). */
export interface RateLimitStore {
  consume(key: string): Promise<unknown>;
}

/** Tests replace the Redis-backed store with their own. */
export const RATE_LIMIT_STORE = Symbol('RATE_LIMIT_STORE');

/** The length of the rate limit's window: QDC_RATE_LIMIT_PER_MINUTE per this many seconds. */
export const RATE_LIMIT_WINDOW_S = 60;

/** A rate-limit check waits at most this long for Redis before the request is let through (fail open). */
const REDIS_COMMAND_TIMEOUT_MS = 500;

/** While Redis does not answer, the "failing open" warning is logged at most once per this period. */
const FAIL_OPEN_WARNING_EVERY_MS = 10_000;

/**
 * Per-API-key rate limit shared by every gateway replica: QDC_RATE_LIMIT_PER_MINUTE requests per key in a
 * 60 s window that starts at the key's first request (rate-limiter-flexible's RateLimiterRedis: one atomic
 * Lua script per request — `SET key 0 EX 60 NX`, `INCRBY`, `PTTL` — on `<QDC_NAMESPACE>:ratelimit:<key id>`).
 * Nothing is kept per key in the gateway; the Redis key expires with its window.
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

  constructor(@Inject(QDC_CONFIG) config: QdcConfig, @Optional() @Inject(RATE_LIMIT_STORE) store?: RateLimitStore) {
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
    try {
      await this.store.consume(key);
      return 0;
    } catch (outcome) {
      if (outcome instanceof RateLimiterRes) return Math.max(1, Math.ceil(outcome.msBeforeNext / 1000));
      if (now - this.lastWarningAt >= FAIL_OPEN_WARNING_EVERY_MS) {
        this.lastWarningAt = now;
        const reason = outcome instanceof Error ? outcome.message : String(outcome);
        this.logger.warn(`rate limit not checked (Redis: ${reason}); allowing requests until Redis answers again`);
      }
      return 0;
    }
  }

  /** After the HTTP server has closed (Nest runs this hook last), so requests still draining are checked as usual. */
  onApplicationShutdown(): void {
    this.redis?.disconnect();
  }
}
