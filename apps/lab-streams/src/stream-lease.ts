import type { KV } from '@nats-io/kv';

/**
 * One replica's claim on one live stream, in a JetStream KV bucket whose entries expire after `ttlMs` (max age):
 * `create` succeeds only while nobody holds the key, the holder renews it (`update` at the revision it wrote) every
 * third of the ttl, and a holder that stops renewing (crashed, paused, cut off) loses it when the entry expires.
 * `holds()` is the fence: true only until `ttl × 0.8` after the last successful write was *sent*, so a holder that was
 * paused stops answering before another replica can take the stream over.
 */
export class StreamLease {
  private revision = 0;
  private validUntil = 0;

  constructor(
    private readonly kv: Pick<KV, 'create' | 'update' | 'delete'>,
    readonly key: string,
    readonly holder: string,
    readonly ttlMs: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Takes the lease if nobody holds it. */
  async acquire(): Promise<boolean> {
    const sent = this.now();
    try {
      this.revision = await this.kv.create(this.key, this.holder);
    } catch {
      return false;
    }
    this.validUntil = sent + this.ttlMs * 0.8;
    return true;
  }

  /** Extends the lease; false (and no longer held) when another replica took it or NATS did not answer. */
  async renew(): Promise<boolean> {
    if (!this.holds()) return false;
    const sent = this.now();
    try {
      this.revision = await this.kv.update(this.key, this.holder, this.revision);
      this.validUntil = sent + this.ttlMs * 0.8;
      return true;
    } catch {
      this.validUntil = 0;
      return false;
    }
  }

  holds(): boolean {
    return this.now() < this.validUntil;
  }

  /** Gives the lease up at once (a stopping replica), only if it is still this replica's. */
  async release(): Promise<void> {
    if (!this.holds()) return;
    this.validUntil = 0;
    await this.kv.delete(this.key, { previousSeq: this.revision }).catch(() => undefined);
  }
}
