import { describe, expect, it, jest } from '@jest/globals';
import { ASSISTANT_EVENT_INDEX_HEADER } from '#qdc/contracts';
import type { NatsConnection } from '#qdc/platform';
import { RunEventSink } from './run-events.publisher.js';

/** {sut, mocks}: a sink over a JetStream whose publishes are settled by the test. */
function newSink() {
  const settle: Array<{ resolve: (ack: unknown) => void; reject: (error: Error) => void }> = [];
  const publish = jest.fn(() => new Promise((resolve, reject) => settle.push({ resolve, reject })));
  const nats = { jetstream: () => ({ publish }), subject: (s: string) => `test.${s}` } as unknown as NatsConnection;
  return { sut: new RunEventSink(nats, 'run-1', 'owner-1'), mocks: { publish, settle } };
}

describe(RunEventSink.name, () => {
  it('numbers events in order and waits for every ack on flush', async () => {
    const { sut, mocks } = newSink();
    sut.emit({ type: 'a' });
    sut.emit({ type: 'b' });
    const indices = mocks.publish.mock.calls.map((call) =>
      ((call as unknown[])[2] as { headers: { get(k: string): string } }).headers.get(ASSISTANT_EVENT_INDEX_HEADER),
    );
    expect(indices).toEqual(['1', '2']);
    let flushed = false;
    const flushing = sut.flush().then(() => (flushed = true));
    mocks.settle[0].resolve({});
    await Promise.resolve();
    expect(flushed).toBe(false);
    mocks.settle[1].resolve({});
    await flushing;
    expect(flushed).toBe(true);
  });

  it('an ack that times out before the flush is not an unhandled rejection; the flush reports it', async () => {
    const { sut, mocks } = newSink();
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      sut.emit({ type: 'token' });
      mocks.settle[0].reject(new Error('TIMEOUT'));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
      await expect(sut.flush()).rejects.toThrow('TIMEOUT');
      await expect(sut.flush()).resolves.toBeUndefined(); // reported once
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});
