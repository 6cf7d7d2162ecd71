import { z } from 'zod';

/**
 * Signed webhooks (docs/webhooks.md): an owner registers HTTPS URLs for event types; the qpu-broker owns the
 * `webhooks` and `webhook_deliveries` tables, fans events out into deliveries and POSTs them, signed.
 *
 * WARNING: event type names and the signature scheme are a contract with users' receivers: never rename one in
 * place; add a new name (or a `v2=` signature next to `v1=`).
 */
export const WebhookEventType = z.enum(['qpu.job.status', 'lab_stream.result']);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

export const WebhookDeliveryStatus = z.enum(['pending', 'delivered', 'failed']);
export type WebhookDeliveryStatus = z.infer<typeof WebhookDeliveryStatus>;

/** Delivery headers (lower-case on the wire, as HTTP/2 and Node give them). */
export const WEBHOOK_ID_HEADER = 'QDC-Webhook-Id';
export const WEBHOOK_TIMESTAMP_HEADER = 'QDC-Webhook-Timestamp';
export const WEBHOOK_SIGNATURE_HEADER = 'QDC-Webhook-Signature';
/** Prefix of a signing secret (shown once, at creation and rotation). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

export const WebhookDto = z
  .object({
    id: z.string().uuid(),
    url: z.string(),
    events: z.array(WebhookEventType),
    description: z.string().nullable(),
    created_at: z.string().meta({ description: 'ISO-8601 UTC' }),
    secret_hint: z.string().meta({ description: 'the first characters of the signing secret, to tell secrets apart' }),
  })
  .meta({ id: 'Webhook' });
export type WebhookDto = z.infer<typeof WebhookDto>;

/** The creation (and rotation) answer: the only one that holds the signing secret. */
export const WebhookWithSecretDto = WebhookDto.extend({
  secret: z.string().meta({ description: 'the signing secret (`whsec_…`), shown once: store it with the receiver' }),
}).meta({ id: 'WebhookWithSecret' });
export type WebhookWithSecretDto = z.infer<typeof WebhookWithSecretDto>;

export const WebhookAttemptDto = z.object({
  attempt: z.number().int().positive(),
  at: z.string(),
  status_code: z.number().int().nullable().meta({ description: 'the receiver’s HTTP status; null when there was no answer' }),
  error: z.string().nullable().meta({ description: 'why the attempt failed (timeout, refused, non-2xx), null when delivered' }),
  duration_ms: z.number().int().nonnegative(),
});
export type WebhookAttemptDto = z.infer<typeof WebhookAttemptDto>;

export const WebhookDeliveryDto = z
  .object({
    id: z.string().uuid().meta({ description: 'the delivery id: the body’s `id` and the QDC-Webhook-Id header, the same on every attempt' }),
    webhook_id: z.string().uuid(),
    type: WebhookEventType,
    status: WebhookDeliveryStatus,
    created_at: z.string(),
    attempts: z.number().int().nonnegative(),
    last_attempt_at: z.string().nullable(),
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    next_attempt_at: z.string().nullable().meta({ description: 'when it is tried again (pending only)' }),
    delivered_at: z.string().nullable(),
    attempt_log: z.array(WebhookAttemptDto).meta({ description: 'every attempt, oldest first' }),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDeliveryDto = z.infer<typeof WebhookDeliveryDto>;

// NATS requests (gateway → qpu-broker); ownerId comes from the caller's API key.
export const WebhookCreateRequest = z.object({
  ownerId: z.string().uuid(),
  url: z.string(),
  events: z.array(WebhookEventType).min(1),
  description: z.string().max(500).nullable(),
});
export type WebhookCreateRequest = z.infer<typeof WebhookCreateRequest>;
export const WebhookRef = z.object({ ownerId: z.string().uuid(), webhookId: z.string() });
export type WebhookRef = z.infer<typeof WebhookRef>;
export const WebhookListRequest = z.object({ ownerId: z.string().uuid() });
export type WebhookListRequest = z.infer<typeof WebhookListRequest>;
export const WebhookDeliveriesRequest = WebhookRef.extend({
  skip: z.number().int().nonnegative().default(0),
  limit: z.number().int().min(1).max(1000).default(100),
  status: WebhookDeliveryStatus.optional(),
});
export type WebhookDeliveriesRequest = z.infer<typeof WebhookDeliveriesRequest>;
export const WebhookDeleteResponse = z.object({ detail: z.string() });
export type WebhookDeleteResponse = z.infer<typeof WebhookDeleteResponse>;
