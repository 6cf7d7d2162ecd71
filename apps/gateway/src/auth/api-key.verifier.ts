import { Inject, Injectable } from '@nestjs/common';
import { KeysEvents, KeysRpc, type KeyRevokedEvent, type Principal } from '#qdc/contracts';
import { EventHandler, QDC_CONFIG, RpcClient, hashApiKey, type QdcConfig } from '#qdc/platform';

/**
 * Resolves an API key to its owner and scopes through apps/results, caching hits for
 * QDC_AUTH_CACHE_MS. Revocations are pushed as events, so a revoked key stops working at once
 * (or, if that event is lost, when its cache entry expires).
 */
/**
 * Unknown tokens are remembered this long, so a client (or attacker) repeating a bad key costs no
 * round trip to results. Short: a token only becomes valid by being created, and nobody holds it before.
 */
export const UNKNOWN_KEY_CACHE_MS = 2_000;
const MAX_CACHED_TOKENS = 10_000;

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
    try {
      const principal = await this.rpc.call(KeysRpc.verify, { tokenHash }, { timeoutMs: 5000 });
      if (this.cache.size > MAX_CACHED_TOKENS) this.cache.clear();
      this.cache.set(token, { principal, tokenHash, until: now + this.config.QDC_AUTH_CACHE_MS });
      return principal;
    } catch (error) {
      if ((error as { code?: string }).code === 'unauthorized') {
        this.cache.delete(token);
        if (this.unknown.size > MAX_CACHED_TOKENS) this.unknown.clear();
        this.unknown.set(token, now + UNKNOWN_KEY_CACHE_MS);
        return null;
      }
      throw error;
    }
  }
}
