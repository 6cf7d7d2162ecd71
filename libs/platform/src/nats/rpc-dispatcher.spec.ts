import { jest } from '@jest/globals';
import { createHash } from 'node:crypto';
import { loadConfig } from '../config/config.js';
import { NatsConnection } from './nats-connection.js';
import { PayloadStore } from './payload-store.js';
import { RpcDispatcher } from './rpc-dispatcher.js';

const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/**
 * NATS stand-ins: a connection and an object store in memory. What is tested is QDC's envelope, error mapping and the
 * one inline/object-store decision, not NATS itself (test/medium covers the real server).
 */
function standIns() {
  const objects = new Map<string, Uint8Array>();
  const store = {
    putBlob: jest.fn(async (meta: { name: string }, bytes: Uint8Array) => {
      objects.set(meta.name, bytes);
      return { digest: `SHA-256=${createHash('sha256').update(bytes).digest('base64url')}` };
    }),
    getBlob: jest.fn(async (name: string) => objects.get(name) ?? null),
    delete: jest.fn(async (name: string) => objects.delete(name)),
  };
  const connection = {
    request: jest.fn(
      async (_subject: string, _body: Uint8Array, _options: unknown): Promise<{ data: Uint8Array; headers?: unknown }> => ({
        data: encode({ ok: true, data: 'pong' }),
      }),
    ),
    publish: jest.fn(),
    subscribe: jest.fn((_subject: string, _options: { callback: (err: unknown, msg: unknown) => void }) => ({ unsubscribe: jest.fn() })),
    isClosed: () => false,
    info: { max_payload: 1024 * 1024 },
  };
  const config = loadConfig({ QDC_NAMESPACE: 'lab' });
  const nats = new NatsConnection(config, 'tester');
  Object.assign(nats, { connection });
  const payloads = new PayloadStore(nats, config);
  Object.assign(payloads, { bucket: Promise.resolve(store) });
  return { config, nats, payloads, connection, store, objects };
}

function newRpcDispatcher() {
  const { nats, payloads, connection } = standIns();
  return { sut: new RpcDispatcher(nats, payloads), mocks: { nats, connection } };
}

describe(RpcDispatcher.name, () => {
  it('beats while a handler works on a request that asks for it, and stops when it has replied', async () => {
    const { sut, mocks } = newRpcDispatcher();
    let finish!: () => void;
    sut.subscribe('coda.simulate.v1', async (_message, reply) => {
      await new Promise<void>((resolve) => (finish = resolve));
      await reply({ ok: true, data: 'counts' });
    });
    const deliver = mocks.connection.subscribe.mock.calls[0]![1].callback;
    const headers = new Map([['Qdc-Heartbeat', 'lab.heartbeat.0b6c8f9e-2f61-4c9e-9d7e-1f0f3d7d2a11']]);
    const respond = jest.fn();
    jest.useFakeTimers();
    try {
      deliver(null, { reply: '_INBOX.1', headers: { get: (k: string) => headers.get(k) ?? '' }, data: encode({}), respond });
      await jest.advanceTimersByTimeAsync(2500);
      expect(mocks.connection.publish.mock.calls.map(([subject]) => subject)).toEqual(Array(3).fill('lab.heartbeat.0b6c8f9e-2f61-4c9e-9d7e-1f0f3d7d2a11'));
      finish();
      await jest.advanceTimersByTimeAsync(5000);
    } finally {
      jest.useRealTimers();
    }
    expect(respond).toHaveBeenCalledTimes(1);
    expect(mocks.connection.publish).toHaveBeenCalledTimes(3);
  });

  it('passes the request id and the caller’s deadline to the handler, and replies in the envelope', async () => {
    const { sut, mocks } = newRpcDispatcher();
    const seen: unknown[] = [];
    sut.subscribe('ping.v1', async (message, reply) => {
      seen.push(message);
      await reply({ ok: true, data: 'pong' });
    });
    const deliver = mocks.connection.subscribe.mock.calls[0]![1].callback;
    const headers = new Map([
      ['X-Request-Id', 'req-9'],
      ['Qdc-Deadline', '1234'],
    ]);
    const respond = jest.fn();
    deliver(null, { reply: '_INBOX.2', headers: { get: (k: string) => headers.get(k) ?? '' }, data: encode({ a: 1 }), respond });
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([{ payload: { a: 1 }, requestId: 'req-9', deadline: 1234 }]);
    expect(JSON.parse(new TextDecoder().decode(respond.mock.calls[0]![0] as Uint8Array))).toEqual({ ok: true, data: 'pong' });
  });
});
