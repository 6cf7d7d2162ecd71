import { Inject, Injectable } from '@nestjs/common';
import { KeysEvents, KeysRpc, type KeyRevokedEvent, type Principal } from '#qdc/contracts';
import { EventHandler, QDC_CONFIG, RpcClient, hashApiKey, type QdcConfig } from '#qdc/platform';

/**
 * Resolves an API key to its owner and scopes through apps/results, caching hits for
 * QDC_AUTH_CACHE_MS. Revocations are pushed as events, so a revoked key stops working at once
 * (or, if that event is lost, when its cache entry expires). While results does not answer (a restart), a key verified
 * within STALE_KEY_WHILE_UNAVAILABLE_MS past its entry's expiry keeps working: a results restart does not turn every
 * client whose entry happened to expire meanwhile away with a 503 (a key cannot be revoked while results is down, and a
 * revocation event that did arrive removed the entry).
 */
/**
 * Unknown tokens are remembered this long, so a client (or attacker) repeating a bad key costs no
 * round trip to results. Short: a token only becomes valid by being created, and nobody holds it before.
 */
export const UNKNOWN_KEY_CACHE_MS = 2_000;
const MAX_CACHED_TOKENS = 10_000;
/** How long past its expiry a cached key is still accepted while results is unavailable (restarting). */
export const STALE_KEY_WHILE_UNAVAILABLE_MS = 5 * 60_000;

@Injectable()
export class ApiKeyVerifier {
  /** Keyed by the token itself so a hit costs no hashing; entries remember their hash for revocation. */
  private readonly cache = new Map<string, { principal: Principal; tokenHash: string; until: number }>();
  private readonly unknown = new Map<string, number>();

  constructor(
    private readonly rpc: RpcClient,
    @Inject(QDC_CONFIG) private readonly config: QdcConfig,
  ) {}

  /** A revoked key stops working at once on every gateway replica. */
  @EventHandler(KeysEvents.revoked)
  onKeyRevoked(event: KeyRevokedEvent): void {
    for (const [token, entry] of this.cache) if (entry.tokenHash === event.tokenHash) this.cache.delete(token);
  }

  /** The principal of a key verified within QDC_AUTH_CACHE_MS, else undefined (no promise: the common case). */
  cached(token: string): Principal | undefined {
    const hit = this.cache.get(token);
    return hit && hit.until > Date.now() ? hit.principal : undefined;
  }

  /** The principal, or null when the key is unknown or revoked. */
  async verify(token: string): Promise<Principal | null> {
    const hit = this.cached(token);
    if (hit) return hit;
    const now = Date.now();
    if ((this.unknown.get(token) ?? 0) > now) return null;
    const tokenHash = hashApiKey(token, this.config.QDC_API_KEY_PEPPER);
    const stale = this.cache.get(token);
    const usable = stale && stale.until + STALE_KEY_WHILE_UNAVAILABLE_MS > now ? stale : undefined;
    try {
      // With a stale entry to fall back on, results' absence is not waited out (no grace for its restart).
      const principal = await this.rpc.call(KeysRpc.verify, { tokenHash }, { timeoutMs: 5000, ...(usable ? { noRespondersGraceMs: 0 } : {}) });
      if (this.cache.size > MAX_CACHED_TOKENS) this.cache.clear();
      this.cache.set(token, { principal, tokenHash, until: now + this.config.QDC_AUTH_CACHE_MS });
      return principal;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'unauthorized') {
        this.cache.delete(token);
        if (this.unknown.size > MAX_CACHED_TOKENS) this.unknown.clear();
        this.unknown.set(token, now + UNKNOWN_KEY_CACHE_MS);
        return null;
      }
      // Results restarting (or its reply lost): the key as verified last, unless a revocation removed it meanwhile.
      if ((code === 'unavailable' || code === 'timeout') && usable && this.cache.get(token) === usable) return usable.principal;
      throw error;
    }
  }
}
