import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { encodeNpy } from '#qdc/arrays';
import { generateCoulombPeakTrace, tuningSeeds } from '#qdc/device-physics';
import { multipart, startSystem, type TestSystem } from './system.harness.js';

const PEAK_V2 = 'coulomb-blockade-peak-detector-v2';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** A Redis of the test's own, without persistence (as the defect was found): a restart loses every key. */
class EphemeralRedis {
  private process?: ChildProcess;
  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.process = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--logfile', join(tmpdir(), `qdc-redis-${this.port}.log`)],
      { stdio: 'ignore' },
    );
    const client = new Redis(this.url, { lazyConnect: true, retryStrategy: () => 50, maxRetriesPerRequest: null });
    await client.connect().catch(() => undefined);
    await client.ping();
    client.disconnect();
  }

  async stop(): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null) return;
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

/**
 * #18 defect 7, against a real Redis restarted without persistence (a second redis-server on a free port): a queued
 * job that Redis lost is added again by the gateway (which does not wait past the deadline for a job that no longer
 * exists), and a result stored but never answered is returned on the client's retry with the same X-Request-Id.
 */
describe('Redis restart without persistence', () => {
  let sut: TestSystem;
  let redis: EphemeralRedis;
  let auth: Record<string, string>;
  const bytes = encodeNpy({ shape: [128], data: generateCoulombPeakTrace(tuningSeeds(1, 717)[0]!, { length: 128, kind: 'peaks' }).trace });
  const run = (requestId: string, signal?: AbortSignal) =>
    fetch(`${sut.baseUrl}/v0/models`, {
      method: 'POST',
      headers: { ...auth, 'x-request-id': requestId },
      body: multipart({ model: PEAK_V2 }, { name: 'redis.npy', bytes }),
      signal,
    });
  const restartRedis = async () => {
    await redis.stop();
    await redis.start();
  };
  const stopWorker = async () => {
    const worker = sut.processes.get('worker-0')!;
    worker.kill('SIGKILL');
    await new Promise((resolve) => worker.once('exit', resolve));
  };
  const results = () => sut.query<{ id: string; job_id: string }>('SELECT id, job_id FROM model_results ORDER BY created_at');
  const runs = async () => (await sut.query<{ runs: number }>('SELECT runs FROM model_run_counters WHERE model_id = $1', [PEAK_V2]))[0]?.runs ?? 0;

  beforeAll(async () => {
    redis = new EphemeralRedis(await freePort());
    await redis.start();
    sut = await startSystem({ env: { REDIS_URL: redis.url } });
    auth = { authorization: `Bearer ${await sut.createKey('redis-lab', 'control')}` };
    expect((await run('warm-up')).status).toBe(200);
  });
  afterAll(async () => {
    await sut?.stop();
    await redis?.stop();
  });

  it('adds a queued job that Redis lost again, and the run answers 200 (stored once)', async () => {
    await stopWorker(); // nobody takes the job: it waits in the queue
    const before = await results();
    const answer = run('lost-in-queue');
    const client = new Redis(redis.url);
    const wait = `${sut.namespace}:bull:inference:wait`;
    for (const deadline = Date.now() + 60_000; (await client.llen(wait)) === 0; ) {
      if (Date.now() > deadline) throw new Error('the job never reached the queue');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    client.disconnect();
    await restartRedis();
    sut.startWorker('worker-after-restart');
    const res = await answer;
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: string };
    const after = await results();
    expect(after).toHaveLength(before.length + 1);
    expect(after.at(-1)!.id).toBe(body.id);
    expect(await sut.query('SELECT count(*)::int AS n FROM model_results WHERE job_id = $1', [after.at(-1)!.job_id])).toEqual([{ n: 1 }]);
  });

  it('returns a stored result the client never received on its retry with the same X-Request-Id, counted once', async () => {
    const before = await results();
    const runsBefore = await runs();
    const abort = new AbortController();
    const unanswered = run('never-answered', abort.signal).catch((error: Error) => error);
    for (const deadline = Date.now() + 60_000; (await results()).length === before.length; ) {
      if (Date.now() > deadline) throw new Error('the result was never stored');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    abort.abort(); // the client went away (or its answer was lost)
    await unanswered;
    const stored = (await results()).at(-1)!;
    await restartRedis(); // the finished job is gone with Redis' memory: only Postgres knows the run

    // Until the gateway has reconnected to Redis it answers 503 with Retry-After; a client honouring it gets the run.
    let retried = await run('never-answered');
    for (let attempt = 0; retried.status === 503 && attempt < 10; attempt++) {
      expect(retried.headers.get('retry-after')).toBe('2');
      await retried.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 2000));
      retried = await run('never-answered');
    }
    expect(retried.status).toBe(200);
    expect(((await retried.json()) as { id: string }).id).toBe(stored.id);
    expect(await results()).toHaveLength(before.length + 1);
    expect(await runs()).toBe(runsBefore + 1);
  });
});
