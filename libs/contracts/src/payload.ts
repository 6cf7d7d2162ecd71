import { z } from 'zod';

/**
 * Bytes that travel between services: inline (base64) when small, otherwise by key in the
 * JetStream Object Store so NATS messages stay small.
 */
export const BinaryRef = z.union([z.object({ inline: z.string() }), z.object({ objectKey: z.string().min(1), size: z.number().int().nonnegative() })]);
export type BinaryRef = z.infer<typeof BinaryRef>;

/** Largest payload sent inside a NATS message; anything bigger goes through the object store. */
export const INLINE_PAYLOAD_LIMIT_BYTES = 512 * 1024;

/**
 * An uploaded input file kept in the durable input store (JetStream object store `<ns>-inputs`, no TTL) under a key
 * chosen when the upload started; size and SHA-256 as the store measured them while the bytes streamed in.
 */
export const StoredInputRef = z.object({
  inputBlob: z.string().min(1),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type StoredInputRef = z.infer<typeof StoredInputRef>;

/** An input file on the run path: inline when small, in the input store when uploaded large, or a transient payload. */
export const InputRef = z.union([BinaryRef, StoredInputRef]);
export type InputRef = z.infer<typeof InputRef>;
