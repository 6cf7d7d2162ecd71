import { z } from 'zod';

/**
 * Bytes that travel between services: inline (base64) when small, otherwise by key in the
 * JetStream Object Store so NATS messages stay small.
 */
export const BinaryRef = z.union([z.object({ inline: z.string() }), z.object({ objectKey: z.string().min(1), size: z.number().int().nonnegative() })]);
export type BinaryRef = z.infer<typeof BinaryRef>;

/** Largest payload sent inside a NATS message; anything bigger goes through the object store. */
export const INLINE_PAYLOAD_LIMIT_BYTES = 512 * 1024;
