import { jest } from '@jest/globals';
import { RpcError, type KeyRevokedEvent, type Principal } from '#qdc/contracts';
import { loadConfig, type RpcClient } from '#qdc/platform';
import { ApiKeyVerifier, STALE_KEY_WHILE_UNAVAILABLE_MS, UNKNOWN_KEY_CACHE_MS } from './api-key.verifier.js';

const principal: Principal = { ownerId: 'lab-a', keyId: 'k1', scopes: ['control'] } as unknown as Principal;

const setup = () => {
  const mocks = { rpc: { call: jest.fn<(...args: unknown[]) => Promise<unknown>>() } };
  const sut = new ApiKeyVerifier(mocks.rpc as unknown as RpcClient, loadConfig({}));
  return { sut, mocks };
};

describe(ApiKeyVerifier.name, () => {
  afterEach(() => jest.useRealTimers());

  it('asks results once for a known key and serves repeats from the cache', async () => {
    const { sut, mocks } = setup();
    mocks.rpc.call.mockResolvedValue(principal);
    expect(await sut.verify('coda_known')).toBe(principal);
    expect(await sut.verify('coda_known')).toBe(principal);
    expect(mocks.rpc.call).toHaveBeenCalledTimes(1);
  });

  it('remembers an unknown key briefly: repeats cost no round trip until the negative entry expires', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const { sut, mocks } = setup();
    mocks.rpc.call.mockRejectedValue(new RpcError('unauthorized', 'unknown key'));
    expect(await sut.verify('coda_unknown')).toBeNull();
    expect(await sut.verify('coda_unknown')).toBeNull();
    expect(mocks.rpc.call).toHaveBeenCalledTimes(1);
    jest.setSystemTime(1_000_000 + UNKNOWN_KEY_CACHE_MS + 1);
    expect(await sut.verify('coda_unknown')).toBeNull();
    expect(mocks.rpc.call).toHaveBeenCalledTimes(2);
  });

  it('does not cache a failure that is not an answer (results down)', async () => {
    const { sut, mocks } = setup();
    mocks.rpc.call.mockRejectedValueOnce(new RpcError('unavailable', 'no responders')).mockResolvedValueOnce(principal);
    await expect(sut.verify('coda_key')).rejects.toThrow('no responders');
    expect(await sut.verify('coda_key')).toBe(principal);
  });

  describe('while results is unavailable (restarting)', () => {
    const expiredBy = (ms: number) => 1_000_000 + loadConfig({}).QDC_AUTH_CACHE_MS + ms;

    it('accepts a key verified before, past its cache expiry, without waiting for results to come back', async () => {
      jest.useFakeTimers({ now: 1_000_000 });
      const { sut, mocks } = setup();
      mocks.rpc.call.mockResolvedValueOnce(principal).mockRejectedValue(new RpcError('unavailable', 'no service is answering'));
      expect(await sut.verify('coda_key')).toBe(principal);
      jest.setSystemTime(expiredBy(1));
      expect(await sut.verify('coda_key')).toBe(principal);
      expect(mocks.rpc.call).toHaveBeenCalledTimes(2);
      expect(mocks.rpc.call.mock.calls[1]![2]).toMatchObject({ noRespondersGraceMs: 0 });
    });

    it(`not once ${STALE_KEY_WHILE_UNAVAILABLE_MS} ms past the expiry, nor a revoked key, nor when results answers`, async () => {
      jest.useFakeTimers({ now: 1_000_000 });
      const { sut, mocks } = setup();
      mocks.rpc.call.mockResolvedValue(principal);
      await sut.verify('coda_old');
      await sut.verify('coda_revoked');
      sut.onKeyRevoked({ tokenHash: (mocks.rpc.call.mock.calls[1]![1] as { tokenHash: string }).tokenHash } as KeyRevokedEvent);
      jest.setSystemTime(expiredBy(STALE_KEY_WHILE_UNAVAILABLE_MS));
      mocks.rpc.call.mockRejectedValue(new RpcError('unavailable', 'no service is answering'));
      await expect(sut.verify('coda_old')).rejects.toThrow('no service is answering');
      await expect(sut.verify('coda_revoked')).rejects.toThrow('no service is answering');
      mocks.rpc.call.mockRejectedValue(new RpcError('unauthorized', 'unknown key'));
      expect(await sut.verify('coda_old')).toBeNull();
    });
  });
});
