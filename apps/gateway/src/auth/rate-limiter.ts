import { Inject, Injectable } from '@nestjs/common';
import { QDC_CONFIG, type QdcConfig } from '#qdc/platform';

/**
 * Token bucket per API key: QDC_RATE_LIMIT_PER_MINUTE requests per minute, bursts up to the
 * same number. Kept in the gateway's memory, so the limit applies per gateway replica.
 */
@Injectable()
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; updated: number }>();
  private readonly capacity: number;
  private readonly refillPerMs: number;

  constructor(@Inject(QDC_CONFIG) config: QdcConfig) {
    this.capacity = config.QDC_RATE_LIMIT_PER_MINUTE;
    this.refillPerMs = config.QDC_RATE_LIMIT_PER_MINUTE / 60_000;
  }

  /** 0 when allowed, else the seconds to wait before the next request would be. */
  take(key: string, now = Date.now()): number {
    const bucket = this.buckets.get(key) ?? { tokens: this.capacity, updated: now };
    bucket.tokens = Math.min(this.capacity, bucket.tokens + (now - bucket.updated) * this.refillPerMs);
    bucket.updated = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.refillPerMs / 1000));
  }
}
