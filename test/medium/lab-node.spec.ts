import type { ChildProcess } from 'node:child_process';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { startSystem, type TestSystem } from './system.harness.js';
import { BELL_QISKIT, jobEvents, qpuClient } from './qpu.fixtures.js';
import { killHard, startNode, waitForOutput, writeLabDevice } from './lab-node.fixtures.js';

/**
 * Lab nodes (SPEC §6) with real processes: `qdc node start --simulate` against the real broker, NATS/JetStream
 * and Postgres. Ack wait, max deliver and the offline window are shortened by configuration.
 */
describe('lab node (real node and broker processes, JetStream work queue)', () => {
  let sut: TestSystem;
  let api: ReturnType<typeof qpuClient>;
  let key: string;
  let nc: NatsConnection;
  const nodes: ChildProcess[] = [];
  const device = writeLabDevice({ id: 'lab-a-chip', lab: 'lab-a', shotTimeUs: 1000 });
  const node = (id: string) => {
    const child = startNode(sut, id, ['--device', device, '--simulate', '--node-id', id]);
    nodes.push(child);
    return child;
  };
  const deviceStatus = async () => {
    const { body } = await api.get('/v0/coda/qpus', key);
    return (body.devices as { id: string; status: string }[]).find((d) => d.id === 'lab-a-chip')?.status;
  };
  const waitForStatus = async (want: string, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    while ((await deviceStatus()) !== want) {
      if (Date.now() > deadline) throw new Error(`device still ${await deviceStatus()}, expected ${want}; logs in ${sut.logDir}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const submit = async (shots: number) => {
    const res = await api.post('/v0/coda/qpus', key, { code: BELL_QISKIT, source_framework: 'qiskit', backend: 'lab-a-chip', shots });
    expect(res.status).toBe(200);
    return res.body.job_id as string;
  };
  const spent = async () => (await sut.query<{ spent_cents: number }>('SELECT spent_cents FROM qpu_owner_budgets'))[0]?.spent_cents ?? 0;

  beforeAll(async () => {
    sut = await startSystem({ env: { QDC_LAB_OFFLINE_AFTER_MS: '3000', QDC_LAB_ACK_WAIT_MS: '2000', QDC_LAB_MAX_DELIVER: '3' } });
    api = qpuClient(sut);
    key = await sut.createKey('lab-user', 'coda');
    nc = await connect({ servers: sut.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
  }, 120_000);

  afterAll(async () => {
    for (const child of nodes) await killHard(child);
    await nc?.drain();
    await sut?.stop();
  });

  it('registers its device (online in GET /qpus) and runs a job submitted over HTTP, with exact counts and one charge', async () => {
    node('node-1');
    await waitForStatus('online');
    const { body } = await api.get('/v0/coda/qpus', key);
    expect(body.devices).toContainEqual(
      expect.objectContaining({ id: 'lab-a-chip', provider: 'lab', num_qubits: 2, native_gates: ['rz', 'sx', 'x', 'cz'], status: 'online' }),
    );
    const jobId = await submit(1000);
    const done = await api.waitFor(key, jobId, (s) => s === 'completed' || s === 'failed', 60_000);
    expect(done).toMatchObject({ status: 'completed', device: 'lab-a-chip', shots: 1000, cost_cents: 20 });
    // Noiseless Bell state: only 00 and 11, summing to the shots.
    expect(Object.keys(done.counts).sort()).toEqual(['00', '11']);
    expect(done.counts['00'] + done.counts['11']).toBe(1000);
    expect(done.counts['00']).toBeGreaterThan(400);
    expect(await jobEvents(sut, jobId)).toEqual(['∅→queued', 'queued→running', 'running→completed']);
    expect(await spent()).toBe(20);
  }, 90_000);

  it('redelivers the job of a node killed mid-job to a restarted node: exactly one result, one charge', async () => {
    const before = await spent();
    const jobId = await submit(3000); // 3 s on the node
    await api.waitFor(key, jobId, (s) => s === 'running', 30_000);
    await killHard(nodes[0]!);
    node('node-2');
    const done = await api.waitFor(key, jobId, (s) => s === 'completed' || s === 'failed', 60_000);
    expect(done).toMatchObject({ status: 'completed', cost_cents: 40 });
    expect(Object.values(done.counts as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(3000);
    expect(await jobEvents(sut, jobId)).toEqual(['∅→queued', 'queued→running', 'running→completed']);
    expect((await spent()) - before).toBe(40);
  }, 90_000);

  it('refuses at submission (422) a circuit a lab device cannot take: a gate after a measurement', async () => {
    const code = 'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[1];\ncreg c[1];\nmeasure q[0] -> c[0];\nx q[0];\n';
    const res = await api.post('/v0/coda/qpus', key, { code, backend: 'lab-a-chip', shots: 10 });
    expect([res.status, res.body.success, res.body.error]).toEqual([
      422,
      false,
      expect.stringMatching(/acts on a measured qubit; lab devices measure once, at the end/),
    ]);
  });

  it('rejects a report for the device from another lab or another node, and leaves the job alone', async () => {
    const [job] = await sut.query<{ id: string }>("SELECT id FROM qpu_jobs WHERE status = 'completed' LIMIT 1");
    const ask = async (lab: string, nodeId: string) => {
      const msg = await nc.request(
        `${sut.namespace}.lab.${lab}.report.v1`,
        JSON.stringify({ type: 'failed', node_id: nodeId, device_id: 'lab-a-chip', job_id: job!.id, delivery: 1, error: 'forged' }),
        { timeout: 5000 },
      );
      return msg.json<{ ok: boolean; error?: { code: string; message: string } }>();
    };
    expect(await ask('lab-b', 'node-2')).toEqual({
      ok: false,
      error: { code: 'forbidden', message: 'report rejected: device lab-a-chip belongs to lab lab-a' },
    });
    expect(await ask('lab-a', 'intruder')).toEqual({
      ok: false,
      error: { code: 'forbidden', message: 'report rejected: device lab-a-chip is served by node node-2' },
    });
    expect(await sut.query('SELECT status, error FROM qpu_jobs WHERE id = $1', [job!.id])).toEqual([{ status: 'completed', error: null }]);
  });

  it('marks the device offline after missed heartbeats; a job submitted meanwhile waits queued, then runs when a node returns', async () => {
    await killHard(nodes[1]!);
    await waitForStatus('offline', 15_000);
    const jobId = await submit(200);
    await new Promise((r) => setTimeout(r, 2500));
    expect((await api.post('/v0/coda/qpus/status', key, { job_id: jobId })).body).toMatchObject({ status: 'queued' });
    node('node-3');
    await waitForStatus('online');
    const done = await api.waitFor(key, jobId, (s) => s === 'completed' || s === 'failed', 60_000);
    expect(done).toMatchObject({ status: 'completed' });
    expect(Object.values(done.counts as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(200);
  }, 90_000);

  it('keeps a job across a broker restart mid-job: the node holds its result until the new broker stores it once', async () => {
    const before = await spent();
    const jobId = await submit(3000);
    await api.waitFor(key, jobId, (s) => s === 'running', 30_000);
    const broker = sut.processes.get('qpu-broker')!;
    await killHard(broker);
    await new Promise((r) => setTimeout(r, 4000)); // the node finishes meanwhile and retries its report
    expect(await sut.query('SELECT status FROM qpu_jobs WHERE id = $1', [jobId])).toEqual([{ status: 'running' }]);
    sut.launch('qpu-broker', 'dist/apps/qpu-broker/src/main.js');
    const done = await api.waitFor(key, jobId, (s) => s === 'completed' || s === 'failed', 60_000);
    expect(done).toMatchObject({ status: 'completed', cost_cents: 40 });
    expect(await jobEvents(sut, jobId)).toEqual(['∅→queued', 'queued→running', 'running→completed']);
    expect((await spent()) - before).toBe(40);
    await waitForStatus('online');
  }, 90_000);

  it('fails a job with a clear error after max_deliver deliveries that never finished, charging nothing', async () => {
    const before = await spent();
    const jobId = await submit(10_000); // 10 s on the node (the most shots a job may ask): each delivery is killed before it finishes
    for (let delivery = 1; delivery <= 3; delivery++) {
      // Each delivery reaches the current node (it says so), which is then killed mid-job.
      await waitForOutput(nodes.at(-1)!, new RegExp(`job ${jobId}: running .*delivery ${delivery}\\)`));
      await killHard(nodes.at(-1)!);
      node(`node-max-${delivery}`);
    }
    const done = await api.waitFor(key, jobId, (s) => s === 'completed' || s === 'failed', 60_000);
    expect(done.status).toBe('failed');
    expect(done.error).toBe('the lab node did not finish the job in 3 deliveries (each without progress for 2 s: the node crashed or lost its connection)');
    expect(done.cost_cents).toBe(0);
    expect(await spent()).toBe(before);
  }, 120_000);
});
