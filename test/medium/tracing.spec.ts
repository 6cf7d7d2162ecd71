import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { jetstream } from '@nats-io/jetstream';
import { connect, headers as natsHeaders } from '@nats-io/transport-node';
import { parse } from 'yaml';
import { encodeNpy } from '#qdc/arrays';
import type { LabStreamEvent } from '#qdc/contracts';
import { generateCoulombPeakTrace, generatePinchOffTrace, tuningSeeds } from '#qdc/device-physics';
import { dashboardExpressions, mergeReferences, parseExposition, ruleExpressions, unmetReferences } from '../../libs/platform/src/metrics/metric-references.js';
import { postSse } from './sse-client.js';
import { multipart, startSystem, type TestSystem } from './system.harness.js';

/** One span as the OTLP/HTTP JSON export carries it (the fields this test reads), with its service. */
interface ExportedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

// OTLP span kinds (the wire enum, one more than the API's).
const SERVER = 2;
const CLIENT = 3;
const PRODUCER = 4;
const CONSUMER = 5;

/** A minimal OTLP/HTTP collector: accepts `POST /v1/traces` (JSON, optionally gzipped) and keeps every span. */
async function startCollector(): Promise<{ server: Server; url: string; spans: ExportedSpan[]; posts: string[] }> {
  const spans: ExportedSpan[] = [];
  const posts: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      posts.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      const value = (v: Record<string, unknown>) => v.stringValue ?? v.intValue ?? v.boolValue ?? v.doubleValue;
      const attrs = (list: { key: string; value: Record<string, unknown> }[] = []) => Object.fromEntries(list.map((a) => [a.key, value(a.value)]));
      const request = JSON.parse(body.toString('utf8'));
      for (const rs of request.resourceSpans ?? []) {
        const service = String(attrs(rs.resource?.attributes)['service.name']);
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            spans.push({
              service,
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId || undefined,
              name: s.name,
              kind: s.kind,
              attributes: attrs(s.attributes),
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, spans, posts };
}

/**
 * With OTEL_EXPORTER_OTLP_ENDPOINT set, a model run is one trace across the processes: the gateway's HTTP span is
 * the root (or the child of the caller's traceparent), and the results service's span that stores the result
 * reaches it by parent links through the inference worker's job span and the span that queued the job.
 * The same stack (and traffic) checks the Prometheus side: every series deploy/components/monitoring reads is exported.
 */
describe('OpenTelemetry traces (OTLP/HTTP export)', () => {
  let sut: TestSystem;
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let key: string;

  beforeAll(async () => {
    collector = await startCollector();
    // Local webhook receivers allowed: the metrics case has a QPU job's state changes delivered to one.
    sut = await startSystem({ workers: 1, env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, QDC_WEBHOOK_ALLOW_LOCAL_HTTP: 'true' } });
    key = await sut.createKey('trace-lab', 'control');
  });
  afterAll(async () => {
    await sut?.stop();
    await new Promise((r) => collector?.server.close(r));
  });

  const run = (requestId: string, headers: Record<string, string> = {}) => {
    const truth = generateCoulombPeakTrace(tuningSeeds(1, 77)[0]!, { length: 128, kind: 'peaks', peakCount: 3, snrRange: [40, 60] });
    return fetch(`${sut.baseUrl}/v0/models`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'x-request-id': requestId, ...headers },
      body: multipart({ model: 'coulomb-blockade-peak-detector-v2' }, { name: 'trace.npy', bytes: encodeNpy({ shape: [128], data: truth.trace }) }),
    });
  };

  /** Waits for the results service's span of the run's result (spans are exported in batches, every few seconds). */
  const traceOf = async (requestId: string): Promise<ExportedSpan[]> => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const root = collector.spans.find((s) => s.service === 'gateway' && s.kind === SERVER && s.attributes['qdc.request_id'] === requestId);
      const spans = root ? collector.spans.filter((s) => s.traceId === root.traceId) : [];
      // Complete once the results span reaches the gateway's root through exported parents (each process exports on its own).
      const stored = spans.find((s) => s.service === 'results' && s.name === 'nats handle results.result.create.v1');
      const complete = (() => {
        try {
          const top = stored && ancestry(spans, stored, false).at(-1)!;
          return top?.service === 'gateway' && top.kind === SERVER;
        } catch {
          return false;
        }
      })();
      if (complete) return spans;
      if (Date.now() > deadline)
        throw new Error(`no complete trace for ${requestId}; spans: ${collector.spans.map((s) => `${s.service}:${s.name}`).join(', ')}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };

  /** The chain of spans from `span` up to its root, by parent links; strict: throws on a parent that was never exported. */
  const ancestry = (spans: ExportedSpan[], span: ExportedSpan, strict = true): ExportedSpan[] => {
    const chain = [span];
    for (let at = span; at.parentSpanId; ) {
      const parent = spans.find((s) => s.spanId === at.parentSpanId);
      if (!parent && !strict) break;
      if (!parent) throw new Error(`${at.service}:${at.name} has a parent ${at.parentSpanId} that is not in the trace`);
      chain.push(parent);
      at = parent;
    }
    return chain;
  };

  it('exports one trace per model run whose spans link gateway → queue → worker → results', async () => {
    const res = await run('trace-run-1');
    expect(res.status).toBe(200);
    const spans = await traceOf('trace-run-1');
    expect(collector.posts[0]).toBe('POST /v1/traces application/json');
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
    expect(spans[0]!.traceId).toMatch(/^[0-9a-f]{32}$/);

    const stored = spans.find((s) => s.service === 'results' && s.name === 'nats handle results.result.create.v1')!;
    const chain = ancestry(spans, stored).map((s) => ({ service: s.service, kind: s.kind, name: s.name }));
    // Results answered the worker's request, which ran inside the job's span, which is a child of the span that queued it.
    expect(chain.slice(0, 3)).toEqual([
      { service: 'results', kind: SERVER, name: 'nats handle results.result.create.v1' },
      { service: 'inference-worker', kind: CLIENT, name: 'nats request results.result.create.v1' },
      { service: 'inference-worker', kind: CONSUMER, name: 'bullmq process inference' },
    ]);
    expect(chain[3]).toMatchObject({ kind: PRODUCER, name: 'bullmq inference run-model' });
    // …and the root is the gateway's HTTP span, named by route pattern.
    expect(chain.at(-1)).toEqual({ service: 'gateway', kind: SERVER, name: 'POST /v0/models' });
    const root = spans.find((s) => s.parentSpanId === undefined)!;
    expect(root.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/v0/models',
      'http.response.status_code': 200,
      'qdc.request_id': 'trace-run-1',
    });
    // Every span of the trace hangs off that root (nothing dangling: all parents were exported).
    for (const span of spans) expect(ancestry(spans, span).at(-1)!.spanId).toBe(root.spanId);
    expect([...new Set(spans.map((s) => s.service))]).toEqual(expect.arrayContaining(['gateway', 'inference-worker', 'results']));
  });

  it('exports one trace per QPU job on a simulated device: gateway → broker → device queue → simulation worker → broker', async () => {
    const coda = await sut.createKey('trace-lab', 'coda');
    const bell = 'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[2];\ncreg c[2];\nh q[0];\ncx q[0],q[1];\nmeasure q -> c;';
    const res = await fetch(`${sut.baseUrl}/v0/coda/qpus`, {
      method: 'POST',
      headers: { authorization: `Bearer ${coda}`, 'content-type': 'application/json', 'x-request-id': 'trace-qpu-1' },
      body: JSON.stringify({ code: bell, source_framework: 'openqasm2', backend: 'qdc-sim-line-5', shots: 20 }),
    });
    expect(res.status).toBe(200);
    const queue = 'qpu-qdc-sim-line-5';
    // The broker's span that stores the counts, once exported with every ancestor up to the gateway's request.
    const deadline = Date.now() + 60_000;
    let spans: ExportedSpan[] = [];
    let completed: ExportedSpan | undefined;
    for (;;) {
      const root = collector.spans.find((s) => s.service === 'gateway' && s.kind === SERVER && s.attributes['qdc.request_id'] === 'trace-qpu-1');
      spans = root ? collector.spans.filter((s) => s.traceId === root.traceId) : [];
      completed = spans.find((s) => s.service === 'qpu-broker' && s.name === 'nats handle qpu.execution.complete.v1');
      const top = completed && ancestry(spans, completed, false).at(-1);
      if (top?.service === 'gateway' && top.kind === SERVER) break;
      if (Date.now() > deadline) throw new Error(`no complete QPU trace; spans: ${collector.spans.map((s) => `${s.service}:${s.name}`).join(', ')}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const chain = ancestry(spans, completed!).map((s) => ({ service: s.service, kind: s.kind, name: s.name }));
    expect(chain.slice(0, 4)).toEqual([
      { service: 'qpu-broker', kind: SERVER, name: 'nats handle qpu.execution.complete.v1' },
      { service: 'simulation-worker', kind: CLIENT, name: 'nats request qpu.execution.complete.v1' },
      { service: 'simulation-worker', kind: CONSUMER, name: `bullmq process ${queue}` },
      { service: 'qpu-broker', kind: PRODUCER, name: `bullmq ${queue} run-qpu-job` },
    ]);
    expect(chain[4]).toEqual({ service: 'qpu-broker', kind: SERVER, name: 'nats handle qpu.job.submit.v1' });
    expect(chain.at(-1)).toEqual({ service: 'gateway', kind: SERVER, name: 'POST /v0/coda/qpus' });
  });

  /** Polls `check` until it holds (an answer that arrives in its own time, not a duration under test). */
  const until = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> => {
    for (const deadline = Date.now() + timeoutMs; !(await check()); await new Promise((r) => setTimeout(r, 100))) {
      if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms; logs in ${sut.logDir}`);
    }
  };

  // Shares this spec's stack (the dashboard's series need the same traffic as the traces) to keep CI short.
  it('exports every series the monitoring dashboard and alerts read, with the labels they read (deploy/components/monitoring)', async () => {
    // Traffic: a model run, a QPU job on a simulated device (its state changes delivered to a webhook), an assistant
    // answer, a lab-stream frame answered and one dropped.
    expect((await run('metrics-run')).status).toBe(200);
    const coda = await sut.createKey('metrics-lab', 'coda');
    const bell = 'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[2];\ncreg c[2];\nh q[0];\ncx q[0],q[1];\nmeasure q -> c;';
    const codaPost = (path: string, body: unknown) =>
      fetch(`${sut.baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${coda}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    let hooksReceived = 0;
    const receiver = createServer((req, res) => {
      req.resume().on('end', () => {
        hooksReceived += 1;
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const hook = await codaPost('/v0/webhooks', { url: `http://127.0.0.1:${(receiver.address() as { port: number }).port}/`, events: ['qpu.job.status'] });
    expect(hook.status).toBe(201);
    const submitted = await codaPost('/v0/coda/qpus', { code: bell, source_framework: 'openqasm2', backend: 'qdc-sim-line-5', shots: 10 });
    expect(submitted.status).toBe(200);
    const { job_id } = (await submitted.json()) as { job_id: string };
    await until(
      'QPU job completed',
      async () => ((await (await codaPost('/v0/coda/qpus/status', { job_id })).json()) as { status: string }).status === 'completed',
    );
    await until('the job’s three state changes delivered to the webhook', () => hooksReceived >= 3);
    receiver.closeAllConnections();
    receiver.close();
    await until(
      'assistant answering',
      async () => (await fetch(`${sut.baseUrl}/v0/coda/agents`, { headers: { authorization: `Bearer ${coda}` } })).status === 200,
    );
    const answer = await postSse(`${sut.baseUrl}/v0/coda/agents`, coda, { messages: [{ role: 'user', content: 'What is a qubit?' }], fast: true });
    expect(answer.events.at(-1)).toMatchObject({ type: 'completed' });

    const admin = await sut.createKey('metrics-ops', 'admin');
    const declared = await fetch(`${sut.baseUrl}/v0/admin/lab-streams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ lab: 'lab-m', name: 'pinchoff', models: ['pinch-off-classifier-v0'], max_lag_ms: 1500 }),
    });
    expect(declared.status).toBe(201);
    const stream = (await declared.json()) as { subjects: { frames: string; results: string }; jetstream: { stream: string; consumer: string } };
    const nc = await connect({ servers: sut.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
    try {
      const js = jetstream(nc);
      const events: LabStreamEvent[] = [];
      nc.subscribe(stream.subjects.results, {
        callback: (_e, m) => {
          events.push(m.json<LabStreamEvent>());
        },
      });
      await nc.flush();
      const jsm = await js.jetstreamManager();
      await until(
        'stream consumer pulling',
        async () => ((await jsm.consumers.info(stream.jetstream.stream, stream.jetstream.consumer).catch(() => null))?.num_waiting ?? 0) > 0,
      );
      const publish = (id: string) => {
        const h = natsHeaders();
        h.set('Nats-Msg-Id', id);
        return js.publish(stream.subjects.frames, JSON.stringify({ frame_id: id, data: Array.from(generatePinchOffTrace(7, { length: 100 }).trace) }), {
          headers: h,
        });
      };
      await publish('m1');
      await until('first frame answered', () => events.length === 1);
      expect(events[0]).toMatchObject({ type: 'result', frame_id: 'm1' });
      // A frame that waits longer than max_lag_ms is dropped: hold lab-streams still while it waits.
      const labStreams = sut.processes.get('lab-streams')!;
      labStreams.kill('SIGSTOP');
      try {
        await publish('m2');
        await new Promise((r) => setTimeout(r, 2000));
      } finally {
        labStreams.kill('SIGCONT');
      }
      await until('second frame answered', () => events.length === 2);
      expect(events[1]).toMatchObject({ type: 'dropped', reason: 'stale', frame_id: 'm2' });
    } finally {
      await nc.close();
    }

    // Every process's /metrics: the gateway's on its port, the others' on the probe port each logged at start.
    const endpoints = [...sut.processes.keys()].map((name) => {
      if (name === 'gateway') return `${sut.baseUrl}/metrics`;
      const port = /probes on :(\d+)/.exec(readFileSync(join(sut.logDir, `${name}.log`), 'utf8'))?.[1];
      if (!port) throw new Error(`${name} logged no probe port; logs in ${sut.logDir}`);
      return `http://127.0.0.1:${port}/metrics`;
    });
    expect(endpoints).toHaveLength(7);
    const exposed = (
      await Promise.all(
        endpoints.map(async (url) => {
          const res = await fetch(url);
          expect({ url, status: res.status }).toEqual({ url, status: 200 });
          return parseExposition(await res.text());
        }),
      )
    ).flat();
    const component = join(process.cwd(), 'deploy/components/monitoring');
    const references = mergeReferences([
      ...dashboardExpressions(JSON.parse(readFileSync(join(component, 'dashboard.json'), 'utf8'))),
      ...ruleExpressions(parse(readFileSync(join(component, 'prometheusrule.yaml'), 'utf8'))),
    ]);
    expect(references.length).toBeGreaterThan(20);
    expect(unmetReferences(references, exposed)).toEqual([]);
    // Every series carries the process it came from.
    expect(exposed.filter((s) => s.metric.startsWith('qdc_') && !s.labels.service)).toEqual([]);
  });

  it("continues the caller's trace when the request carries a traceparent", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpan = '00f067aa0ba902b7';
    const res = await run('trace-run-2', { traceparent: `00-${traceId}-${callerSpan}-01` });
    expect(res.status).toBe(200);
    const spans = await traceOf('trace-run-2');
    expect(spans[0]!.traceId).toBe(traceId);
    const root = spans.find((s) => s.service === 'gateway' && s.kind === SERVER)!;
    expect(root.parentSpanId).toBe(callerSpan);
  });
});
