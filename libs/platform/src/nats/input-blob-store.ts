import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ObjectInfo, ObjectStore } from '@nats-io/obj';
import { createHash, randomUUID } from 'node:crypto';
import { INLINE_PAYLOAD_LIMIT_BYTES, RpcError, type InputRef, type StoredInputRef } from '#qdc/contracts';
import { QDC_CONFIG } from '../config/config.module.js';
import type { QdcConfig } from '../config/config.js';
import { replicatedObjectStore } from './jetstream-replicas.js';
import { NatsConnection } from './nats-connection.js';
import { PayloadStore } from './payload-store.js';

/** The durable store of uploaded input files: one per namespace, like `<ns>-payloads`, but without a TTL. */
export const inputsBucket = (namespace: string): string => `${namespace}-inputs`;

/** Room for NATS headers inside max_payload when chunking objects. */
const CHUNK_HEADROOM_BYTES = 16 * 1024;

/** A file as it was received: where its bytes are (inline or in the store), its size and SHA-256 (hex). */
export interface ReceivedInput {
  input: InputRef;
  size: number;
  sha256: string;
}

/** A stored input opened for reading: what the store knows of it and its bytes as they come. */
export interface OpenedInput {
  size: number;
  data: ReadableStream<Uint8Array>;
  /** Settles once the data has been read: an error if the object did not arrive whole (digest or chunk count). */
  error: Promise<Error | null>;
}

/**
 * Uploaded input files, out of Postgres: `receive` takes a file as it arrives and keeps a small one inline (it travels
 * in the job and is stored in its result's row, as before) and streams a large one into the JetStream object store
 * bucket `<ns>-inputs` under a key chosen before the first byte (the store cannot rename, so not the digest), hashing it
 * on the way. Postgres keeps the key, size and SHA-256; the worker reads the file once; downloads stream it back.
 * The limit is the payload rule's (INLINE_PAYLOAD_LIMIT_BYTES): docs/architecture.md › Input files says why.
 */
@Injectable()
export class InputBlobStore {
  private readonly logger = new Logger(InputBlobStore.name);
  private bucket?: Promise<ObjectStore>;

  constructor(
    private readonly nats: NatsConnection,
    private readonly payloads: PayloadStore,
    @Inject(QDC_CONFIG) private readonly config: QdcConfig,
  ) {}

  /**
   * Reads a file to its end: up to INLINE_PAYLOAD_LIMIT_BYTES it stays inline, past that it streams into the store.
   * If the chunks fail (a refused or oversize upload), that error is thrown and nothing stays stored.
   */
  async receive(chunks: AsyncIterable<Uint8Array>): Promise<ReceivedInput> {
    const iterator = chunks[Symbol.asyncIterator]();
    const head: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const next = await iterator.next();
      if (next.done) {
        const bytes = Buffer.concat(head, size);
        return { input: { inline: bytes.toString('base64') }, size, sha256: createHash('sha256').update(bytes).digest('hex') };
      }
      head.push(next.value);
      size += next.value.length;
      if (size > INLINE_PAYLOAD_LIMIT_BYTES) break;
    }
    const stored = await this.put(head, iterator);
    return { input: stored, size: stored.size, sha256: stored.sha256 };
  }

  /** The whole file (the worker's one read). A stored input that is gone is `not_found`. */
  async read(ref: InputRef): Promise<Uint8Array> {
    if (!('inputBlob' in ref)) return this.payloads.fromBinaryRef(ref);
    const bytes = await (await this.store()).getBlob(ref.inputBlob);
    if (!bytes) throw new RpcError('not_found', `input file ${ref.inputBlob} is not in the input store`);
    return bytes;
  }

  /** A stored input's bytes as a stream, or null when the store does not hold it. */
  async open(key: string): Promise<OpenedInput | null> {
    const object = await (await this.store()).get(key);
    return object ? { size: object.info.size, data: object.data, error: object.error } : null;
  }

  /** Removes a stored input (one that is not there is no error). */
  async remove(key: string): Promise<void> {
    await (await this.store()).delete(key).catch((error: Error) => {
      if (!/not found/i.test(error.message)) throw error;
    });
  }

  /** Keys of the stored inputs last written before `before` (candidates for the orphan sweep). */
  async keysWrittenBefore(before: Date): Promise<string[]> {
    const infos: ObjectInfo[] = await (await this.store()).list();
    return infos.filter((i) => !i.deleted && new Date(i.mtime) < before).map((i) => i.name);
  }

  /** Streams `head` and then the rest of the iterator into a new object; a failure of either leaves nothing stored. */
  private async put(head: Uint8Array[], rest: AsyncIterator<Uint8Array>): Promise<StoredInputRef> {
    const key = randomUUID();
    let sourceError: { error: unknown } | undefined;
    let sourceDone = false;
    const data = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        const first = head.shift();
        if (first) return controller.enqueue(first);
        try {
          const next = await rest.next();
          if (next.done) {
            sourceDone = true;
            controller.close();
          } else controller.enqueue(next.value);
        } catch (error) {
          sourceError = { error };
          controller.error(error);
        }
      },
    });
    // Chunks as large as the server allows (default 128 KiB): fewer round trips for big uploads.
    const maxChunk = Math.max(128 * 1024, this.nats.maxPayload - CHUNK_HEADROOM_BYTES);
    try {
      const info = await (await this.store()).put({ name: key, options: { max_chunk_size: maxChunk } }, data);
      return { inputBlob: key, size: info.size, sha256: Buffer.from(info.digest.replace(/^SHA-256=/, ''), 'base64url').toString('hex') };
    } catch (error) {
      // The object store purges the chunks it wrote. The upload's own failure is the one to report.
      if (sourceError) throw sourceError.error;
      // The store failed mid-upload: read the rest and drop it, so the request's body ends and the answer can go.
      if (!sourceDone) for (let next = await rest.next(); !next.done; next = await rest.next());
      this.logger.warn(`storing an input file failed: ${(error as Error).message}`);
      throw new RpcError('unavailable', `the input store did not take the file: ${(error as Error).message}`);
    }
  }

  /** The bucket, created (or opened) at first use on the connection. */
  private store(): Promise<ObjectStore> {
    if (!this.bucket) {
      // File storage (the default), QDC_NATS_REPLICAS replicas, no TTL: an object lives as long as a row names it.
      this.bucket = replicatedObjectStore(this.nats.raw, this.config, inputsBucket(this.config.QDC_NAMESPACE), {
        description: 'QDC uploaded input files (Postgres holds each key, size and SHA-256)',
      });
      this.bucket.catch(() => (this.bucket = undefined));
    }
    return this.bucket;
  }
}
