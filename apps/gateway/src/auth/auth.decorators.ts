import { SetMetadata, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Principal, Scope } from '#qdc/contracts';

export const REQUIRED_SCOPE = Symbol('REQUIRED_SCOPE');
export const PUBLIC_ROUTE = Symbol('PUBLIC_ROUTE');

/** The scope a route needs (controller or handler level). */
export const RequireScope = (scope: Scope) => SetMetadata(REQUIRED_SCOPE, scope);
/** Health, docs and removed routes need no key. */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);

export const PRINCIPAL = Symbol('PRINCIPAL');

/** The authenticated caller. */
export const Caller = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  return (ctx.switchToHttp().getRequest() as Record<symbol, Principal>)[PRINCIPAL];
});
