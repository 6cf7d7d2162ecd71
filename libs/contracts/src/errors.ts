import { z } from 'zod';

/** Error codes that cross NATS; the gateway maps each to one HTTP status. */
export const RpcErrorCode = z.enum([
  'invalid_input', // 422
  'not_found', // 404
  'unauthorized', // 401
  'forbidden', // 403
  'conflict', // 409
  'payment_required', // 402
  'unavailable', // 503
  'timeout', // 504
  'internal', // 500
]);
export type RpcErrorCode = z.infer<typeof RpcErrorCode>;

export const RpcErrorBody = z.object({
  code: RpcErrorCode,
  message: z.string(),
  details: z.unknown().optional(),
});
export type RpcErrorBody = z.infer<typeof RpcErrorBody>;

/** The one error type services throw across NATS. */
export class RpcError extends Error {
  constructor(
    readonly code: RpcErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }

  toBody(): RpcErrorBody {
    return { code: this.code, message: this.message, ...(this.details === undefined ? {} : { details: this.details }) };
  }
}

/** Reply envelope of every request/reply subject. */
export type RpcReply<T> = { ok: true; data: T } | { ok: false; error: RpcErrorBody };
