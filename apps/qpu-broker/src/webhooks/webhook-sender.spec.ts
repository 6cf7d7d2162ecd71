import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendDelivery } from './webhook-sender.js';
import { verifyWebhookSignature } from './webhook-signature.js';

/** A local receiver that answers what `answer` says and keeps what came. */
async function receiver(answer: (req: IncomingMessage) => { status: number; headers?: Record<string, string> } | 'hang') {
  const received: { headers: IncomingMessage['headers']; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      const a = answer(req);
      if (a === 'hang') return;
      res.writeHead(a.status, a.headers).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const local = { allowLocalHttp: true, allowPrivateNetworks: false };
const delivery = (url: string) => ({ id: 'd-1', url, secret: 'whsec_s', body: '{"id":"d-1","type":"qpu.job.status","created_at":"x","data":{}}' });

describe('sendDelivery', () => {
  it('POSTs the body with id, timestamp and a signature the receiver can verify; 2xx is delivered', async () => {
    const r = await receiver(() => ({ status: 204 }));
    try {
      const outcome = await sendDelivery(delivery(r.url), local, 5_000, 1_764_331_200);
      expect(outcome).toMatchObject({ delivered: true, statusCode: 204, error: null });
      const [got] = r.received;
      expect(got!.body).toBe(delivery(r.url).body);
      expect(got!.headers['content-type']).toBe('application/json');
      expect(got!.headers['qdc-webhook-id']).toBe('d-1');
      expect(got!.headers['qdc-webhook-timestamp']).toBe('1764331200');
      const check = verifyWebhookSignature('whsec_s', got!.headers['qdc-webhook-signature'] as string, '1764331200', got!.body, { nowS: 1_764_331_200 });
      expect(check).toEqual({ ok: true });
    } finally {
      await r.close();
    }
  });

  it('records a non-2xx answer, and does not follow a redirect', async () => {
    const r = await receiver((req) => (req.url === '/hook' ? { status: 302, headers: { location: '/elsewhere' } } : { status: 200 }));
    try {
      expect(await sendDelivery(delivery(r.url), local, 5_000)).toMatchObject({ delivered: false, statusCode: 302, error: 'HTTP 302' });
      expect(r.received.map(() => 'one')).toEqual(['one']);
    } finally {
      await r.close();
    }
  });

  it('gives up on a receiver that does not answer within the timeout', async () => {
    const r = await receiver(() => 'hang');
    try {
      expect(await sendDelivery(delivery(r.url), local, 200)).toMatchObject({ delivered: false, statusCode: null, error: 'no answer within 200 ms' });
    } finally {
      await r.close();
    }
  });

  it('does not connect to a loopback address unless local receivers are allowed (names resolved before connecting)', async () => {
    const r = await receiver(() => ({ status: 200 }));
    try {
      const strict = { allowLocalHttp: false, allowPrivateNetworks: false };
      expect(await sendDelivery(delivery(r.url), strict, 2_000)).toMatchObject({
        delivered: false,
        statusCode: null,
        error: '127.0.0.1 is not a public address',
      });
      const byName = await sendDelivery(delivery(r.url.replace('127.0.0.1', 'localhost')), strict, 2_000);
      expect(byName).toMatchObject({
        delivered: false,
        statusCode: null,
        error: expect.stringMatching(/^EADDRNOTALLOWED: localhost resolves to .*not a public address$/),
      });
      expect(r.received).toEqual([]);
      // Allowed, the same name resolves and connects.
      expect(await sendDelivery(delivery(r.url.replace('127.0.0.1', 'localhost')), local, 2_000)).toMatchObject({ delivered: true, statusCode: 200 });
      expect(r.received).toHaveLength(1);
    } finally {
      await r.close();
    }
  });
});
