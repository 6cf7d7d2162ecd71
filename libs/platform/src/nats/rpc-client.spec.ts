import { jest } from '@jest/globals';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { INLINE_PAYLOAD_LIMIT_BYTES, RpcError, defineRpc, type RpcReply } from '#qdc/contracts';
import { loadConfig } from '../config/config.js';
import { HEARTBEAT_AFTER_MS, HEARTBEAT_FIRST_BEAT_MS, HEARTBEAT_LOST_MS } from './nats-headers.js';
import { NatsConnection, RECONNECT_GRACE_MS } from './nats-connection.js';
import { PayloadStore } from './payload-store.js';
import { NO_RESPONDERS_GRACE_MS, NO_RESPONDERS_RETRY_MS, RpcClient } from './rpc-client.js';

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

/** A contract for the stand-in's subjects (the client takes its subject; the schemas are the receiver's business). */
const rpc = (subject: string) => defineRpc({ subject, request: z.unknown(), response: z.unknown() });

function newRpcClient() {
  const { config, nats, payloads, connection, store, objects } = standIns();
  return { sut: new RpcClient(nats, payloads, config), mocks: { nats, connection, store, objects } };
}

describe(RpcClient.name, () => {
  describe('request', () => {
    it('prefixes the namespace, sends the request id and unwraps the reply', async () => {
      const { sut, mocks } = newRpcClient();
      expect(await sut.call(rpc('ping.v1'), { a: 1 }, { requestId: 'req-7', timeoutMs: 50 })).toBe('pong');
      const [subject, body, options] = mocks.connection.request.mock.calls[0]!;
      expect(subject).toBe('lab.ping.v1');
      expect(JSON.parse(new TextDecoder().decode(body))).toEqual({ a: 1 });
      expect(options).toMatchObject({ timeout: 50 });
      expect((options as { headers: { get(name: string): string } }).headers.get('X-Request-Id')).toBe('req-7');
    });

    it("checks the answer against the contract's response schema and passes it on as it came", async () => {
      const { sut, mocks } = newRpcClient();
      const contract = defineRpc({ subject: 'thing.get.v1', request: z.unknown(), response: z.object({ id: z.string(), size: z.number() }) });
      mocks.connection.request.mockResolvedValueOnce({ data: encode({ ok: true, data: { id: 't1', size: 3, extra: 'kept' } }) });
      expect(await sut.call(contract, {})).toEqual({ id: 't1', size: 3, extra: 'kept' });
      mocks.connection.request.mockResolvedValueOnce({ data: encode({ ok: true, data: { id: 't1', size: 'three' } }) });
      await expect(sut.call(contract, {})).rejects.toEqual(
        new RpcError('internal', 'thing.get.v1 answered outside its contract (size: Invalid input: expected number, received string)'),
      );
    });

    it('sends a body over the inline limit through the object store', async () => {
      const { sut, mocks } = newRpcClient();
      await sut.call(rpc('big.v1'), { text: 'x'.repeat(INLINE_PAYLOAD_LIMIT_BYTES) });
      const [, body, options] = mocks.connection.request.mock.calls[0]!;
      expect(body).toHaveLength(0);
      const key = (options as { headers: { get(name: string): string } }).headers.get('Qdc-Payload-Object');
      expect(JSON.parse(new TextDecoder().decode(mocks.objects.get(key)!))).toEqual({ text: 'x'.repeat(INLINE_PAYLOAD_LIMIT_BYTES) });
    });

    it.each([
      [
        { ok: false, error: { code: 'not_found', message: 'Model result not found' } } as RpcReply<unknown>,
        new RpcError('not_found', 'Model result not found'),
      ],
      [{ nonsense: true }, new RpcError('internal', 'malformed reply from x.v1')],
    ])('turns the error reply %j into an RpcError', async (reply, expected) => {
      const { sut, mocks } = newRpcClient();
      mocks.connection.request.mockResolvedValue({ data: encode(reply) });
      await expect(sut.call(rpc('x.v1'), {})).rejects.toEqual(expected);
    });

    it.each([
      ['no responders', Object.assign(new Error('503'), { name: 'NoRespondersError' }), 'unavailable', 'no service is answering x.v1'],
      ['a timeout', Object.assign(new Error('timeout'), { name: 'TimeoutError' }), 'timeout', 'x.v1 did not answer within 30000 ms'],
      ['a closed connection', new Error('connection closed'), 'unavailable', 'NATS request x.v1 failed: connection closed'],
    ])('maps %s to %s', async (_, error, code, message) => {
      const { sut, mocks } = newRpcClient();
      mocks.connection.request.mockRejectedValue(error);
      await expect(sut.call(rpc('x.v1'), {}, { noRespondersGraceMs: 0 })).rejects.toEqual(new RpcError(code as 'timeout', message));
    });

    describe('a subject without responders (its service restarting)', () => {
      const noResponders = () => Object.assign(new Error('503'), { name: 'NoRespondersError' });

      it('sends the request again until a service answers it', async () => {
        const { sut, mocks } = newRpcClient();
        mocks.connection.request.mockRejectedValueOnce(noResponders()).mockRejectedValueOnce(noResponders());
        jest.useFakeTimers();
        try {
          const pending = sut.call(rpc('x.v1'), { a: 1 }, { requestId: 'req-8' });
          await jest.advanceTimersByTimeAsync(2 * NO_RESPONDERS_RETRY_MS);
          expect(await pending).toBe('pong');
        } finally {
          jest.useRealTimers();
        }
        expect(mocks.connection.request).toHaveBeenCalledTimes(3);
        const [first, last] = [mocks.connection.request.mock.calls[0]!, mocks.connection.request.mock.calls[2]!];
        expect(last[1]).toEqual(first[1]);
        expect((last[2] as { headers: { get(name: string): string } }).headers.get('X-Request-Id')).toBe('req-8');
      });

      it(`answers unavailable once it found none for ${NO_RESPONDERS_GRACE_MS} ms`, async () => {
        const { sut, mocks } = newRpcClient();
        mocks.connection.request.mockRejectedValue(noResponders());
        jest.useFakeTimers();
        try {
          let outcome = 'pending';
          const pending = sut.call(rpc('x.v1'), {});
          pending.catch(() => (outcome = 'rejected'));
          const settled = expect(pending).rejects.toEqual(new RpcError('unavailable', 'no service is answering x.v1'));
          await jest.advanceTimersByTimeAsync(NO_RESPONDERS_GRACE_MS - 2 * NO_RESPONDERS_RETRY_MS);
          expect(outcome).toBe('pending');
          await jest.advanceTimersByTimeAsync(2 * NO_RESPONDERS_RETRY_MS);
          await settled;
        } finally {
          jest.useRealTimers();
        }
      });

      it('answers unavailable at once with noRespondersGraceMs 0 (readiness probes), and never waits past the timeout', async () => {
        const { sut, mocks } = newRpcClient();
        mocks.connection.request.mockRejectedValue(noResponders());
        await expect(sut.call(rpc('x.v1'), {}, { noRespondersGraceMs: 0 })).rejects.toMatchObject({ code: 'unavailable' });
        await expect(sut.call(rpc('x.v1'), {}, { timeoutMs: 50 })).rejects.toMatchObject({ code: 'unavailable' });
        expect(mocks.connection.request).toHaveBeenCalledTimes(2);
      });
    });

    it('answers unavailable before it is connected', async () => {
      const config = loadConfig({});
      const nats = new NatsConnection(config, 'tester');
      const sut = new RpcClient(nats, new PayloadStore(nats, config), config);
      await expect(sut.call(rpc('x.v1'), {})).rejects.toMatchObject({ code: 'unavailable' });
    });
  });

  describe(`heartbeats of requests longer than ${HEARTBEAT_AFTER_MS} ms (a handler's process killed)`, () => {
    const LONG = HEARTBEAT_AFTER_MS + 1;
    const headerOf = (call: unknown[]) => (call[2] as { headers: { get(name: string): string } }).headers.get('Qdc-Heartbeat');

    it(`answers unavailable when no handler ever beats, after ${HEARTBEAT_FIRST_BEAT_MS} ms (not ${HEARTBEAT_LOST_MS}: a busy handler may not have read the request yet), long before the timeout`, async () => {
      const { sut, mocks } = newRpcClient();
      mocks.connection.request.mockReturnValue(new Promise(() => undefined)); // the handler's process died: no reply
      jest.useFakeTimers();
      try {
        let outcome = 'pending';
        const pending = sut.call(rpc('coda.simulate.v1'), {}, { timeoutMs: 300_000 });
        pending.catch(() => (outcome = 'rejected'));
        const settled = expect(pending).rejects.toEqual(
          new RpcError('unavailable', 'the service handling coda.simulate.v1 stopped answering (restarted?); retry with the same request id'),
        );
        await jest.advanceTimersByTimeAsync(HEARTBEAT_LOST_MS + 2000);
        expect(outcome).toBe('pending');
        await jest.advanceTimersByTimeAsync(HEARTBEAT_FIRST_BEAT_MS - HEARTBEAT_LOST_MS);
        await settled;
      } finally {
        jest.useRealTimers();
      }
      const beatSubject = headerOf(mocks.connection.request.mock.calls[0]!);
      expect(beatSubject).toMatch(/^lab\.heartbeat\.[0-9a-f-]{36}$/);
      expect(mocks.connection.subscribe.mock.calls[0]![0]).toBe(beatSubject);
      expect((mocks.connection.subscribe.mock.results[0]!.value as { unsubscribe: unknown }).unsubscribe).toHaveBeenCalled();
    });

    it.each([
      ['gone (no responders on its instance subject): unavailable', Object.assign(new Error('503'), { name: 'NoRespondersError' }), 'unavailable'],
      ['alive but busy (the ping times out): keeps waiting for the reply', Object.assign(new Error('timeout'), { name: 'TimeoutError' }), 'counts'],
    ])('when the beats stop, pings the process that sent them — %s', async (_name, pingError, outcome) => {
      const { sut, mocks } = newRpcClient();
      const INSTANCE = '6f1c2a7e-93d4-4b8a-a0c1-2e5d7f9b3c11';
      let answer!: (reply: { data: Uint8Array }) => void;
      mocks.connection.request.mockImplementation((subject: string) =>
        subject === `lab.instance.${INSTANCE}` ? Promise.reject(pingError) : new Promise((resolve) => (answer = resolve as typeof answer)),
      );
      jest.useFakeTimers();
      try {
        const pending = sut.call(rpc('coda.simulate.v1'), {}, { timeoutMs: 300_000 }).catch((e: RpcError) => e.code);
        await jest.advanceTimersByTimeAsync(0);
        mocks.connection.subscribe.mock.calls[0]![1].callback(null, { data: new TextEncoder().encode(INSTANCE) });
        await jest.advanceTimersByTimeAsync(HEARTBEAT_LOST_MS + 2000);
        expect(mocks.connection.request.mock.calls.map(([subject]) => subject)).toContain(`lab.instance.${INSTANCE}`);
        answer({ data: encode({ ok: true, data: 'counts' }) });
        expect(await pending).toBe(outcome);
      } finally {
        jest.useRealTimers();
      }
    });

    it('keeps waiting while heartbeats come, and answers the reply', async () => {
      const { sut, mocks } = newRpcClient();
      let answer!: (reply: { data: Uint8Array }) => void;
      mocks.connection.request.mockReturnValue(new Promise((resolve) => (answer = resolve)));
      jest.useFakeTimers();
      try {
        const pending = sut.call(rpc('coda.simulate.v1'), {}, { timeoutMs: LONG });
        await jest.advanceTimersByTimeAsync(0);
        const beat = mocks.connection.subscribe.mock.calls[0]![1].callback;
        for (let t = 0; t < 3 * HEARTBEAT_LOST_MS; t += 1000) {
          beat(null, {});
          await jest.advanceTimersByTimeAsync(1000);
        }
        answer({ data: encode({ ok: true, data: 'counts' }) });
        expect(await pending).toBe('counts');
      } finally {
        jest.useRealTimers();
      }
    });

    it('asks for no heartbeat on ordinary requests', async () => {
      const { sut, mocks } = newRpcClient();
      await sut.call(rpc('ping.v1'), {}, { timeoutMs: HEARTBEAT_AFTER_MS });
      expect(headerOf(mocks.connection.request.mock.calls[0]!)).toBeFalsy();
      expect(mocks.connection.subscribe).not.toHaveBeenCalled();
    });
  });

  describe('connection loss (NATS restart)', () => {
    it('fails a request in flight with unavailable as soon as the connection drops', async () => {
      const { sut, mocks } = newRpcClient();
      mocks.connection.request.mockReturnValue(new Promise(() => undefined)); // the reply never comes
      const pending = sut.call(rpc('slow.v1'), {});
      await new Promise((resolve) => setImmediate(resolve));
      mocks.nats.setLink(false);
      await expect(pending).rejects.toEqual(new RpcError('unavailable', 'NATS connection lost while slow.v1 was in flight (retry shortly)'));
    });

    it('holds a request made while disconnected until the reconnect, then sends it', async () => {
      const { sut, mocks } = newRpcClient();
      mocks.nats.setLink(false);
      const pending = sut.call(rpc('later.v1'), {});
      await new Promise((resolve) => setImmediate(resolve));
      expect(mocks.connection.request).not.toHaveBeenCalled();
      mocks.nats.setLink(true);
      expect(await pending).toBe('pong');
      expect(mocks.connection.request).toHaveBeenCalledTimes(1);
    });

    it(`answers unavailable without sending when the reconnect takes longer than ${RECONNECT_GRACE_MS} ms`, async () => {
      const { sut, mocks } = newRpcClient();
      jest.useFakeTimers();
      try {
        mocks.nats.setLink(false);
        const pending = sut.call(rpc('later.v1'), {});
        const settled = expect(pending).rejects.toEqual(new RpcError('unavailable', 'NATS is reconnecting; later.v1 was not sent (retry shortly)'));
        await jest.advanceTimersByTimeAsync(RECONNECT_GRACE_MS);
        await settled;
        expect(mocks.connection.request).not.toHaveBeenCalled();
      } finally {
        jest.useRealTimers();
      }
    });
  });
});
