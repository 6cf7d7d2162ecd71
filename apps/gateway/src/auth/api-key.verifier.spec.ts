import { jest } from '@jest/globals';
import { RpcError, type Principal } from '#qdc/contracts';
import { loadConfig, type RpcClient } from '#qdc/platform';
import { ApiKeyVerifier, UNKNOWN_KEY_CACHE_MS } from './api-key.verifier.js';

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
});
