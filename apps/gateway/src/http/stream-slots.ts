import { Inject, Injectable } from '@nestjs/common';
import { QDC_CONFIG, type QdcConfig } from '#qdc/platform';
import { ApiError } from './api-errors.js';

/**
 * Open event streams per API key on this gateway (SPEC §7: bounded per key). A stream holds a connection and a
 * subscription for as long as the client keeps it, so a key that opens more than its share gets 429.
 */
@Injectable()
export class StreamSlots {
  private readonly open = new Map<string, number>();

  constructor(@Inject(QDC_CONFIG) private readonly config: Pick<QdcConfig, 'QDC_SSE_STREAMS_PER_KEY'>) {}

  /** Takes a slot of `keyId`; the returned function gives it back (once). */
  acquire(keyId: string): () => void {
    const limit = this.config.QDC_SSE_STREAMS_PER_KEY;
    const used = this.open.get(keyId) ?? 0;
    if (used >= limit) {
      throw new ApiError(429, `this API key already has ${used} event streams open on this gateway (at most ${limit}); close one first`, {
        'Retry-After': '5',
      });
    }
    this.open.set(keyId, used + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(keyId) ?? 1) - 1;
      if (left > 0) this.open.set(keyId, left);
      else this.open.delete(keyId);
    };
  }
}
