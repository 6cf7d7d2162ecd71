import { createHmac } from 'node:crypto';
import { deliveryBody, newWebhookSecret, verifyWebhookSignature, webhookSignature } from './webhook-signature.js';

describe('webhook signatures', () => {
  const secret = 'whsec_test-secret';
  const body = '{"id":"d1","type":"qpu.job.status","created_at":"2026-11-28T12:00:00.000Z","data":{"job_id":"j"}}';

  it('is v1= hex HMAC-SHA256 of "<timestamp>.<body>" keyed by the whole secret', () => {
    const expected = createHmac('sha256', secret).update(`1764331200.${body}`).digest('hex');
    expect(webhookSignature(secret, 1764331200, body)).toBe(`v1=${expected}`);
  });

  it('verifies what it signs, within the tolerance, among several comma-separated signatures', () => {
    const header = webhookSignature(secret, 1764331200, body);
    expect(verifyWebhookSignature(secret, header, '1764331200', body, { nowS: 1764331250 })).toEqual({ ok: true });
    expect(verifyWebhookSignature(secret, `v2=abc, ${header}`, '1764331200', body, { nowS: 1764331200 })).toEqual({ ok: true });
  });

  it('refuses a changed body, another secret, another timestamp, an old timestamp and missing headers', () => {
    const header = webhookSignature(secret, 1764331200, body);
    const now = { nowS: 1764331200 };
    expect(verifyWebhookSignature(secret, header, '1764331200', body.replace('j"', 'k"'), now)).toEqual({ ok: false, reason: 'no v1 signature matches' });
    expect(verifyWebhookSignature('whsec_other', header, '1764331200', body, now).ok).toBe(false);
    expect(verifyWebhookSignature(secret, header, '1764331201', body, now).ok).toBe(false);
    expect(verifyWebhookSignature(secret, header, '1764331200', body, { nowS: 1764331200 + 301 })).toEqual({
      ok: false,
      reason: 'timestamp 1764331200 is more than 300 s from now (1764331501)',
    });
    expect(verifyWebhookSignature(secret, undefined, '1764331200', body, now)).toEqual({ ok: false, reason: 'missing signature or timestamp header' });
    expect(verifyWebhookSignature(secret, header, '2026-11-28', body, now)).toEqual({ ok: false, reason: "timestamp is not unix seconds: '2026-11-28'" });
  });

  it('makes whsec_ secrets of 32 random bytes, each different', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newWebhookSecret()).not.toBe(a);
  });

  it('builds the body as the envelope around the stored data text, byte for byte', () => {
    const text = deliveryBody({ id: 'd1', type: 'lab_stream.result', createdAt: new Date('2026-11-28T12:00:00Z'), data: '{"b":1,"a":[2]}' });
    expect(text).toBe('{"id":"d1","type":"lab_stream.result","created_at":"2026-11-28T12:00:00.000Z","data":{"b":1,"a":[2]}}');
    expect(JSON.parse(text)).toEqual({ id: 'd1', type: 'lab_stream.result', created_at: '2026-11-28T12:00:00.000Z', data: { b: 1, a: [2] } });
  });
});
