import { Inject, Injectable } from '@nestjs/common';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { QDC_CONFIG, type QdcConfig } from '#qdc/platform';
import { WEBHOOK_ID_HEADER, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER } from '#qdc/contracts';
import { isAllowedAddress, type WebhookUrlPolicy } from './webhook-url.js';
import { webhookSignature } from './webhook-signature.js';
import { webhookUrlPolicy } from './webhooks.config.js';

/** One attempt's outcome: delivered on 2xx; otherwise the status (if any answer came) and why. */
export interface AttemptOutcome {
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface SignedDelivery {
  id: string;
  url: string;
  secret: string;
  body: string;
}

/** At most this much of an answer is read (and thrown away): receivers should answer quickly and briefly. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * POSTs one delivery: signed with the time of this attempt, no redirects followed (a 3xx is a failure, so a receiver
 * cannot bounce the broker to an internal address), the resolved address checked against the policy before
 * connecting, and the whole attempt bounded by `timeoutMs`.
 */
export function sendDelivery(
  delivery: SignedDelivery,
  policy: WebhookUrlPolicy,
  timeoutMs: number,
  nowS = Math.floor(Date.now() / 1000),
): Promise<AttemptOutcome> {
  const started = performance.now();
  const url = new URL(delivery.url);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const guarded: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as unknown as LookupAddress[];
      const allowed = list.filter((a) => isAllowedAddress(a.address, policy));
      if (!allowed.length) {
        const refused = new Error(`${hostname} resolves to ${list.map((a) => a.address).join(', ')}: not a public address`);
        return callback(Object.assign(refused, { code: 'EADDRNOTALLOWED' }), '', 0);
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (outcome: Omit<AttemptOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, durationMs: Math.round(performance.now() - started) });
    };
    if (isIP(literal) && !isAllowedAddress(literal, policy)) return finish({ delivered: false, statusCode: null, error: `${literal} is not a public address` });
    const body = Buffer.from(delivery.body);
    const req = request(url, {
      method: 'POST',
      lookup: guarded,
      headers: {
        'content-type': 'application/json',
        'content-length': body.length,
        'user-agent': 'QDC-Webhooks/1',
        [WEBHOOK_ID_HEADER]: delivery.id,
        [WEBHOOK_TIMESTAMP_HEADER]: String(nowS),
        [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(delivery.secret, nowS, delivery.body),
      },
    });
    timer = setTimeout(() => {
      req.destroy();
      finish({ delivered: false, statusCode: null, error: `no answer within ${timeoutMs} ms` });
    }, timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) =>
      finish({ delivered: false, statusCode: null, error: error.code ? `${error.code}: ${error.message}` : error.message }),
    );
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) res.destroy();
      });
      const done = () =>
        finish(
          status >= 200 && status < 300
            ? { delivered: true, statusCode: status, error: null }
            : { delivered: false, statusCode: status, error: `HTTP ${status}` },
        );
      res.on('end', done);
      res.on('close', done);
      res.on('error', done);
    });
    req.end(body);
  });
}

/** sendDelivery with the deployment's URL policy and attempt timeout. */
@Injectable()
export class WebhookSender {
  constructor(@Inject(QDC_CONFIG) private readonly config: QdcConfig) {}

  send(delivery: SignedDelivery): Promise<AttemptOutcome> {
    return sendDelivery(delivery, webhookUrlPolicy(this.config), this.config.QDC_WEBHOOK_TIMEOUT_MS);
  }
}
