import { jest } from '@jest/globals';
import { ResultsRpc } from '#qdc/contracts';
import type { NatsConnection, RpcClient } from '#qdc/platform';
import { RunCountsCache } from './run-counts.cache.js';

const PEAK_V2 = 'coulomb-blockade-peak-detector-v2';

function newRunCountsCache(stored: Record<string, number> = { [PEAK_V2]: 4 }) {
  let reconnected: () => void = () => undefined;
  const nats = {
    connect: jest.fn(async () => undefined),
    onReconnect: jest.fn((listener: () => void) => (reconnected = listener)),
  };
  const rpc = { call: jest.fn(async (..._args: unknown[]): Promise<unknown> => ({ counts: { ...stored } })) };
  return {
    sut: new RunCountsCache(nats as unknown as NatsConnection, rpc as unknown as RpcClient),
    mocks: { nats, rpc, stored, reconnect: () => reconnected() },
  };
}

describe(RunCountsCache.name, () => {
  it('loads every counter once, then follows the change events (max: counters only grow)', async () => {
    const { sut, mocks } = newRunCountsCache();
    expect((await sut.all()).get(PEAK_V2)).toBe(4);
    const version = sut.version;
    sut.onRunRecorded({ model: PEAK_V2, numberOfRuns: 6 });
    sut.onRunRecorded({ model: PEAK_V2, numberOfRuns: 5 }); // a late event of an earlier run
    expect((await sut.all()).get(PEAK_V2)).toBe(6);
    expect(sut.version).toBe(version + 1);
    expect(mocks.rpc.call).toHaveBeenCalledTimes(1);
    expect(mocks.rpc.call).toHaveBeenCalledWith(ResultsRpc.runCounts, {}, { timeoutMs: 5000 });
  });

  it('loads again after a NATS reconnect (events may have been missed meanwhile)', async () => {
    const { sut, mocks } = newRunCountsCache();
    await sut.onApplicationBootstrap();
    await sut.all();
    mocks.stored[PEAK_V2] = 9;
    mocks.reconnect();
    await new Promise((resolve) => setImmediate(resolve));
    expect((await sut.all()).get(PEAK_V2)).toBe(9);
  });

  it('tries the load again on the next call when results did not answer', async () => {
    const { sut, mocks } = newRunCountsCache();
    mocks.rpc.call.mockRejectedValueOnce(new Error('no service is answering'));
    await expect(sut.all()).rejects.toThrow('no service is answering');
    expect((await sut.all()).get(PEAK_V2)).toBe(4);
  });
});
