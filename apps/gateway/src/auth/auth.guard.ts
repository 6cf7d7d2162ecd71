import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { Scope } from '#qdc/contracts';
import { PRINCIPAL, PUBLIC_ROUTE, REQUIRED_SCOPE } from './auth.decorators.js';
import { Authenticator } from './authenticator.js';

/** Every Nest route needs a key (see Authenticator) unless it is @Public(); the principal is kept for @Caller(). */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: Authenticator,
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
    (request as unknown as Record<symbol, unknown>)[PRINCIPAL] = await this.authenticator.authenticate(request.headers.authorization, scope);
    return true;
  }
}
