import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '#qdc/contracts';

/**
 * Stripe-style signatures (docs/webhooks.md): `QDC-Webhook-Signature: v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`
 * with `QDC-Webhook-Timestamp: <unix seconds>`. The timestamp is inside the MAC, so a captured delivery cannot be
 * replayed later with a fresh timestamp; receivers refuse timestamps older than a few minutes.
 */
export const SIGNATURE_VERSION = 'v1';

/** A new signing secret: `whsec_` + 32 random bytes, base64url. The whole string (prefix included) is the HMAC key. */
export const newWebhookSecret = (): string => `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;

export const webhookSignature = (secret: string, timestamp: number, body: string): string =>
  `${SIGNATURE_VERSION}=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

/**
 * What a receiver does (the Python snippet in docs/webhooks.md is the same): recompute, compare in constant time
 * against every `v1=` entry of the header (comma-separated, so a future `v2=` can sit beside it), and refuse a
 * timestamp further than `toleranceS` from now.
 */
export function verifyWebhookSignature(
  secret: string,
  header: string | undefined,
  timestamp: string | undefined,
  body: string,
  options: { nowS?: number; toleranceS?: number } = {},
): { ok: true } | { ok: false; reason: string } {
  if (!header || !timestamp) return { ok: false, reason: 'missing signature or timestamp header' };
  if (!/^\d+$/.test(timestamp)) return { ok: false, reason: `timestamp is not unix seconds: '${timestamp}'` };
  const now = options.nowS ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceS ?? 300;
  if (Math.abs(now - Number(timestamp)) > tolerance) return { ok: false, reason: `timestamp ${timestamp} is more than ${tolerance} s from now (${now})` };
  const expected = Buffer.from(webhookSignature(secret, Number(timestamp), body));
  const match = header
    .split(',')
    .map((part) => Buffer.from(part.trim()))
    .some((candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected));
  return match ? { ok: true } : { ok: false, reason: 'no v1 signature matches' };
}

/** The body of a delivery: the envelope around the stored `data` JSON text, byte-identical on every attempt. */
export const deliveryBody = (delivery: { id: string; type: string; createdAt: Date; data: string }): string =>
  `{"id":${JSON.stringify(delivery.id)},"type":${JSON.stringify(delivery.type)},"created_at":${JSON.stringify(delivery.createdAt.toISOString())},"data":${delivery.data}}`;
