import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { encodeNpy } from '#qdc/arrays';
import { generateCoulombPeakTrace, tuningSeeds } from '#qdc/device-physics';
import { multipart, startSystem, type TestSystem } from './system.harness.js';

/**
 * Kill -9 an inference worker while it holds a job: BullMQ's stalled-job recovery hands the job
 * to a new worker, the caller's request still succeeds, and exactly one result row exists.
 */
describe('inference worker crash', () => {
  let sut: TestSystem;
  let redis: Redis;

  beforeAll(async () => {
    sut = await startSystem({ workers: 1, env: { QDC_JOB_LOCK_MS: '3000' } });
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  });
  afterAll(async () => {
    await redis?.quit();
    await sut?.stop();
  });

  it('retries the job on another worker and stores its result once', async () => {
    const key = await sut.createKey('crash-lab', 'control');
    // A batch big enough that the worker holds it for a while (≈ 50 MB of float32 traces).
    const rows = 100_000;
    const trace = generateCoulombPeakTrace(tuningSeeds(1, 4242)[0]!, { length: 128, kind: 'peaks', snrRange: [30, 40] }).trace;
    const flat = new Float32Array(rows * 128);
    for (let r = 0; r < rows; r++) flat.set(trace, r * 128);
    const bytes = encodeNpy({ shape: [rows, 128], data: flat }, { dtype: 'f4' });

    const response = fetch(`${sut.baseUrl}/v0/models/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: multipart({ model: 'coulomb-blockade-peak-detector-v2' }, { name: 'crash.npy', bytes }),
    });

    const activeKey = `${sut.namespace}:bull:inference:active`;
    const deadline = Date.now() + 60_000;
    while ((await redis.llen(activeKey)) === 0) {
      if (Date.now() > deadline) throw new Error('the job never became active');
      await new Promise((r) => setTimeout(r, 10));
    }
    const [jobId] = await redis.lrange(activeKey, 0, 0);
    const victim = sut.processes.get('worker-0')!;
    victim.kill('SIGKILL');
    await new Promise((r) => victim.once('exit', r));
    expect(await sut.query('SELECT count(*)::int AS n FROM model_results')).toEqual([{ n: 0 }]);

    sut.startWorker('worker-replacement');
    const res = await response;
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.batch_size).toBe(rows);
    expect(body.output.outputs).toHaveLength(rows);
    expect(await sut.query('SELECT job_id FROM model_results')).toEqual([{ job_id: jobId }]);
    expect(await sut.query('SELECT runs FROM model_run_counters')).toEqual([{ runs: 1 }]);
    // The input streamed into the input store once, at the upload: the retry read it from there (the crashed attempt
    // read it too), and its one row names the object by key and SHA-256, linked to the one result.
    expect(
      await sut.query('SELECT job_id, size, bytes IS NULL AS out_of_postgres, sha256, result_id = (SELECT id FROM model_results) AS linked FROM input_files'),
    ).toEqual([{ job_id: jobId, size: bytes.length, out_of_postgres: true, sha256: createHash('sha256').update(bytes).digest('hex'), linked: true }]);
  });
});
