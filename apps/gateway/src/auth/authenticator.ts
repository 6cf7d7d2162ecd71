import { Injectable } from '@nestjs/common';
import type { Principal, Scope } from '#qdc/contracts';
import { isWellFormedApiKey } from '#qdc/platform';
import { ApiError } from '../http/api-errors.js';
import { ApiKeyVerifier } from './api-key.verifier.js';
import { RateLimiter } from './rate-limiter.js';

const unauthenticated = (detail: string): ApiError => new ApiError(401, detail, { 'WWW-Authenticate': 'Bearer' });

/**
 * Bearer API key → principal; then the scope; then the key's rate limit. Used by the AuthGuard of the Nest routes
 * and by the plain Fastify route of GET /models, so both answer 401/403/429 alike.
 */
@Injectable()
export class Authenticator {
  constructor(
    private readonly verifier: ApiKeyVerifier,
    private readonly limiter: RateLimiter,
  ) {}

  /** The caller, once its key, scope and rate limit (one Redis round trip, shared by every gateway replica) pass. */
  async authenticate(authorization: string | string[] | undefined, scope: Scope | undefined): Promise<Principal> {
    const match = typeof authorization === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
    if (!match) throw unauthenticated('Not authenticated');
    const token = match[1]!;
    const cached = this.verifier.cached(token);
    if (cached) return this.admit(cached, scope);
    if (!isWellFormedApiKey(token)) throw unauthenticated('Invalid or revoked API key');
    const principal = await this.verifier.verify(token);
    if (!principal) throw unauthenticated('Invalid or revoked API key');
    return this.admit(principal, scope);
  }

  private async admit(principal: Principal, scope: Scope | undefined): Promise<Principal> {
    if (scope && !principal.scopes.includes(scope)) {
      throw new ApiError(403, `This API key lacks the '${scope}' scope (it has: ${principal.scopes.join(', ') || 'none'})`);
    }
    const retryAfter = await this.limiter.take(principal.keyId);
    if (retryAfter > 0) {
      throw new ApiError(429, `Rate limit exceeded; retry in ${retryAfter} s`, { 'Retry-After': String(retryAfter) });
    }
    return principal;
  }
}
