import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import { connect, headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { unzipSync } from 'fflate';
import { Redis } from 'ioredis';
import pg from 'pg';
import { encodeNpy } from '#qdc/arrays';
import { labStreamSubjects, type LabStreamEvent } from '#qdc/contracts';
import { generateCoulombPeakTrace, generatePinchOffTrace, tuningSeeds } from '#qdc/device-physics';
import { SERVICE_PROCESSES, replicaNames } from '#qdc/platform';
import { BELL_QISKIT, qpuClient, writeTestDevices } from './qpu.fixtures.js';
import { multipart, startSystem, type TestSystem } from './system.harness.js';

/**
 * `qdc backup create` / `qdc backup restore` (apps/cli/src/backup) against one real stack: results with an uploaded
 * .npy and a plot, a batch whose 530 kB input was streamed into the input store (`<ns>-inputs`), votes, a QPU job on a simulated device and a
 * live stream's result are stored; the backup is refused where it must be (damaged, target not empty); then the
 * services are stopped, the database dropped, the namespace's NATS streams/buckets and Redis keys deleted, the backup
 * restored, the services started again, and everything is compared: every table's rows, the sequences, the ids,
 * the result JSON, the downloads byte for byte (the zips and the files in them), the votes, the QPU job and the stream, which analyses again.
 */
const CLI = resolve('dist/apps/cli/src/main.js');
const PEAK_V2 = 'coulomb-blockade-peak-detector-v2';

function qdc(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => done({ code, stdout, stderr }));
  });
}

