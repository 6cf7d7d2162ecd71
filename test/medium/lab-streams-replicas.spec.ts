import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { connect, headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { generatePinchOffTrace } from '#qdc/device-physics';
import { labFrameStream, labStreamLeasesBucket, type LabStreamDto, type LabStreamEvent } from '#qdc/contracts';
import { killHard } from './lab-node.fixtures.js';
import { startSystem, type TestSystem } from './system.harness.js';

const STREAMS_ENTRY = 'dist/apps/lab-streams/src/main.js';

/**
 * Two lab-streams replicas share the live streams: one holds a stream's lease and answers its frames in order; when
 * it dies (kill -9) mid-stream, the other takes the stream over from its first unacknowledged frame. Guarantee checked
 * here: every frame is answered by exactly one event, events in frame order across the takeover, every frame stored
 * exactly once (SPEC §6; docs/lab-integration.md › Replicas).
 */
describe('live streams on two lab-streams replicas (kill -9 of the holder mid-stream)', () => {
  let sut: TestSystem;
  let nc: NatsConnection;
  let js: JetStreamClient;
  let second: ChildProcess;
  const events: LabStreamEvent[] = [];

  beforeAll(async () => {
    sut = await startSystem({ workers: 2, env: { QDC_STREAM_LEASE_MS: '2000' } });
    second = sut.launch('lab-streams-2', STREAMS_ENTRY);
    nc = await connect({ servers: sut.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
    js = jetstream(nc);
  }, 120_000);

  afterAll(async () => {
    await nc?.drain();
    await sut?.stop();
  });

  it('answers 600 frames exactly once each, in frame order, across the takeover; 600 results stored', async () => {
    const admin = await sut.createKey('ops', 'admin');
    const res = await fetch(`${sut.baseUrl}/v0/admin/lab-streams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ lab: 'lab-a', name: 'rep', models: ['pinch-off-classifier-v0', 'pinch-off-parameter-extractor-v0'], max_in_flight: 16 }),
    });
    expect(res.status).toBe(201);
    const dto = (await res.json()) as LabStreamDto;
    nc.subscribe(dto.subjects.results, { callback: (_e, m) => void events.push(m.json<LabStreamEvent>()) });
    await nc.flush();

    // Which replica holds the stream: the lease's value names the holder's pid.
    const leases = await new Kvm(nc).open(labStreamLeasesBucket(sut.namespace));
    const first = sut.processes.get('lab-streams')!;
    let holderPid = 0;
    for (const deadline = Date.now() + 60_000; !holderPid; ) {
      const entry = await leases.get('lab-a.rep');
      if (entry?.operation === 'PUT') holderPid = Number(entry.string().split('-').at(-2));
      else if (Date.now() > deadline) throw new Error(`nobody took the stream; logs in ${sut.logDir}`);
      else await new Promise((r) => setTimeout(r, 100));
    }
    expect([first.pid, second.pid]).toContain(holderPid);
    const [holder, other, otherLog] = holderPid === first.pid ? [first, second, 'lab-streams-2.log'] : [second, first, 'lab-streams.log'];

    const publish = (i: number) => {
      const h = natsHeaders();
      h.set('Nats-Msg-Id', `r${i}`);
      return js.publish(dto.subjects.frames, JSON.stringify({ data: Array.from(generatePinchOffTrace(20_000 + i, { length: 100 }).trace) }), { headers: h });
    };
    const acks: Promise<unknown>[] = [];
    const start = Date.now();
    for (let i = 0; i < 600; i++) {
      const wait = start + i * 20 - Date.now(); // 50 frames/s
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (i === 250) {
        // Only the holder consumed so far; then it dies with frames in flight.
        expect(readFileSync(join(sut.logDir, otherLog), 'utf8')).not.toContain('consuming stream lab-a/rep');
        expect(events.length).toBeGreaterThan(0);
        await killHard(holder);
      }
      acks.push(publish(i));
    }
    await Promise.all(acks);
    const deadline = Date.now() + 180_000;
    while (new Set(events.map((e) => e.frame_id)).size < 600) {
      if (Date.now() > deadline) throw new Error(`${events.length} events; logs in ${sut.logDir}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 1000)); // a late duplicate would arrive now

    expect(events.map((e) => e.frame_id)).toEqual(Array.from({ length: 600 }, (_, i) => `r${i}`));
    expect(events.every((e) => e.type === 'result' && e.results.length === 2 && e.results.every((r) => 'result_id' in r))).toBe(true);
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    const stored = await sut.query<{ n: string; jobs: string }>(
      "SELECT count(*) AS n, count(DISTINCT job_id) AS jobs FROM model_results r JOIN owners o ON o.id = r.owner_id WHERE o.name = 'lab-a'",
    );
    expect(stored[0]).toEqual({ n: '1200', jobs: '1200' });
    const resultIds = events.flatMap((e) => (e.type === 'result' ? e.results.map((r) => ('result_id' in r ? r.result_id : '')) : []));
    expect(new Set(resultIds).size).toBe(1200);
    // The survivor holds the stream now and emptied the work queue.
    expect((await leases.get('lab-a.rep'))!.string()).toContain(`-${other.pid}-`);
    expect(readFileSync(join(sut.logDir, otherLog), 'utf8')).toContain('consuming stream lab-a/rep');
    const info = await (await js.jetstreamManager()).streams.info(labFrameStream(sut.namespace, 'lab-a', 'rep'));
    expect(info.state.messages).toBe(0);
  }, 300_000);
});
