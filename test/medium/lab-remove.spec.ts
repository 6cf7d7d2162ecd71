import type { ChildProcess } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { startSystem, type TestSystem } from './system.harness.js';
import { BELL_QISKIT, qpuClient } from './qpu.fixtures.js';
import { killHard, startNode, writeLabDevice } from './lab-node.fixtures.js';

/**
 * `qdc lab remove --owner L` removes the lab's devices consistently: its lab_devices rows are deleted, the devices leave
 * the broker's device list (`GET /qpus`, every replica) and a job still queued for one of them is failed at once with
 * a clear error and no charge. Another lab's devices stay.
 */
describe('qdc lab remove and the lab’s devices', () => {
  let sut: TestSystem;
  const nodes: ChildProcess[] = [];

  beforeAll(async () => {
    sut = await startSystem({ env: { QDC_LAB_OFFLINE_AFTER_MS: '2000' } });
  }, 120_000);

  afterAll(async () => {
    for (const node of nodes) await killHard(node);
    await sut?.stop();
  });

  it('deletes the lab’s lab_devices rows, drops its devices from GET /qpus and fails their queued jobs; other labs keep theirs', async () => {
    const api = qpuClient(sut);
    const key = await sut.createKey('lab-user', 'coda');
    const devices = async () => (await api.get('/v0/coda/qpus', key)).body.devices as { id: string; status: string }[];
    const statusOf = async (id: string) => (await devices()).find((d) => d.id === id)?.status;
    const waitFor = async (id: string, want: string) => {
      const deadline = Date.now() + 60_000;
      while ((await statusOf(id)) !== want) {
        if (Date.now() > deadline) throw new Error(`device ${id} not ${want}; logs in ${sut.logDir}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const gone = startNode(sut, 'rm-node', ['--device', writeLabDevice({ id: 'lab-rm-1', lab: 'lab-rm', shotTimeUs: 100 }), '--simulate', '--node-id', 'rm-1']);
    nodes.push(gone);
    nodes.push(
      startNode(sut, 'keep-node', ['--device', writeLabDevice({ id: 'lab-keep-1', lab: 'lab-keep', shotTimeUs: 100 }), '--simulate', '--node-id', 'keep-1']),
    );
    await waitFor('lab-rm-1', 'online');
    await waitFor('lab-keep-1', 'online');
    // A job queued for the lab's device while its node is down.
    await killHard(gone);
    await waitFor('lab-rm-1', 'offline');
    const submitted = await api.post('/v0/coda/qpus', key, { code: BELL_QISKIT, source_framework: 'qiskit', backend: 'lab-rm-1', shots: 100 });
    expect(submitted.status).toBe(200);
    const jobId = submitted.body.job_id as string;
    expect((await api.post('/v0/coda/qpus/status', key, { job_id: jobId })).body).toMatchObject({ status: 'queued' });
    const rows = async (lab: string) => (await sut.query<{ id: string }>('SELECT id FROM lab_devices WHERE lab = $1 ORDER BY id', [lab])).map((r) => r.id);
    expect(await rows('lab-rm')).toEqual(['lab-rm-1']);

    const removed = spawnSync(
      process.execPath,
      [resolve('dist/apps/cli/src/main.js'), 'lab', 'remove', '--owner', 'lab-rm', '--dir', resolve(sut.logDir, 'nats-auth-rm')],
      {
        env: sut.env,
        encoding: 'utf8',
      },
    );
    expect(removed.stderr).toBe('');
    expect(removed.status).toBe(0);
    expect(removed.stdout).toContain('lab lab-rm: removed device(s) lab-rm-1 (1 queued job(s) failed), job stream');

    expect(await rows('lab-rm')).toEqual([]);
    expect(await rows('lab-keep')).toEqual(['lab-keep-1']);
    const listed = (await devices()).map((d) => d.id);
    expect(listed).not.toContain('lab-rm-1');
    expect(listed).toContain('lab-keep-1');
    expect((await api.post('/v0/coda/qpus/status', key, { job_id: jobId })).body).toMatchObject({
      status: 'failed',
      cost_cents: 0,
      error: 'device lab-rm-1 is not configured on this broker any more',
    });
    // A job for the removed device is now refused like any unknown device.
    const refused = await api.post('/v0/coda/qpus', key, { code: BELL_QISKIT, source_framework: 'qiskit', backend: 'lab-rm-1', shots: 100 });
    expect(refused.status).toBe(404);
    expect(JSON.stringify(refused.body)).toContain("unknown backend 'lab-rm-1'");
    // Removing it again finds nothing to remove.
    const again = spawnSync(
      process.execPath,
      [resolve('dist/apps/cli/src/main.js'), 'lab', 'remove', '--owner', 'lab-rm', '--dir', resolve(sut.logDir, 'nats-auth-rm')],
      { env: sut.env, encoding: 'utf8' },
    );
    expect(again.status).toBe(0);
    expect(again.stdout).not.toContain('device(s)');
  }, 180_000);
});
