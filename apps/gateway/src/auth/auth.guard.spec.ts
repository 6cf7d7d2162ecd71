import { jest } from '@jest/globals';
import { Reflector } from '@nestjs/core';
import type { ExecutionContext } from '@nestjs/common';
import type { Principal } from '#qdc/contracts';
import { ApiError } from '../http/api-errors.js';
import { PRINCIPAL, Public, RequireScope } from './auth.decorators.js';
import { AuthGuard } from './auth.guard.js';
import type { Authenticator } from './authenticator.js';

@RequireScope('control')
class ControlRoutes {
  list() {}

  @RequireScope('admin')
  createKey() {}

  @Public()
  health() {}
}

class UnscopedRoutes {
  anything() {}
}

const principal: Principal = { ownerId: 'o', keyId: 'k', scopes: ['control'] } as Principal;

function newAuthGuard() {
  const authenticator = { authenticate: jest.fn((): Principal | Promise<Principal> => principal) };
  const sut = new AuthGuard(new Reflector(), authenticator as unknown as Authenticator);
  const contextFor = (routes: new () => object, method: string, authorization?: string) => {
    const request: Record<string | symbol, unknown> = { headers: { authorization } };
    const context = {
      getHandler: () => (routes.prototype as Record<string, unknown>)[method],
      getClass: () => routes,
      switchToHttp: () => ({ getRequest: () => request }),
    } as unknown as ExecutionContext;
    return { context, request };
  };
  return { sut, mocks: { authenticator }, contextFor };
}

describe(AuthGuard.name, () => {
  it('lets @Public() routes through without looking at a key', async () => {
    const { sut, mocks, contextFor } = newAuthGuard();
    expect(await sut.canActivate(contextFor(ControlRoutes, 'health').context)).toBe(true);
    expect(mocks.authenticator.authenticate).not.toHaveBeenCalled();
  });

  it.each([
    ['the controller’s scope', ControlRoutes, 'list', 'control'],
    ['the handler’s own scope over the controller’s', ControlRoutes, 'createKey', 'admin'],
    ['no scope when none is declared', UnscopedRoutes, 'anything', undefined],
  ])('authenticates with %s and keeps the caller for @Caller()', async (_, routes, method, scope) => {
    const { sut, mocks, contextFor } = newAuthGuard();
    const { context, request } = contextFor(routes, method, 'Bearer coda_x');
    expect(await sut.canActivate(context)).toBe(true);
    expect(mocks.authenticator.authenticate).toHaveBeenCalledWith('Bearer coda_x', scope);
    expect(request[PRINCIPAL]).toBe(principal);
  });

  it('passes the authenticator’s refusal on (401/403/429 are decided there)', async () => {
    const { sut, mocks, contextFor } = newAuthGuard();
    mocks.authenticator.authenticate.mockImplementation(() => {
      throw new ApiError(401, 'Not authenticated');
    });
    await expect(sut.canActivate(contextFor(ControlRoutes, 'list').context)).rejects.toMatchObject({ status: 401 });
  });

  it('waits for a key verified over NATS', async () => {
    const { sut, mocks, contextFor } = newAuthGuard();
    mocks.authenticator.authenticate.mockResolvedValue(principal);
    const { context, request } = contextFor(ControlRoutes, 'list', 'Bearer coda_y');
    expect(await sut.canActivate(context)).toBe(true);
    expect(request[PRINCIPAL]).toBe(principal);
  });
});
