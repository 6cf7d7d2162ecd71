import type { ChildProcess } from 'node:child_process';
import { startSystem, type TestSystem } from './system.harness.js';
import { BELL_QISKIT, qpuClient } from './qpu.fixtures.js';
import { killHard, startNode, writeLabDevice } from './lab-node.fixtures.js';

/**
 * Device liveness shared by broker replicas: a node heartbeats rarely here (every 100 s), so a broker replica
 * started after the node registered has not seen one of its heartbeats; it must still list the device `online`
 * (from the liveness bucket the other replica wrote), and keep serving it once the first replica is gone.
 */
describe('lab device liveness across two broker replicas', () => {
  let sut: TestSystem;
  let node: ChildProcess;

  beforeAll(async () => {
    sut = await startSystem({ env: { QDC_LAB_OFFLINE_AFTER_MS: '300000' } });
  }, 120_000);

  afterAll(async () => {
    if (node) await killHard(node);
    await sut?.stop();
  });

  it('a second replica started after the last heartbeat lists the device online', async () => {
    const api = qpuClient(sut);
    const key = await sut.createKey('lab-user', 'coda');
    const status = async () =>
      ((await api.get('/v0/coda/qpus', key)).body.devices as { id: string; status: string }[]).find((d) => d.id === 'lab-live')?.status;
    node = startNode(sut, 'live-node', ['--device', writeLabDevice({ id: 'lab-live', lab: 'lab-a', shotTimeUs: 100 }), '--simulate', '--node-id', 'live-1']);
    const deadline = Date.now() + 60_000;
    while ((await status()) !== 'online') {
      if (Date.now() > deadline) throw new Error(`device never online; logs in ${sut.logDir}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const second = sut.launch('qpu-broker-2', 'dist/apps/qpu-broker/src/main.js');
    await new Promise<void>((resolveReady, reject) => {
      let seen = '';
      const timer = setTimeout(() => reject(new Error(`second broker not ready; logs in ${sut.logDir}`)), 60_000);
      second.stdout?.on('data', (d) => {
        seen += String(d);
        if (/qpu-broker ready/.test(seen)) {
          clearTimeout(timer);
          resolveReady();
        }
      });
    });
    const first = sut.processes.get('qpu-broker')!;
    const exited = new Promise((r) => first.once('exit', r));
    first.kill('SIGTERM');
    await exited;
    // Only the second replica answers now; the node's next heartbeat is ~100 s away.
    expect(await status()).toBe('online');
  }, 180_000);
});

/** SPEC §6: a job queued for an offline lab device waits until the device returns or until QDC_QPU_QUEUE_TIMEOUT. */
describe('queue timeout of a job whose lab device stays offline', () => {
  let sut: TestSystem;
  let node: ChildProcess | undefined;

  beforeAll(async () => {
    sut = await startSystem({ env: { QDC_LAB_OFFLINE_AFTER_MS: '2000', QDC_QPU_QUEUE_TIMEOUT: '4000', QDC_QPU_SWEEP_INTERVAL_MS: '1000' } });
  }, 120_000);

  afterAll(async () => {
    if (node) await killHard(node);
    await sut?.stop();
  });

  it('fails the job with a clear error and no charge once it waited longer than the timeout', async () => {
    const api = qpuClient(sut);
    const key = await sut.createKey('lab-user', 'coda');
    const status = async () =>
      ((await api.get('/v0/coda/qpus', key)).body.devices as { id: string; status: string }[]).find((d) => d.id === 'lab-gone')?.status;
    node = startNode(sut, 'gone-node', ['--device', writeLabDevice({ id: 'lab-gone', lab: 'lab-a', shotTimeUs: 100 }), '--simulate', '--node-id', 'gone-1']);
    const waitFor = async (want: string) => {
      const deadline = Date.now() + 60_000;
      while ((await status()) !== want) {
        if (Date.now() > deadline) throw new Error(`device not ${want}; logs in ${sut.logDir}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    await waitFor('online');
    await killHard(node);
    await waitFor('offline');
    const submitted = await api.post('/v0/coda/qpus', key, { code: BELL_QISKIT, source_framework: 'qiskit', backend: 'lab-gone', shots: 100 });
    expect(submitted.status).toBe(200);
    const jobId = submitted.body.job_id as string;
    expect((await api.post('/v0/coda/qpus/status', key, { job_id: jobId })).body).toMatchObject({ status: 'queued' });
    const done = await api.waitFor(key, jobId, (s) => s !== 'queued', 60_000);
    expect(done).toMatchObject({
      status: 'failed',
      cost_cents: 0,
      error: expect.stringMatching(/^device lab-gone is offline; the job waited \d+ s in its queue, more than QDC_QPU_QUEUE_TIMEOUT \(4000 ms\)$/),
    });
  }, 120_000);
});
