import { jest } from '@jest/globals';
import { createHash } from 'node:crypto';
import { headers as natsHeaders } from '@nats-io/transport-node';
import { INLINE_PAYLOAD_LIMIT_BYTES } from '#qdc/contracts';
import { loadConfig } from '../config/config.js';
import { NatsConnection } from './nats-connection.js';
import { PayloadStore } from './payload-store.js';

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

function newPayloadStore() {
  const { payloads, store, objects } = standIns();
  return { sut: payloads, mocks: { store, objects } };
}

describe(PayloadStore.name, () => {
  describe('BinaryRef', () => {
    it('keeps bytes up to the inline limit inline, with their SHA-256', async () => {
      const { sut, mocks } = newPayloadStore();
      const bytes = new Uint8Array(INLINE_PAYLOAD_LIMIT_BYTES).fill(3);
      const { ref, sha256 } = await sut.toBinaryRefWithDigest(bytes);
      expect('inline' in ref).toBe(true);
      expect(sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(await sut.fromBinaryRef(ref)).toEqual(bytes);
      expect(mocks.store.putBlob).not.toHaveBeenCalled();
    });

    it('puts larger bytes in the object store and passes the key', async () => {
      const { sut, mocks } = newPayloadStore();
      const bytes = new Uint8Array(INLINE_PAYLOAD_LIMIT_BYTES + 1).fill(5);
      const { ref, sha256 } = await sut.toBinaryRefWithDigest(bytes);
      expect(ref).toEqual({ objectKey: expect.any(String), size: bytes.length });
      expect(sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(await sut.fromBinaryRef(ref)).toBe(mocks.objects.get((ref as { objectKey: string }).objectKey));
    });

    it('answers not_found for an object that expired', async () => {
      const { sut } = newPayloadStore();
      await expect(sut.fromBinaryRef({ objectKey: 'gone', size: 1 })).rejects.toMatchObject({ code: 'not_found' });
    });
  });

  describe('message bodies', () => {
    it('keeps a body up to the inline limit in the message, and a larger one in the object store by key (read once)', async () => {
      const { sut, mocks } = newPayloadStore();
      const small = natsHeaders();
      const body = await sut.encodeMessage({ a: 1 }, small);
      expect(small.get('Qdc-Payload-Object')).toBe('');
      expect(await sut.decodeMessage(body, small)).toEqual({ a: 1 });
      const large = natsHeaders();
      const payload = { text: 'x'.repeat(INLINE_PAYLOAD_LIMIT_BYTES) };
      expect(await sut.encodeMessage(payload, large)).toHaveLength(0);
      const key = large.get('Qdc-Payload-Object');
      expect(mocks.objects.has(key)).toBe(true);
      expect(await sut.decodeMessage(new Uint8Array(0), large)).toEqual(payload);
      expect(mocks.store.delete).toHaveBeenCalledWith(key);
    });
  });
});
