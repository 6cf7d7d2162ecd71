import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { connect, headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { encodeNpy } from '#qdc/arrays';
import { labEventStream, labFrameStream, labStreamsBucket, type LabStreamDto, type LabStreamEvent } from '#qdc/contracts';
import { generateCoulombPeakTrace, generatePinchOffTrace, tuningSeeds } from '#qdc/device-physics';
import { startNatsCluster, type NatsCluster } from './nats-server.fixture.js';
import { BELL_QISKIT, writeTestDevices } from './qpu.fixtures.js';
import { multipart, startSystem, type TestSystem } from './system.harness.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const RUNS = 24;
const JOBS = 16;
const FRAMES = 240;
/** The load takes ~5 s (runs every 200 ms, jobs every 300 ms, frames at 50/s); the meta leader dies after 1.5 s of it. */
const KILL_AFTER_MS = 1_500;
/** Retries of one request or publish, across the fail-over (answers 503 with Retry-After, publishes time out). */
const RETRY_DEADLINE_MS = 40_000;

/**
 * NATS as a 3-node JetStream cluster (issue 27 item 4): the services run with QDC_NATS_REPLICAS=3 against three local
 * nats-server processes, every server named in NATS_URL. In the middle of a load of model runs (HTTP), QPU jobs (the
 * simulated device) and frames on a lab stream, the JetStream meta leader is killed (-9). A client retries what was
 * refused the way the API says (same x-request-id, same Idempotency-Key, same Nats-Msg-Id); afterwards nothing is lost
 * or duplicated: one stored result per run, each QPU job completed once, one event and one stored result per frame.
 * A bucket made before, with one replica (as by a single-server QDC), is brought to 3 by the services.
 */
describe('NATS cluster: kill -9 of the JetStream meta leader under load', () => {
  let cluster: NatsCluster;
  let sut: TestSystem;
  let nc: NatsConnection;
  let js: JetStreamClient;
  let jsm: JetStreamManager;
  let runner: string;
  let coda: string;
  let admin: string;
  /** The services' QDC_NAMESPACE, chosen here so that a bucket can be made before they start. */
  const ns = `tcl${Date.now().toString(36)}`;

  const call = (path: string, token: string, init: RequestInit = {}) =>
    fetch(`${sut.baseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) } });

  /** Sends until `expected` (a 503 or a dropped connection is retried with the same request); returns the answer's body. */
  async function untilOk(send: () => Promise<Response>, what: string, expected = 200): Promise<{ body: Record<string, unknown>; attempts: number }> {
    const deadline = Date.now() + RETRY_DEADLINE_MS;
    for (let attempts = 1; ; attempts++) {
      const res = await send().catch((error: Error) => error);
      if (!(res instanceof Error) && res.status === expected) return { body: (await res.json()) as Record<string, unknown>, attempts };
      const why = res instanceof Error ? res.message : `${res.status} ${await res.text()}`;
      if (!(res instanceof Error) && res.status !== 503) throw new Error(`${what}: ${why}; logs in ${sut.logDir}`);
      if (Date.now() > deadline) throw new Error(`${what} still refused after ${attempts} attempts: ${why}; logs in ${sut.logDir}`);
      await sleep(250);
    }
  }

  /** A JetStream API request of the test's own, retried while the cluster elects new leaders (it times out meanwhile). */
  async function jsApi<T>(request: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + RETRY_DEADLINE_MS;
    for (;;) {
      try {
        return await request();
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await sleep(250);
      }
    }
  }

  beforeAll(async () => {
    cluster = await startNatsCluster(3);
    await cluster.metaLeader();
    nc = await connect({ servers: cluster.nodes.map((n) => n.url), maxReconnectAttempts: -1, reconnectTimeWait: 250 });
    js = jetstream(nc);
    jsm = await jetstreamManager(nc);
    await new Kvm(nc).create(labStreamsBucket(ns), { history: 1, replicas: 1 });
    const devices = writeTestDevices([{ id: 'fast-3', shotTimeUs: 10 }]);
    sut = await startSystem({
      env: { NATS_URL: cluster.url, QDC_NAMESPACE: ns, QDC_NATS_REPLICAS: '3', QDC_QPU_DEVICES_DIR: devices, QDC_QPU_TIME_SCALE: '1' },
    });
    [runner, coda, admin] = await Promise.all([sut.createKey('runner', 'control'), sut.createKey('qpu-lab', 'coda'), sut.createKey('ops', 'admin')]);
  }, 120_000);

  afterAll(async () => {
    await nc?.close();
    await sut?.stop();
    await cluster?.stop();
  });

  it('loses and duplicates nothing: runs, QPU jobs and lab frames across the fail-over', async () => {
    // 503 while lab-streams still boots (its buckets are agreed on by the cluster first).
    const create = () =>
      call('/v0/admin/lab-streams', admin, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ lab: 'lab-c', name: 'live', models: ['pinch-off-classifier-v0'], max_in_flight: 8 }),
      });
    const dto = (await untilOk(create, 'creating the lab stream', 201)).body as unknown as LabStreamDto;

    // Every stream of this QDC (KV buckets, the lab stream's frames and events, the assistant's run events) has 3
    // replicas, the lab-streams bucket made with 1 before the services started included.
    const streams: Record<string, number> = {};
    for await (const info of jsm.streams.list()) if (info.config.name.includes(ns)) streams[info.config.name] = info.config.num_replicas;
    expect(Object.keys(streams)).toEqual(
      expect.arrayContaining([labFrameStream(ns, 'lab-c', 'live'), labEventStream(ns, 'lab-c', 'live'), `KV_${ns}-lab-streams`]),
    );
    expect(Object.entries(streams).filter(([, replicas]) => replicas !== 3)).toEqual([]);

    // The hard case: the server killed is the meta leader and leads the frame stream too (the instrument's publishes
    // lose their leader). The stream's leadership is handed on until it lands there (each step-down elects another).
    const victim = await cluster.metaLeader();
    let frameLeader = (await jsm.streams.info(dto.jetstream.stream)).cluster?.leader;
    for (let stepDowns = 0; frameLeader !== victim && stepDowns < 8; stepDowns++) {
      await nc.request(`$JS.API.STREAM.LEADER.STEPDOWN.${dto.jetstream.stream}`, undefined, { timeout: 5_000 });
      for (const until = Date.now() + 10_000; Date.now() < until; await sleep(100)) {
        const leader = (await jsApi(() => jsm.streams.info(dto.jetstream.stream))).cluster?.leader;
        if (leader && leader !== frameLeader) {
          frameLeader = leader;
          break;
        }
      }
    }
    const start = Date.now();
    const killed = sleep(KILL_AFTER_MS).then(() => cluster.nodes.find((n) => n.name === victim)!.stop('SIGKILL'));

    const runs = Array.from({ length: RUNS }, async (_, i) => {
      await sleep(i * 200);
      const bytes = encodeNpy({ shape: [128], data: generateCoulombPeakTrace(tuningSeeds(1, 3000 + i)[0]!, { length: 128 }).trace });
      const send = () =>
        call('/v0/models', runner, {
          method: 'POST',
          headers: { 'x-request-id': `cluster-run-${i}` },
          body: multipart({ model: 'coulomb-blockade-peak-detector-v2' }, { name: 'r.npy', bytes }),
        });
      return untilOk(send, `run ${i}`);
    });
    const jobs = Array.from({ length: JOBS }, async (_, i) => {
      await sleep(i * 300);
      const send = () =>
        call('/v0/coda/qpus', coda, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': `cluster-job-${i}` },
          body: JSON.stringify({ code: BELL_QISKIT, source_framework: 'qiskit', backend: 'fast-3', shots: 100 }),
        });
      return untilOk(send, `QPU job ${i}`);
    });
    const frames = Array.from({ length: FRAMES }, async (_, i) => {
      await sleep(i * 20);
      const h = natsHeaders();
      h.set('Nats-Msg-Id', `cf${i}`);
      const data = JSON.stringify({ data: Array.from(generatePinchOffTrace(40_000 + i, { length: 100 }).trace) });
      const deadline = Date.now() + RETRY_DEADLINE_MS;
      for (let attempts = 1; ; attempts++) {
        const ack = await js.publish(dto.subjects.frames, data, { headers: h, timeout: 2_000 }).catch((error: Error) => error);
        if (!(ack instanceof Error)) return attempts;
        if (Date.now() > deadline) throw new Error(`frame ${i} not stored after ${attempts} attempts: ${ack.message}`);
        await sleep(250);
      }
    });

    const runAnswers = await Promise.all(runs);
    const jobAnswers = await Promise.all(jobs);
    const frameAttempts = await Promise.all(frames);
    await killed;
    const loadMs = Date.now() - start;

    // Model runs: one distinct result per run, and exactly RUNS stored for the owner.
    const runIds = runAnswers.map((a) => a.body.id as string);
    expect(new Set(runIds).size).toBe(RUNS);
    const listed = (await (await call('/v0/model-results?limit=1000', runner)).json()) as { id: string }[];
    expect(listed.map((r) => r.id).sort()).toEqual([...runIds].sort());
    expect(await sut.query("SELECT count(*)::int AS n FROM model_results r JOIN owners o ON o.id = r.owner_id WHERE o.name = 'runner'")).toEqual([{ n: RUNS }]);

    // QPU jobs: JOBS distinct jobs, each completed, with exactly one transition to completed.
    const jobIds = jobAnswers.map((a) => a.body.job_id as string);
    expect(new Set(jobIds).size).toBe(JOBS);
    const deadline = Date.now() + 60_000;
    let completions: { job_id: string; n: number }[] = [];
    do {
      completions = await sut.query<{ job_id: string; n: number }>(
        "SELECT job_id, count(*)::int AS n FROM qpu_job_events WHERE to_status = 'completed' AND job_id = ANY($1::uuid[]) GROUP BY job_id",
        [jobIds],
      );
      if (completions.length < JOBS) await sleep(250);
    } while (completions.length < JOBS && Date.now() < deadline);
    expect(completions).toHaveLength(JOBS);
    expect(completions.every((c) => c.n === 1)).toBe(true);
    expect(await sut.query("SELECT count(*)::int AS n FROM qpu_jobs j JOIN owners o ON o.id = j.owner_id WHERE o.name = 'qpu-lab'")).toEqual([{ n: JOBS }]);
    expect(await sut.query('SELECT status, count(*)::int AS n FROM qpu_jobs WHERE id = ANY($1::uuid[]) GROUP BY status', [jobIds])).toEqual([
      { status: 'completed', n: JOBS },
    ]);

    // Lab frames: the event stream (what is republished to the instrument) holds one event per frame, and each
    // frame's result is stored once.
    const events = labEventStream(ns, 'lab-c', 'live');
    for (const until = Date.now() + 60_000; (await jsApi(() => jsm.streams.info(events))).state.messages < FRAMES; ) {
      if (Date.now() > until) throw new Error(`${(await jsApi(() => jsm.streams.info(events))).state.messages} events of ${FRAMES}; logs in ${sut.logDir}`);
      await sleep(250);
    }
    await sleep(1_000); // a late duplicate would be stored now
    const info = await jsApi(() => jsm.streams.info(events));
    const perFrame = new Map<string, number>();
    for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
      const event = (await jsApi(() => jsm.streams.getMessage(events, { seq })))!.json<LabStreamEvent>();
      expect(event.type).toBe('result');
      perFrame.set(event.frame_id, (perFrame.get(event.frame_id) ?? 0) + 1);
    }
    expect(perFrame.size).toBe(FRAMES);
    expect([...perFrame.values()].every((n) => n === 1)).toBe(true);
    expect(
      await sut.query(
        "SELECT count(*)::int AS n, count(DISTINCT job_id)::int AS jobs FROM model_results r JOIN owners o ON o.id = r.owner_id WHERE o.name = 'lab-c'",
      ),
    ).toEqual([{ n: FRAMES, jobs: FRAMES }]);
    // Every frame acknowledged: the work queue is empty (acks follow the events by a moment).
    let backlog = -1;
    for (const until = Date.now() + 30_000; backlog !== 0 && Date.now() < until; ) {
      backlog = (await jsApi(() => jsm.streams.info(dto.jetstream.stream))).state.messages;
      if (backlog !== 0) await sleep(250);
    }
    expect(backlog).toBe(0);

    let successor = victim;
    for (const until = Date.now() + 30_000; successor === victim && Date.now() < until; ) {
      successor = await cluster.metaLeader();
      if (successor === victim) await sleep(250);
    }
    expect(successor).not.toBe(victim);
    const retried = (attempts: number[]) => attempts.filter((n) => n > 1).length;
    console.log(
      `killed ${victim} (meta leader; the frame stream's leader was ${frameLeader}) ${KILL_AFTER_MS} ms into a ${loadMs} ms load; ` +
        `new meta leader ${successor}; retried: ${retried(runAnswers.map((a) => a.attempts))}/${RUNS} runs, ` +
        `${retried(jobAnswers.map((a) => a.attempts))}/${JOBS} QPU submits, ${retried(frameAttempts)}/${FRAMES} frames`,
    );
  }, 150_000);
});
