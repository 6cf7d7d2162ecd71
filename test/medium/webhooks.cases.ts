import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { connect, headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { generatePinchOffTrace } from '#qdc/device-physics';
import { WebhookDeliveriesHttpResponse, labStreamSubjects } from '#qdc/contracts';
import type { TestSystem } from './system.harness.js';
import { BELL_QISKIT } from './qpu.fixtures.js';

interface Received {
  path: string;
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** What the receiver answered. */
  status?: number;
}

/** What a receiver does (docs/webhooks.md), written out independently of the broker's code. */
const verified = (secret: string, r: Received) => r.signature === `v1=${createHmac('sha256', secret).update(`${r.timestamp}.${r.body}`).digest('hex')}`;

/** The settings the webhook cases need from the stack they run on (set by the spec that starts it). */
export const WEBHOOK_TEST_ENV = { QDC_WEBHOOK_ALLOW_LOCAL_HTTP: 'true', QDC_WEBHOOK_BACKOFF_BASE_MS: '200', QDC_WEBHOOK_TIMEOUT_MS: '5000' };

/**
 * Signed webhooks end to end (docs/webhooks.md): registered over HTTP, QPU job state changes written to the outbox
 * with the transition, lab-stream events read from the stream's event stream, POSTed by the broker's dispatcher to a
 * local receiver — one that answers 500 to the first two attempts of every delivery gets each on the third (backoff
 * base 200 ms here), and the deliveries list shows it. They run on the stack of test/medium/qpu-jobs.spec.ts (a
 * `fast-3` device, WEBHOOK_TEST_ENV) instead of booting one of their own (30–60 s of CI), under owners of their own
 * (`hooks-lab`, `hooks-other`) so they do not touch that spec's jobs and budgets.
 */
export function webhookCases(system: () => TestSystem): void {
  let sut: TestSystem;
  let server: Server;
  let receiverUrl: string;
  let labA: string;
  let labB: string;
  let admin: string;
  let nc: NatsConnection;
  const received: Received[] = [];
  const attemptsById = new Map<string, number>();
  let downUp = false;

  const http = async (method: string, path: string, key: string, body?: unknown) => {
    const res = await fetch(`${sut.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // biome-ignore lint/suspicious/noExplicitAny: JSON answers the spec reads field by field
    return { status: res.status, body: (await res.json()) as any };
  };
  const until = async <T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 60_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms; logs in ${sut.logDir}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  /** The broker's `qdc_webhook_*` series (its /metrics, on the probe port it logged last at start) as `name{labels}` → value. */
  const brokerWebhookMetrics = async (): Promise<Map<string, number>> => {
    const port = [...readFileSync(join(sut.logDir, 'qpu-broker.log'), 'utf8').matchAll(/probes on :(\d+)/g)].at(-1)?.[1];
    if (!port) throw new Error(`qpu-broker logged no probe port; logs in ${sut.logDir}`);
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const series = new Map<string, number>();
    for (const [, name, labels, value] of text.matchAll(/^(qdc_webhook_[a-z_]+)(?:\{([^}]*)\})? (\S+)$/gm))
      series.set(`${name}{${(labels ?? '').replace(/,?service="[^"]*"/, '').replace(/^,/, '')}}`, Number(value));
    return series;
  };
  /** Attempts of qpu.job.status deliveries by outcome, counted and timed, since `before`. */
  const jobAttemptsSince = async (before: Map<string, number>) => {
    const now = await brokerWebhookMetrics();
    const delta = (key: string) => (now.get(key) ?? 0) - (before.get(key) ?? 0);
    return Object.fromEntries(
      (['delivered', 'retry', 'failed'] as const).map((outcome) => {
        const labels = `event="qpu.job.status",outcome="${outcome}"`;
        return [outcome, { counted: delta(`qdc_webhook_deliveries_total{${labels}}`), timed: delta(`qdc_webhook_delivery_duration_seconds_count{${labels}}`) }];
      }),
    );
  };

  beforeAll(async () => {
    sut = system();
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const id = String(req.headers['qdc-webhook-id']);
        const entry: Received = {
          path: req.url ?? '',
          id,
          timestamp: String(req.headers['qdc-webhook-timestamp']),
          signature: String(req.headers['qdc-webhook-signature']),
          body,
        };
        received.push(entry);
        const attempt = (attemptsById.get(`${req.url} ${id}`) ?? 0) + 1;
        attemptsById.set(`${req.url} ${id}`, attempt);
        // /flaky fails the first two attempts of every delivery, then recovers; /down fails until it is "up".
        const fails = (req.url === '/flaky' && attempt <= 2) || (req.url === '/down' && !downUp);
        entry.status = fails ? (req.url === '/down' ? 503 : 500) : 200;
        res.writeHead(entry.status).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    [labA, labB, admin] = await Promise.all([sut.createKey('hooks-lab', 'coda'), sut.createKey('hooks-other', 'control'), sut.createKey('hooks-ops', 'admin')]);
    nc = await connect({ servers: sut.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
  }, 60_000);

  afterAll(async () => {
    await nc?.drain();
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });

  it('registers, lists, rotates and deletes webhooks of the key’s owner; refuses bad URLs and event types with 422', async () => {
    const plain = await http('POST', '/v0/webhooks', labA, { url: 'http://hooks.example.org/x', events: ['qpu.job.status'] });
    expect(plain).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ['body', 'url'],
            msg: 'expected an https:// URL; got http:// (plain http is accepted only for localhost, and only where the deployment allows it)',
            type: 'url_scheme',
          },
        ],
      },
    });
    const unknown = await http('POST', '/v0/webhooks', labA, { url: 'https://hooks.example.org/x', events: ['qpu.job.done'] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0]).toMatchObject({ loc: ['body', 'events', 0], type: 'enum' });
    const privateAddress = await http('POST', '/v0/webhooks', labA, { url: 'https://169.254.169.254/latest', events: ['qpu.job.status'] });
    expect(privateAddress.body.detail[0].msg).toMatch(/^expected a public address; 169\.254\.169\.254 is a private/);

    const created = await http('POST', '/v0/webhooks', labA, { url: 'https://hooks.example.org/x', events: ['qpu.job.status'], description: 'ops' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      url: 'https://hooks.example.org/x',
      events: ['qpu.job.status'],
      description: 'ops',
      created_at: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
      secret_hint: created.body.secret.slice(0, 10),
    });
    const listed = await http('GET', '/v0/webhooks', labA);
    const { secret: _secret, ...withoutSecret } = created.body;
    expect(listed).toEqual({ status: 200, body: [withoutSecret] });
    expect((await http('GET', '/v0/webhooks', labB)).body).toEqual([]);
    // Another owner's webhook does not exist for this key (SPEC §2).
    for (const [method, path] of [
      ['DELETE', ''],
      ['POST', '/rotate-secret'],
      ['GET', '/deliveries'],
    ] as const) {
      expect(await http(method, `/v0/webhooks/${created.body.id}${path}`, labB)).toEqual({
        status: 404,
        body: { detail: `Webhook not found: '${created.body.id}'` },
      });
    }
    const rotated = await http('POST', `/v0/webhooks/${created.body.id}/rotate-secret`, labA);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    expect(await http('DELETE', `/v0/webhooks/${created.body.id}`, labA)).toEqual({ status: 200, body: { detail: 'Webhook deleted' } });
    expect((await http('GET', '/v0/webhooks', labA)).body).toEqual([]);
  });

  it('delivers a QPU job’s state changes and a lab stream’s event, signed; a failing receiver gets them on retry', async () => {
    const steady = await http('POST', '/v0/webhooks', labA, { url: `${receiverUrl}/steady`, events: ['qpu.job.status', 'lab_stream.result'] });
    const flaky = await http('POST', '/v0/webhooks', labA, { url: `${receiverUrl}/flaky`, events: ['qpu.job.status'] });
    expect([steady.status, flaky.status]).toEqual([201, 201]);

    const metricsBefore = await brokerWebhookMetrics();
    const submitted = await http('POST', '/v0/coda/qpus', labA, { code: BELL_QISKIT, source_framework: 'qiskit', backend: 'fast-3', shots: 100 });
    expect(submitted.status).toBe(200);
    const jobId: string = submitted.body.job_id;

    // Every state change reaches both receivers; the flaky one on each delivery's third attempt.
    const delivered = (path: string) => received.filter((r) => r.path === path && JSON.parse(r.body).data.job_id === jobId);
    await until('three job deliveries to /steady', () => (delivered('/steady').length >= 3 ? true : undefined));
    await until('three job deliveries to /flaky, each on its third attempt', async () => {
      const list = await http('GET', `/v0/webhooks/${flaky.body.id}/deliveries`, labA);
      return list.body.length === 3 && list.body.every((d: { status: string }) => d.status === 'delivered') ? true : undefined;
    });

    const steadyJob = delivered('/steady');
    expect(steadyJob.every((r) => verified(steady.body.secret, r))).toBe(true);
    const bodies = steadyJob.map((r) => JSON.parse(r.body));
    expect(new Set(bodies.map((b) => b.id)).size).toBe(3);
    expect(steadyJob.map((r) => r.id)).toEqual(bodies.map((b) => b.id));
    expect(bodies.map((b) => b.data.status)).toEqual(['queued', 'running', 'completed']);
    expect(bodies[2]).toEqual({
      id: expect.any(String),
      type: 'qpu.job.status',
      created_at: expect.any(String),
      data: {
        job_id: jobId,
        status: 'completed',
        from: 'running',
        backend: 'fast-3',
        reason: expect.stringMatching(/^completed/),
        at: bodies[2].created_at,
        error: null,
        cost_cents: 40,
      },
    });

    // The flaky receiver: three attempts per delivery, the same id and body each time, each signed.
    const flakyJob = delivered('/flaky');
    expect(flakyJob).toHaveLength(9);
    expect(flakyJob.every((r) => verified(flaky.body.secret, r))).toBe(true);
    const byId = new Map<string, Set<string>>();
    for (const r of flakyJob) byId.set(r.id, (byId.get(r.id) ?? new Set()).add(r.body));
    expect([...byId.values()].map((set) => set.size)).toEqual([1, 1, 1]);

    const flakyList = (await http('GET', `/v0/webhooks/${flaky.body.id}/deliveries`, labA)).body;
    expect(WebhookDeliveriesHttpResponse.parse(flakyList)).toEqual(flakyList);
    expect(flakyList.map((d: { id: string }) => d.id).sort()).toEqual([...byId.keys()].sort());
    for (const d of flakyList) {
      expect(d).toMatchObject({
        webhook_id: flaky.body.id,
        type: 'qpu.job.status',
        status: 'delivered',
        attempts: 3,
        last_status_code: 200,
        last_error: null,
        next_attempt_at: null,
      });
      expect(d.attempt_log.map((a: { status_code: number; error: string | null }) => [a.status_code, a.error])).toEqual([
        [500, 'HTTP 500'],
        [500, 'HTTP 500'],
        [200, null],
      ]);
    }
    const steadyList = (await http('GET', `/v0/webhooks/${steady.body.id}/deliveries?status=delivered`, labA)).body;
    expect(steadyList.map((d: { attempts: number; status: string }) => [d.attempts, d.status])).toEqual([
      [1, 'delivered'],
      [1, 'delivered'],
      [1, 'delivered'],
    ]);
    expect((await http('GET', `/v0/webhooks/${steady.body.id}/deliveries?status=sent`, labA)).status).toBe(422);

    // The broker's metrics: 3 + 3 delivered, 2 retries of each flaky delivery, none failed for good; each attempt timed; nothing left due.
    const expected = { delivered: { counted: 6, timed: 6 }, retry: { counted: 6, timed: 6 }, failed: { counted: 0, timed: 0 } };
    await until('the attempts counted on the broker’s /metrics', async () =>
      JSON.stringify(await jobAttemptsSince(metricsBefore)) === JSON.stringify(expected) ? true : undefined,
    ).catch(async (error: Error) => {
      throw new Error(`${error.message}; counted ${JSON.stringify(await jobAttemptsSince(metricsBefore))}`);
    });
    expect((await brokerWebhookMetrics()).get('qdc_webhook_outbox_pending{}')).toBe(0);

    // A lab stream of hooks-lab: its event goes to hooks-lab's webhook, signed with the secret rotated just before.
    const rotated = await http('POST', `/v0/webhooks/${steady.body.id}/rotate-secret`, labA);
    const stream = await http('POST', '/v0/admin/lab-streams', admin, { lab: 'hooks-lab', name: 'hooks', models: ['pinch-off-classifier-v0'] });
    expect(stream.status).toBe(201);
    const h = natsHeaders();
    h.set('Nats-Msg-Id', 'frame-1');
    const data = Array.from(generatePinchOffTrace(7, { length: 100 }).trace);
    await jetstream(nc).publish(labStreamSubjects(sut.namespace, 'hooks-lab', 'hooks').frames, JSON.stringify({ frame_id: 'frame-1', data }), { headers: h });
    const lab = await until('the lab-stream delivery', () => received.find((r) => r.path === '/steady' && JSON.parse(r.body).type === 'lab_stream.result'));
    expect(verified(rotated.body.secret, lab)).toBe(true);
    expect(verified(steady.body.secret, lab)).toBe(false);
    expect(JSON.parse(lab.body)).toMatchObject({
      id: lab.id,
      type: 'lab_stream.result',
      data: { type: 'result', lab: 'hooks-lab', stream: 'hooks', frame_id: 'frame-1', results: [{ model: 'pinch-off-classifier-v0' }] },
    });
  }, 120_000);

  it('keeps pending deliveries through a broker killed with SIGKILL: the restarted broker delivers them', async () => {
    const down = await http('POST', '/v0/webhooks', labA, { url: `${receiverUrl}/down`, events: ['qpu.job.status'] });
    const submitted = await http('POST', '/v0/coda/qpus', labA, { code: BELL_QISKIT, source_framework: 'qiskit', backend: 'fast-3', shots: 10 });
    expect(submitted.status).toBe(200);
    const deliveries = async () =>
      (await http('GET', `/v0/webhooks/${down.body.id}/deliveries`, labA)).body as { id: string; status: string; attempts: number }[];
    // The job's three changes, each tried at least once against the receiver that is down.
    await until('three failed attempts at /down', async () => {
      const list = await deliveries();
      return list.length === 3 && list.every((d) => d.status === 'pending' && d.attempts >= 1) ? list : undefined;
    });
    const broker = sut.processes.get('qpu-broker')!;
    const exited = new Promise((r) => broker.once('exit', r));
    broker.kill('SIGKILL');
    await exited;
    downUp = true;
    sut.launch('qpu-broker', 'dist/apps/qpu-broker/src/main.js');
    const after = await until('the three deliveries delivered by the restarted broker', async () => {
      const list = await deliveries().catch(() => undefined);
      return Array.isArray(list) && list.length === 3 && list.every((d) => d.status === 'delivered') ? list : undefined;
    });
    const down503 = new Set(received.filter((r) => r.path === '/down' && r.status === 503).map((r) => r.id));
    const down200 = received.filter((r) => r.path === '/down' && r.status === 200).map((r) => r.id);
    expect([...down503].sort()).toEqual(after.map((d) => d.id).sort());
    expect([...new Set(down200)].sort()).toEqual(after.map((d) => d.id).sort());
    expect(received.filter((r) => r.path === '/down').every((r) => verified(down.body.secret, r))).toBe(true);
  }, 120_000);
}
