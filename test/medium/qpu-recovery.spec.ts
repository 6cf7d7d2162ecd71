import type { ChildProcess } from 'node:child_process';
import { Queue } from 'bullmq';
import { startSystem, type TestSystem } from './system.harness.js';
import { BELL_QISKIT, jobEvents, qpuClient, writeTestDevices } from './qpu.fixtures.js';

/**
 * Crash and restart guarantees of QPU jobs: a simulation worker killed mid-job is retried and the job
 * gets one result; a broker killed with jobs queued and running loses none and runs none twice (jobs
 * live in Postgres; BullMQ job ids are the QPU job ids).
 */
describe('QPU job recovery (real processes killed with SIGKILL)', () => {
  let sut: TestSystem;
  let api: ReturnType<typeof qpuClient>;
  let key: string;
  let queue: Queue;

  const kill = async (name: string) => {
    const victim = sut.processes.get(name) as ChildProcess;
    victim.kill('SIGKILL');
    await new Promise((r) => victim.once('exit', r));
  };
  const submit = async (shots: number) => {
    const res = await api.post('/v0/coda/qpus', key, { code: BELL_QISKIT, source_framework: 'qiskit', backend: 'slow-2', shots });
    expect(res.status).toBe(200);
    return res.body.job_id as string;
  };
  const expectOneResult = async (jobId: string, shots: number) => {
    const status = await api.waitFor(key, jobId, (s) => s === 'completed' || s === 'failed', 90_000);
    expect(status.status).toBe('completed');
    expect(Object.values(status.counts as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(shots);
    expect(await jobEvents(sut, jobId)).toEqual(['∅→queued', 'queued→running', 'running→completed']);
  };

  beforeAll(async () => {
    const devices = writeTestDevices([{ id: 'slow-2', shotTimeUs: 1000, qubits: 2 }]);
    sut = await startSystem({ env: { QDC_QPU_DEVICES_DIR: devices, QDC_QPU_TIME_SCALE: '1', QDC_JOB_LOCK_MS: '3000' } });
    api = qpuClient(sut);
    key = await sut.createKey('crash-lab', 'coda');
    queue = new Queue('qpu-slow-2', { connection: { url: sut.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }, prefix: `${sut.namespace}:bull` });
  });

  afterAll(async () => {
    await queue?.close();
    await sut?.stop();
  });

  it('retries a job whose simulation worker died mid-job, and stores one result', async () => {
    const jobId = await submit(2500); // 2.5 s of device time
    await api.waitFor(key, jobId, (s) => s === 'running');
    await kill('simulation-worker');
    sut.launch('simulation-worker-2', 'dist/apps/qpu-broker/src/simulation-worker.js');
    await expectOneResult(jobId, 2500);
    const job = await queue.getJob(`qpu-${jobId}`);
    expect(job?.attemptsStarted).toBe(2); // the stalled execution and its retry
    expect(await sut.query('SELECT cost_cents FROM qpu_jobs WHERE id = $1', [jobId])).toEqual([{ cost_cents: 280 }]);
  });

  it('recovers every job after a broker restart: queued ones wait, the running one reports, a lost hand-over is redone', async () => {
    const jobs = [await submit(1500), await submit(300), await submit(300)];
    await api.waitFor(key, jobs[0]!, (s) => s === 'running');
    await kill('qpu-broker');
    // While the broker is down: the third job's queue entry is lost (as if the broker had died between
    // persisting it and handing it over); the running execution finishes and waits to report.
    expect(await queue.remove(`qpu-${jobs[2]}`)).toBe(1);
    await new Promise((r) => setTimeout(r, 2000));
    expect(await sut.query('SELECT status FROM qpu_jobs WHERE id = $1', [jobs[0]])).toEqual([{ status: 'running' }]);
    sut.launch('qpu-broker-2', 'dist/apps/qpu-broker/src/main.js');
    for (const [i, jobId] of jobs.entries()) await expectOneResult(jobId, [1500, 300, 300][i]!);
    for (const jobId of jobs) expect((await queue.getJob(`qpu-${jobId}`))?.attemptsStarted).toBe(1);
    expect(await sut.query("SELECT count(*)::int AS n FROM qpu_jobs WHERE status <> 'completed'")).toEqual([{ n: 0 }]);
  });
});
