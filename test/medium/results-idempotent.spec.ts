// Persisting an inference job twice (a worker died after results stored it, so BullMQ ran the job again) stores one
// result and counts one run: real Postgres (committed migrations) and real NATS, the results service as deployed.
import { createHash, randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import pg from 'pg';
import type { ResultsCreateRequest } from '#qdc/contracts';
import {
  applyMigrations,
  ensureDatabase,
  EventBus,
  InputBlobStore,
  inputsBucket,
  loadConfig,
  NatsConnection,
  PayloadStore,
  PrismaService,
} from '#qdc/platform';
import { Objm } from '@nats-io/obj';
import { ResultsRepository } from '../../apps/results/src/results/results.repository.js';
import { ResultsService } from '../../apps/results/src/results/results.service.js';

describe('results: a job persisted twice (real Postgres and NATS)', () => {
  const name = `qdc_idem_${Date.now().toString(36)}`;
  const url = `postgresql://root@127.0.0.1:5432/${name}`;
  const config = loadConfig({ ...process.env, DATABASE_URL: url, QDC_NAMESPACE: `t${name.replace(/_/g, '-')}` });
  const prisma = new PrismaService(config);
  const nats = new NatsConnection(config, 'results-test');
  const payloads = new PayloadStore(nats, config);
  const inputs = new InputBlobStore(nats, payloads, config);
  const service = new ResultsService(new ResultsRepository(prisma), payloads, new EventBus(nats, payloads), inputs);
  const ownerId = randomUUID();
  const bytes = Buffer.from('not an array: the results service stores what it is given');
  const output = { peak_indices: [3, 40], peak_heights: [1.5, 2], peak_widths: [2.5, 3] };

  const request = (jobId: string, input: ResultsCreateRequest['input']): ResultsCreateRequest => ({
    ownerId,
    jobId,
    model: 'coulomb-blockade-peak-detector-v2',
    inputFileName: 'trace.npy',
    inputFileSize: bytes.length,
    input,
    batchSize: null,
    output: { inline: Buffer.from(JSON.stringify(output)).toString('base64') },
  });

  beforeAll(async () => {
    await ensureDatabase(url);
    await applyMigrations(url, resolve('prisma/migrations'));
    await prisma.$connect();
    await nats.connect();
    await prisma.pool.query('INSERT INTO owners (id, name) VALUES ($1, $2)', [ownerId, 'lab']);
  });

  afterAll(async () => {
    await new Objm(nats.raw)
      .open(inputsBucket(config.QDC_NAMESPACE))
      .then((store) => store.destroy())
      .catch(() => undefined);
    await nats.onApplicationShutdown();
    await prisma.onApplicationShutdown();
    const admin = new pg.Client({ connectionString: 'postgresql://root@127.0.0.1:5432/postgres' });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  });

  const rows = async (jobId: string) => (await prisma.pool.query('SELECT id FROM model_results WHERE job_id = $1', [jobId])).rows;
  const runs = async () =>
    Number((await prisma.pool.query('SELECT runs FROM model_run_counters WHERE model_id = $1', ['coulomb-blockade-peak-detector-v2'])).rows[0]?.runs ?? 0);

  it.each([
    ['an inline input', (): ResultsCreateRequest['input'] => ({ inline: bytes.toString('base64') })],
    ['an object-store input', (): ResultsCreateRequest['input'] => ({ objectKey: 'unused', size: 0 })],
    ['a stored input (input store)', (): ResultsCreateRequest['input'] => ({ inputBlob: 'unused', size: 0, sha256: '0'.repeat(64) })],
  ])('with %s: the second call replays the stored result, one row, one run', async (_, inputOf) => {
    const jobId = `job-${randomUUID()}`;
    let input = inputOf();
    if ('objectKey' in input) input = await payloads.toBinaryRef(new Uint8Array(600_000).fill(7));
    if ('inputBlob' in input) input = (await inputs.receive(chunked(new Uint8Array(600_000).fill(9)))).input;
    const before = await runs();
    const first = await service.create(request(jobId, input));
    expect(first.userVote).toBeNull();
    expect(await runs()).toBe(before + 1);
    await prisma.pool.query('INSERT INTO votes (result_id, owner_id, vote) VALUES ($1, $2, -1)', [first.id, ownerId]);
    const second = await service.create(request(jobId, input));
    expect(second).toEqual({ id: first.id, createdAt: first.createdAt, userVote: -1 });
    const stored = await prisma.pool.query('SELECT output::text AS output FROM model_results WHERE job_id = $1', [jobId]);
    expect(JSON.parse(stored.rows[0].output)).toEqual(output);
    expect(await rows(jobId)).toEqual([{ id: first.id }]);
    expect(await runs()).toBe(before + 1);
    const files = await prisma.pool.query('SELECT result_id FROM input_files WHERE job_id = $1', [jobId]);
    expect(files.rows).toEqual([{ result_id: first.id }]);
  });

  it('keeps a large input out of Postgres: its row names the object, the download reference reads back the bytes, delete removes the object', async () => {
    const big = new Uint8Array(3_000_000).map((_, i) => (i * 31) & 0xff);
    const received = await inputs.receive(chunked(big));
    expect(received).toMatchObject({ size: big.length, sha256: createHash('sha256').update(big).digest('hex') });
    if (!('inputBlob' in received.input)) throw new Error('expected a stored input');
    const key = received.input.inputBlob;
    const jobId = `job-${randomUUID()}`;
    const created = await service.create({ ...request(jobId, received.input), inputFileSize: big.length });
    // A crashed worker's retry (same job, same reference) still finds the input and stores nothing twice.
    expect(Buffer.from(await inputs.read(received.input)).equals(Buffer.from(big))).toBe(true);
    expect((await service.create({ ...request(jobId, received.input), inputFileSize: big.length })).id).toBe(created.id);
    const row = await prisma.pool.query('SELECT bytes IS NULL AS no_bytes, blob_key, sha256 FROM input_files WHERE job_id = $1', [jobId]);
    expect(row.rows).toEqual([{ no_bytes: true, blob_key: key, sha256: received.sha256 }]);
    const download = await service.download(ownerId, created.id);
    expect(download.input).toEqual({ inputBlob: key, size: big.length, sha256: received.sha256 });
    const store = await new Objm(nats.raw).open(inputsBucket(config.QDC_NAMESPACE));
    expect((await store.list()).map((i) => i.name)).toContain(key);
    await service.delete(ownerId, created.id);
    expect((await store.list()).map((i) => i.name)).not.toContain(key);
    expect(await inputs.open(key)).toBeNull();
  });

  it('sweeps stored inputs that no row names (their run failed), not the named ones', async () => {
    const orphan = await inputs.receive(chunked(new Uint8Array(700_000).fill(3)));
    const named = await inputs.receive(chunked(new Uint8Array(700_000).fill(4)));
    if (!('inputBlob' in orphan.input) || !('inputBlob' in named.input)) throw new Error('expected stored inputs');
    await service.create(request(`job-${randomUUID()}`, named.input));
    expect(await service.sweepUnreferencedInputs(-60_000)).toBeGreaterThanOrEqual(1);
    expect(await inputs.open(orphan.input.inputBlob)).toBeNull();
    expect(await inputs.open(named.input.inputBlob)).not.toBeNull();
  });
});

/** Bytes as an upload delivers them: in 64 KiB chunks. */
async function* chunked(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += 65536) yield bytes.subarray(i, i + 65536);
}
