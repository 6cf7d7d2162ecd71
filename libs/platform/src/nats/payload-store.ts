import { Inject, Injectable, Logger } from '@nestjs/common';
import { setSha256Backend, type ObjectStore } from '@nats-io/obj';
import { nanos, type MsgHdrs } from '@nats-io/transport-node';
import { createHash, randomUUID } from 'node:crypto';
import { INLINE_PAYLOAD_LIMIT_BYTES, RpcError, type BinaryRef } from '#qdc/contracts';
import { QDC_CONFIG } from '../config/config.module.js';
import type { QdcConfig } from '../config/config.js';
import { replicatedObjectStore } from './jetstream-replicas.js';
import { NatsConnection } from './nats-connection.js';
import { PAYLOAD_OBJECT_HEADER } from './nats-headers.js';

/** Objects are transient hand-offs between services; JetStream expires them. */
export const PAYLOAD_OBJECT_TTL_MS = 60 * 60 * 1000;

/** Room for NATS headers inside max_payload when chunking objects. */
const CHUNK_HEADROOM_BYTES = 16 * 1024;

// node:crypto instead of the pure-JS SHA-256 the object store defaults to: ~5× faster for MB payloads.
setSha256Backend('native');

/** Where `place` put some bytes: kept for the message itself, or stored under a key (with the store's SHA-256). */
export type PlacedBytes = { inline: Uint8Array } | { objectKey: string; size: number; sha256: string };

/**
 * Bytes between processes: small ones travel inside the NATS message, large ones through the JetStream object store
 * bucket `<namespace>-payloads` (expiring after PAYLOAD_OBJECT_TTL_MS). `place` is the one place that decides which —
 * for message bodies (`encodeMessage`: the RPC client's requests, the server's replies, events) and for the
 * BinaryRefs inside them (uploads, outputs, results) alike.
 */
@Injectable()
export class PayloadStore {
  private readonly logger = new Logger(PayloadStore.name);
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();
  private bucket?: Promise<ObjectStore>;

  constructor(
    private readonly nats: NatsConnection,
    @Inject(QDC_CONFIG) private readonly config: QdcConfig,
  ) {}

  /** The inline-vs-object-store decision: at most INLINE_PAYLOAD_LIMIT_BYTES stay inline. */
  async place(bytes: Uint8Array): Promise<PlacedBytes> {
    if (bytes.length <= INLINE_PAYLOAD_LIMIT_BYTES) return { inline: bytes };
    const { key, sha256 } = await this.put(bytes);
    return { objectKey: key, size: bytes.length, sha256 };
  }

  /** A message body: the payload's JSON, or nothing and its object key in a header when it is too large. */
  async encodeMessage(payload: unknown, hdrs: MsgHdrs): Promise<Uint8Array> {
    const placed = await this.place(this.encoder.encode(JSON.stringify(payload)));
    if ('inline' in placed) return placed.inline;
    hdrs.set(PAYLOAD_OBJECT_HEADER, placed.objectKey);
    return new Uint8Array(0);
  }

  /** The payload of a message `encodeMessage` made (its object, if any, is deleted once read: one reader). */
  async decodeMessage(data: Uint8Array, hdrs?: MsgHdrs): Promise<unknown> {
    const key = hdrs?.get(PAYLOAD_OBJECT_HEADER);
    if (key) {
      const bytes = await this.get(key);
      void this.delete(key);
      return JSON.parse(this.decoder.decode(bytes));
    }
    return data.length === 0 ? undefined : JSON.parse(this.decoder.decode(data));
  }

  /** Bytes as a BinaryRef (no digest: hashing every inline result was CPU for nothing). */
  async toBinaryRef(bytes: Uint8Array): Promise<BinaryRef> {
    const placed = await this.place(bytes);
    return 'inline' in placed ? { inline: base64(placed.inline) } : { objectKey: placed.objectKey, size: placed.size };
  }

  /** Like toBinaryRef, plus the SHA-256 of the bytes (computed once: by the object store when it stores them). */
  async toBinaryRefWithDigest(bytes: Uint8Array): Promise<{ ref: BinaryRef; sha256: string }> {
    const placed = await this.place(bytes);
    if ('inline' in placed) return { ref: { inline: base64(placed.inline) }, sha256: createHash('sha256').update(placed.inline).digest('hex') };
    return { ref: { objectKey: placed.objectKey, size: placed.size }, sha256: placed.sha256 };
  }

  async fromBinaryRef(ref: BinaryRef): Promise<Uint8Array> {
    if ('inline' in ref) return new Uint8Array(Buffer.from(ref.inline, 'base64'));
    return this.get(ref.objectKey);
  }

  /** Stores bytes under a new key; answers the key and the SHA-256 (hex) the object store computed anyway. */
  async put(bytes: Uint8Array): Promise<{ key: string; sha256: string }> {
    const key = randomUUID();
    // Chunks as large as the server allows (default 128 KiB): fewer round trips for big uploads.
    const maxChunk = Math.max(128 * 1024, this.nats.maxPayload - CHUNK_HEADROOM_BYTES);
    const info = await (await this.store()).putBlob({ name: key, options: { max_chunk_size: maxChunk } }, bytes);
    return { key, sha256: Buffer.from(info.digest.replace(/^SHA-256=/, ''), 'base64url').toString('hex') };
  }

  async get(key: string): Promise<Uint8Array> {
    const bytes = await (await this.store()).getBlob(key);
    if (!bytes) throw new RpcError('not_found', `payload ${key} is no longer in the object store`);
    return bytes;
  }

  async delete(key: string): Promise<void> {
    await (await this.store())
      .delete(key)
      .then(() => undefined)
      .catch((error: Error) => this.logger.warn(`could not delete payload ${key}: ${error.message}`));
  }

  /** The bucket, created (or opened) at first use on the connection. */
  private store(): Promise<ObjectStore> {
    if (!this.bucket) {
      this.bucket = replicatedObjectStore(this.nats.raw, this.config, `${this.config.QDC_NAMESPACE}-payloads`, { ttl: nanos(PAYLOAD_OBJECT_TTL_MS) });
      this.bucket.catch(() => (this.bucket = undefined));
    }
    return this.bucket;
  }
}

const base64 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
