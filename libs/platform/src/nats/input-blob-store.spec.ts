import { createHash } from 'node:crypto';
import type { ObjectInfo, ObjectStore, ObjectStoreMeta } from '@nats-io/obj';
import { INLINE_PAYLOAD_LIMIT_BYTES, RpcError } from '#qdc/contracts';
import { loadConfig } from '../config/config.js';
import { InputBlobStore } from './input-blob-store.js';
import type { NatsConnection } from './nats-connection.js';
import type { PayloadStore } from './payload-store.js';

/** An object store in memory that reads a put's stream as the real one does (and fails it when told to). */
function newInputBlobStore(failPutAfterBytes?: number) {
  const objects = new Map<string, Uint8Array>();
  const store = {
    put: async (meta: ObjectStoreMeta, data: ReadableStream<Uint8Array>): Promise<ObjectInfo> => {
      const chunks: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of data) {
        chunks.push(chunk);
        size += chunk.length;
        if (failPutAfterBytes !== undefined && size > failPutAfterBytes) throw new Error('JetStream publish timed out');
      }
      const bytes = Buffer.concat(chunks);
      objects.set(meta.name, bytes);
      return { size, digest: `SHA-256=${createHash('sha256').update(bytes).digest('base64url')}` } as ObjectInfo;
    },
  };
  const sut = new InputBlobStore({ maxPayload: 1024 * 1024 } as NatsConnection, {} as PayloadStore, loadConfig({}));
  (sut as unknown as { bucket: Promise<ObjectStore> }).bucket = Promise.resolve(store as unknown as ObjectStore);
  return { sut, mocks: { objects } };
}

async function* chunks(bytes: Uint8Array, fail?: Error): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += 64 * 1024) yield bytes.subarray(i, i + 64 * 1024);
  if (fail) throw fail;
}

const file = (size: number) => new Uint8Array(size).map((_, i) => (i * 13) & 0xff);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe(InputBlobStore.name, () => {
  it('keeps a file of up to the inline limit inline, with its size and SHA-256, and stores nothing', async () => {
    const { sut, mocks } = newInputBlobStore();
    const bytes = file(INLINE_PAYLOAD_LIMIT_BYTES);
    expect(await sut.receive(chunks(bytes))).toEqual({ input: { inline: Buffer.from(bytes).toString('base64') }, size: bytes.length, sha256: sha256(bytes) });
    expect(mocks.objects.size).toBe(0);
  });

  it('streams a larger file into the store under a new key, with the size and SHA-256 the store measured', async () => {
    const { sut, mocks } = newInputBlobStore();
    const bytes = file(INLINE_PAYLOAD_LIMIT_BYTES + 1);
    const received = await sut.receive(chunks(bytes));
    expect(received).toEqual({
      input: { inputBlob: expect.any(String), size: bytes.length, sha256: sha256(bytes) },
      size: bytes.length,
      sha256: sha256(bytes),
    });
    const key = (received.input as { inputBlob: string }).inputBlob;
    expect(Buffer.from(mocks.objects.get(key)!).equals(Buffer.from(bytes))).toBe(true);
  });

  it('lets an upload’s own failure (413, early refusal) through unchanged, small or large, and keeps nothing', async () => {
    const { sut, mocks } = newInputBlobStore();
    const tooLarge = Object.assign(new Error('request file too large'), { statusCode: 413 });
    await expect(sut.receive(chunks(file(1000), tooLarge))).rejects.toBe(tooLarge);
    await expect(sut.receive(chunks(file(3_000_000), tooLarge))).rejects.toBe(tooLarge);
    expect(mocks.objects.size).toBe(0);
  });

  it('answers `unavailable` when the store fails mid-upload, after reading the rest of the upload', async () => {
    const { sut } = newInputBlobStore(1_000_000);
    let read = 0;
    async function* counted(): AsyncGenerator<Uint8Array> {
      for await (const chunk of chunks(file(3_000_000))) {
        read += chunk.length;
        yield chunk;
      }
    }
    const error = await sut.receive(counted()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect((error as RpcError).code).toBe('unavailable');
    expect(read).toBe(3_000_000);
  });
});
