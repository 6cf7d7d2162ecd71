import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import { connect, headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { labStreamSubjects } from '#qdc/contracts';
import { generatePinchOffTrace } from '#qdc/device-physics';
import { getSse, type SseFrame } from './sse-client.js';
import { BELL_QISKIT, qpuClient, writeTestDevices } from './qpu.fixtures.js';
import { startSystem, type TestSystem } from './system.harness.js';

/**
 * Server push for pages and clients (SPEC §7), through the real gateway, broker, lab-streams service and JetStream:
 * a QPU job's state changes then its results, and a lab stream's per-frame events, both resumable with
 * Last-Event-ID, visible only to their owner (and admin keys for lab streams), bounded per key.
 */
describe('event streams: QPU jobs and lab streams (SSE)', () => {
  let sut: TestSystem;
  let api: ReturnType<typeof qpuClient>;
  let nc: NatsConnection;
  let js: JetStreamClient;
  let labA: string;
  let labB: string;
  let admin: string;

  const jobEvents = (jobId: string, key: string, headers: Record<string, string> = {}) =>
    getSse(`${sut.baseUrl}/v0/coda/qpus/jobs/${jobId}/events`, key, { headers });
  const labEvents = (key: string, options: Parameters<typeof getSse>[2] = {}) => getSse(`${sut.baseUrl}/v0/lab-streams/lab-a/sweep-1/events`, key, options);
  const publishFrame = (seed: number) => {
    const h = natsHeaders();
    h.set('Nats-Msg-Id', `frame-${seed}`);
    const data = Array.from(generatePinchOffTrace(seed, { length: 100 }).trace);
    return js.publish(labStreamSubjects(sut.namespace, 'lab-a', 'sweep-1').frames, JSON.stringify({ frame_id: `frame-${seed}`, data }), { headers: h });
  };
  const dataEvents = (frames: SseFrame[]): Record<string, unknown>[] => frames.filter((f) => f.event).map((f) => ({ id: f.id, ...f.event }));

  beforeAll(async () => {
    const devices = writeTestDevices([{ id: 'slow-3', shotTimeUs: 1000 }]);
    sut = await startSystem({ env: { QDC_QPU_DEVICES_DIR: devices, QDC_QPU_TIME_SCALE: '1', QDC_SSE_STREAMS_PER_KEY: '2' } });
    api = qpuClient(sut);
    [labA, labB, admin] = await Promise.all([sut.createKey('lab-a', 'control,coda'), sut.createKey('lab-b', 'control,coda'), sut.createKey('ops', 'admin')]);
    nc = await connect({ servers: sut.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
    js = jetstream(nc);
  }, 120_000);

  afterAll(async () => {
    await nc?.drain();
    await sut?.stop();
  });

  it("streams a job's state changes, then its results, then ends; resumes after Last-Event-ID", async () => {
    const submitted = await api.post('/v0/coda/qpus', labA, { code: BELL_QISKIT, backend: 'slow-3', shots: 500 }); // holds slow-3 ~0.5 s
    expect(submitted.status).toBe(200);
    const jobId: string = submitted.body.job_id;
    const live = await jobEvents(jobId, labA);
    expect([live.status, live.contentType]).toEqual([200, 'text/event-stream; charset=utf-8']);
    const events = dataEvents(live.frames);
    expect(events.map((e) => `${e.id}:${e.type}:${e.status ?? ''}`)).toEqual(['1:status:queued', '2:status:running', '3:status:completed', '4:results:']);
    for (const e of events.slice(0, 3)) expect(Number.isNaN(Date.parse(e.at as string))).toBe(false);
    const results = events[3]!.results as Record<string, number>;
    expect(Object.keys(results).sort()).toEqual(['00', '11']);
    expect(Object.values(results).reduce((a, b) => a + b, 0)).toBe(500);

    const resumed = await jobEvents(jobId, labA, { 'Last-Event-ID': '2' });
    expect(dataEvents(resumed.frames).map((e) => e.id)).toEqual(['3', '4']);
    const done = await jobEvents(jobId, labA, { 'Last-Event-ID': '4' });
    expect([done.status, done.events]).toEqual([200, []]);
  });

  it("answers 404 for another owner's job and an unknown one, 422 for a bad Last-Event-ID, before any stream byte", async () => {
    const mine = await api.post('/v0/coda/qpus', labA, { code: BELL_QISKIT, backend: 'slow-3', shots: 10 });
    const theirs = await jobEvents(mine.body.job_id, labB);
    expect([theirs.status, JSON.parse(theirs.raw)]).toEqual([
      404,
      { success: false, error: `unknown job_id '${mine.body.job_id}'`, detail: expect.any(String) },
    ]);
    expect((await jobEvents('00000000-0000-4000-8000-000000000000', labA)).status).toBe(404);
    const bad = await jobEvents(mine.body.job_id, labA, { 'Last-Event-ID': 'abc' });
    expect([bad.status, JSON.parse(bad.raw).detail[0].loc]).toEqual([422, ['header', 'last-event-id']]);
  });

  it('bounds the open streams of a key (429 with Retry-After) and frees a slot when a client leaves', async () => {
    const long = await api.post('/v0/coda/qpus', labB, { code: BELL_QISKIT, backend: 'slow-3', shots: 5000 }); // ~5 s on slow-3
    const leave = new AbortController();
    const open = [0, 1].map(() => getSse(`${sut.baseUrl}/v0/coda/qpus/jobs/${long.body.job_id}/events`, labB, { signal: leave.signal }).catch(() => null));
    await new Promise((r) => setTimeout(r, 500));
    const third = await fetch(`${sut.baseUrl}/v0/coda/qpus/jobs/${long.body.job_id}/events`, { headers: { authorization: `Bearer ${labB}` } });
    expect([third.status, third.headers.get('retry-after'), (await third.json()).error]).toEqual([
      429,
      '5',
      expect.stringMatching(/already has 2 event streams open.*at most 2/),
    ]);
    leave.abort();
    await Promise.all(open);
    await new Promise((r) => setTimeout(r, 200));
    const again = await getSse(`${sut.baseUrl}/v0/coda/qpus/jobs/${long.body.job_id}/events`, labB, { stopAfter: (f) => f.some((x) => x.event) });
    expect(again.status).toBe(200);
  });

  it("relays a lab stream's per-frame events live to its owner and admins, resumable by seq; others get 404", async () => {
    const created = await fetch(`${sut.baseUrl}/v0/admin/lab-streams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ lab: 'lab-a', name: 'sweep-1', models: ['pinch-off-classifier-v0'] }),
    });
    expect(created.status).toBe(201);
    const owner = labEvents(labA, { stopAfter: (f) => f.filter((x) => x.event).length === 3 });
    const ops = labEvents(admin, { stopAfter: (f) => f.filter((x) => x.event).length === 3 });
    await new Promise((r) => setTimeout(r, 500)); // both consumers exist before the first frame
    for (const seed of [1, 2, 3]) await publishFrame(seed);
    for (const read of await Promise.all([owner, ops])) {
      const events = dataEvents(read.frames);
      expect(events.map((e) => [e.id, e.type, e.seq, e.frame_id])).toEqual([
        ['1', 'result', 1, 'frame-1'],
        ['2', 'result', 2, 'frame-2'],
        ['3', 'result', 3, 'frame-3'],
      ]);
      expect((events[0]!.results as { model: string }[])[0]!.model).toBe('pinch-off-classifier-v0');
    }
    const resumed = await labEvents(labA, { headers: { 'Last-Event-ID': '1' }, stopAfter: (f) => f.filter((x) => x.event).length === 2 });
    expect(dataEvents(resumed.frames).map((e) => e.seq)).toEqual([2, 3]);
    for (const key of [labB]) expect((await labEvents(key)).status).toBe(404);
    expect((await getSse(`${sut.baseUrl}/v0/lab-streams/lab-a/nope/events`, admin)).status).toBe(404);
  });
});
