import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { Scope } from '#qdc/contracts';
import { isWellFormedApiKey } from '#qdc/platform';
import { ApiError } from '../http/api-errors.js';
import { PRINCIPAL, PUBLIC_ROUTE, REQUIRED_SCOPE } from './auth.decorators.js';
import { ApiKeyVerifier } from './api-key.verifier.js';
import { RateLimiter } from './rate-limiter.js';

const unauthenticated = (detail: string): ApiError => new ApiError(401, detail, { 'WWW-Authenticate': 'Bearer' });

/** Bearer API key → principal; then the route's scope; then the key's rate limit. */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly verifier: ApiKeyVerifier,
    private readonly limiter: RateLimiter,
  ) {}

  /** Route metadata, looked up once per handler (this runs on every request). */
  private readonly routes = new WeakMap<object, { isPublic: boolean; scope?: Scope }>();

  private route(context: ExecutionContext): { isPublic: boolean; scope?: Scope } {
    const handler = context.getHandler();
    let route = this.routes.get(handler);
    if (!route) {
      const targets = [handler, context.getClass()];
      route = {
        isPublic: !!this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets),
        scope: this.reflector.getAllAndOverride<Scope | undefined>(REQUIRED_SCOPE, targets),
      };
      this.routes.set(handler, route);
    }
    return route;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const { isPublic, scope } = this.route(context);
    if (isPublic) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) throw unauthenticated('Not authenticated');
    const principal = isWellFormedApiKey(match[1]) ? await this.verifier.verify(match[1]) : null;
    if (!principal) throw unauthenticated('Invalid or revoked API key');
    if (scope && !principal.scopes.includes(scope)) {
      throw new ApiError(403, `This API key lacks the '${scope}' scope (it has: ${principal.scopes.join(', ') || 'none'})`);
    }
    const retryAfter = this.limiter.take(principal.keyId);
    if (retryAfter > 0) {
      throw new ApiError(429, `Rate limit exceeded; retry in ${retryAfter} s`, { 'Retry-After': String(retryAfter) });
    }
    (request as unknown as Record<symbol, unknown>)[PRINCIPAL] = principal;
    return true;
  }
}