describe('qdc backup create / restore (the built CLI against a real stack)', () => {
  let sut: TestSystem;
  let nc: NatsConnection;
  let js: JetStreamClient;
  let alice: string;
  let labKey: string;
  let admin: string;
  const events: LabStreamEvent[] = [];
  const work = mkdtempSync(join(tmpdir(), 'qdc-backup-'));
  const ns = () => sut.namespace;
  const stream = () => labStreamSubjects(ns(), 'lab-a', 'bk-1');
  const http = (path: string, key: string, init: RequestInit = {}) =>
    fetch(`${sut.baseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...(init.headers as Record<string, string>) } });
  const text = async (path: string, key: string) => {
    const res = await http(path, key);
    expect([path, res.status]).toEqual([path, 200]);
    return res.text();
  };
  const until = async <T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms; logs in ${sut.logDir}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const publishFrame = (id: string, seed: number) => {
    const h = natsHeaders();
    h.set('Nats-Msg-Id', id);
    return js.publish(stream().frames, JSON.stringify({ frame_id: id, data: Array.from(generatePinchOffTrace(seed, { length: 100 }).trace) }), { headers: h });
  };
  const consumerPulling = () =>
    until('the stream consumer pulls', async () => {
      const info = await (await jetstreamManager(nc)).consumers.info(`${ns()}-lab-lab-a-FRAMES-bk-1`, 'analyser').catch(() => null);
      return info && info.num_waiting > 0 ? true : undefined;
    });

  /** Every table's row count and a digest of its rows (in text form, sorted), and every sequence's position. */
  const fingerprint = async () => {
    const client = new pg.Client({ connectionString: sut.databaseUrl });
    await client.connect();
    try {
      const tables = (await client.query<{ t: string }>("SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")).rows.map((r) => r.t);
      const out: Record<string, string> = {};
      for (const t of tables.filter((t) => t !== '_prisma_migrations')) {
        const { rows } = await client.query(`SELECT count(*)::int AS n, md5(coalesce(string_agg(x::text, E'\\n' ORDER BY x::text), '')) AS d FROM "${t}" x`);
        out[t] = `${rows[0].n} ${rows[0].d}`;
      }
      for (const { s } of (await client.query<{ s: string }>("SELECT sequencename AS s FROM pg_sequences WHERE schemaname = 'public'")).rows) {
        const { rows } = await client.query(`SELECT last_value, is_called FROM "${s}"`);
        out[`sequence ${s}`] = `${rows[0].last_value} ${rows[0].is_called}`;
      }
      out.migrations = (await client.query('SELECT migration_name, checksum FROM _prisma_migrations ORDER BY 1')).rows
        .map((r) => `${r.migration_name} ${r.checksum}`)
        .join(',');
      return out;
    } finally {
      await client.end();
    }
  };

  /** What users get back: listings, each result's JSON and its download's files, the QPU job, the stream. */
  const userView = async (ids: { alice: string[]; lab: string[]; qpuJob: string }) => {
    const view: Record<string, unknown> = {
      aliceList: await text('/v0/control/model-results', alice),
      labList: await text('/v0/control/model-results', labKey),
      streams: await text('/v0/admin/lab-streams?lab=lab-a', admin),
      qpuJob: (await qpuClient(sut).post('/v0/coda/qpus/status', alice, { job_id: ids.qpuJob })).body,
    };
    for (const [key, list] of [
      [alice, ids.alice],
      [labKey, ids.lab],
    ] as const) {
      for (const id of list) {
        view[`result ${id}`] = await text(`/v0/control/model-results/${id}`, key);
        const zip = await http(`/v0/control/model-results/${id}/download`, key);
        expect(zip.status).toBe(200);
        // The whole zip, byte for byte (its entries are dated when the result was stored), and the files in it.
        const bytes = new Uint8Array(await zip.arrayBuffer());
        view[`download ${id}`] = Buffer.from(bytes).toString('base64');
        for (const [name, file] of Object.entries(unzipSync(bytes))) view[`download ${id} ${name}`] = Buffer.from(file).toString('base64');
      }
    }
    return view;
  };

  beforeAll(async () => {
    sut = await startSystem({ env: { QDC_QPU_DEVICES_DIR: writeTestDevices([{ id: 'fast-3', shotTimeUs: 10 }]), QDC_QPU_TIME_SCALE: '1' } });
    [alice, labKey, admin] = await Promise.all([sut.createKey('alice', 'control,coda'), sut.createKey('lab-a', 'control'), sut.createKey('ops', 'admin')]);
    nc = await connect({ servers: sut.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
    js = jetstream(nc);
  }, 120_000);

  afterAll(async () => {
    await nc?.drain();
    await sut?.stop();
  });

  it('restores a wiped system from its backup: same rows, ids, result files, votes, QPU job and live stream', async () => {
    // --- what is stored: two results of alice (one with a plot, one batch whose 530 kB input is in the input store),
    // her votes, a QPU job (with an idempotency key), a stream's definition and one analysed frame.
    const truth = generateCoulombPeakTrace(tuningSeeds(1, 927)[0]!, { length: 128, kind: 'peaks', peakCount: 3, snrRange: [40, 60] });
    const small = encodeNpy({ shape: [128], data: truth.trace });
    const ran = await http('/v0/control/models', alice, {
      method: 'POST',
      body: multipart({ model: PEAK_V2, plot: 'true' }, { name: 'sweep-7.npy', bytes: small }),
    });
    expect(ran.status).toBe(200);
    const one = await ran.json();
    expect(one.output.plot).toMatch(/^data:image\/(png|svg\+xml);base64,/);
    const rows = new Float64Array(520 * 128);
    for (let r = 0; r < 520; r++) rows.set(generateCoulombPeakTrace(tuningSeeds(520, 11)[r]!, { length: 128, kind: 'peaks', peakCount: 2 }).trace, r * 128);
    const big = encodeNpy({ shape: [520, 128], data: rows });
    expect(big.length).toBeGreaterThan(512 * 1024);
    const batched = await http('/v0/control/models/batch', alice, { method: 'POST', body: multipart({ model: PEAK_V2 }, { name: 'map.npy', bytes: big }) });
    expect(batched.status).toBe(200);
    const two = await batched.json();
    const vote = (id: string, body: unknown) =>
      http(`/v0/control/model-results/${id}/vote`, alice, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await vote(one.id, { vote: 1, feedback: 'three sharp peaks' })).status).toBe(200);
    expect((await vote(two.id, { vote: -1 })).status).toBe(200);

    const api = qpuClient(sut);
    const submitted = await api.post(
      '/v0/coda/qpus',
      alice,
      { code: BELL_QISKIT, source_framework: 'qiskit', backend: 'fast-3', shots: 100 },
      { 'Idempotency-Key': 'backup-1' },
    );
    expect(submitted.status).toBe(200);
    const qpuJob: string = submitted.body.job_id;
    const done = await api.waitFor(alice, qpuJob, (s) => s === 'completed');
    expect(Object.values(done.results as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(100);

    const created = await http('/v0/admin/lab-streams', admin, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ lab: 'lab-a', name: 'bk-1', models: ['pinch-off-classifier-v0'] }),
    });
    expect(created.status).toBe(201);
    nc.subscribe(stream().results, {
      callback: (_e, m) => {
        events.push(m.json<LabStreamEvent>());
      },
    });
    await nc.flush();
    await consumerPulling();
    await publishFrame('frame-1', 5);
    await until('the first frame’s event', async () => (events.length >= 1 ? true : undefined));
    const labIds = (JSON.parse(await text('/v0/control/model-results', labKey)) as { id: string }[]).map((r) => r.id);
    expect(labIds).toHaveLength(1);

    const ids = { alice: [one.id, two.id], lab: labIds, qpuJob };
    const before = await fingerprint();
    const viewBefore = await userView(ids);
    expect(JSON.parse(viewBefore.aliceList as string).map((r: { id: string }) => r.id)).toEqual([two.id, one.id]);
    expect(before.votes).toMatch(/^2 /);
    expect(before.qpu_jobs).toMatch(/^1 /);
    expect(before.qpu_idempotency_keys).toMatch(/^1 /);
    expect(before.input_files).toMatch(/^3 /);

    // --- the backup, and the two refusals that touch nothing: a damaged copy, a target that holds data.
    const dir = join(work, 'backup');
    const made = await qdc(['backup', 'create', dir], sut.env);
    expect([made.code, made.stderr]).toEqual([0, '']);
    expect(made.stdout).toMatch(
      /^backup \S+: \d+ tables, \d+ rows \(snapshot \S+, migration \S+\), 1 entries of KV \S+-lab-streams, 1 objects \(\d+ bytes\) of \S+-inputs\n$/,
    );
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    const counted = Object.fromEntries(manifest.postgres.tables.map((t: { name: string; rows: number }) => [t.name, t.rows]));
    for (const [table, value] of Object.entries(before))
      if (!table.includes(' ') && table !== 'migrations') expect([table, counted[table]]).toEqual([table, Number(value.split(' ')[0])]);
    expect(manifest.namespace).toBe(ns());

    const damaged = join(work, 'damaged');
    cpSync(dir, damaged, { recursive: true });
    const votesFile = join(damaged, 'postgres/votes.ndjson.gz');
    const bytes = readFileSync(votesFile);
    bytes[bytes.length - 5]! ^= 0xff;
    writeFileSync(votesFile, bytes);
    const refusedDamaged = await qdc(['backup', 'restore', damaged], sut.env);
    expect([refusedDamaged.code, refusedDamaged.stderr]).toEqual([
      1,
      expect.stringMatching(/^error: backup \S+ is damaged; nothing was restored:\n {2}postgres\/votes\.ndjson\.gz: /),
    ]);
    const refusedFull = await qdc(['backup', 'restore', dir], sut.env);
    expect(refusedFull.code).toBe(1);
    expect(refusedFull.stderr).toMatch(
      /error: the target already holds data, nothing was restored: .*table model_results.*table votes.*KV \S+-lab-streams \(1 keys\).*object store \S+-inputs \(1 objects\)/,
    );
    expect(await fingerprint()).toEqual(before);

    // --- wipe everything: services stopped, database dropped, the namespace's NATS streams and buckets and Redis keys deleted.
    await Promise.all(
      [...sut.processes.values()].map(
        (child) =>
          new Promise<void>((exited) => {
            if (child.exitCode !== null) return exited();
            child.once('exit', () => exited());
            child.kill('SIGTERM');
          }),
      ),
    );
    const server = new pg.Client({ connectionString: sut.databaseUrl.replace(/\/[^/]+$/, '/postgres') });
    await server.connect();
    await server.query(`DROP DATABASE "${sut.databaseUrl.split('/').at(-1)}" WITH (FORCE)`);
    await server.end();
    const jsm = await jetstreamManager(nc);
    const ours: string[] = [];
    for await (const info of jsm.streams.list()) {
      const name = info.config.name;
      if ([`${ns()}-`, `KV_${ns()}-`, `OBJ_${ns()}-`].some((p) => name.startsWith(p))) ours.push(name);
    }
    expect(ours).toEqual(
      expect.arrayContaining([`KV_${ns()}-lab-streams`, `OBJ_${ns()}-inputs`, `${ns()}-lab-lab-a-FRAMES-bk-1`, `${ns()}-lab-lab-a-EVENTS-bk-1`]),
    );
    for (const name of ours) await jsm.streams.delete(name);
    const redis = new Redis(sut.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    const keys = await redis.keys(`${ns()}:*`);
    expect(keys.length).toBeGreaterThan(0);
    await redis.del(...keys);
    await redis.quit();

    // --- restore, start the services again, compare.
    const restored = await qdc(['backup', 'restore', dir], sut.env);
    expect([restored.code, restored.stderr]).toEqual([0, '']);
    expect(restored.stdout).toMatch(/^restored \S+ \(snapshot \S+\): \d+ rows in \d+ tables, \d+ sequences, 1 KV entries, 1 stored input files\n$/);
    expect(await fingerprint()).toEqual(before);

    // The services the comparison reads through (the assistant and the simulation worker hold none of it).
    for (const service of SERVICE_PROCESSES.filter((s) => !['assistant', 'simulation-worker'].includes(s.name))) {
      for (const name of replicaNames(service, 1)) sut.launch(name, service.entry);
    }
    await until('the restarted system is ready', async () => ((await fetch(`${sut.baseUrl}/readyz`).catch(() => undefined))?.ok ? true : undefined), 90_000);
    expect(await userView(ids)).toEqual(viewBefore);
    const [restoredVote] = await sut.query<{ vote: number; feedback: string }>('SELECT vote, feedback FROM votes WHERE result_id = $1', [one.id]);
    expect(restoredVote).toEqual({ vote: 1, feedback: 'three sharp peaks' });

    // The restored definition starts its consumer again (the frame and event streams are recreated): a new frame is analysed.
    await consumerPulling();
    await publishFrame('frame-2', 6);
    await until('the second frame’s event', async () => (events.length >= 2 ? true : undefined));
    expect((JSON.parse(await text('/v0/control/model-results', labKey)) as unknown[]).length).toBe(2);
  }, 240_000);
});
