import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSystem, type TestSystem } from './system.harness.js';
import { BELL_QISKIT, jobEvents, qpuClient } from './qpu.fixtures.js';
import { startIonqContractServer, type IonqContractServer } from './ionq-contract.server.js';

/** The IonQ backend against a local server speaking IonQ's documented v0.3 jobs API (no live calls). */
describe('IonQ cloud backend (v0.3 contract server)', () => {
  let sut: TestSystem;
  let ionq: IonqContractServer;
  let api: ReturnType<typeof qpuClient>;
  let key: string;
  const submit = async (shots: number) => {
    const res = await api.post('/v0/coda/qpus', key, { code: BELL_QISKIT, source_framework: 'qiskit', backend: 'ionq-simulator', shots });
    expect(res.status).toBe(200);
    return res.body.job_id as string;
  };
  const remoteId = async (jobId: string) =>
    (await sut.query<{ backend_job_id: string }>('SELECT backend_job_id FROM qpu_jobs WHERE id = $1', [jobId]))[0]!.backend_job_id;

  beforeAll(async () => {
    ionq = await startIonqContractServer('test-ionq-key');
    const devices = mkdtempSync(join(tmpdir(), 'qdc-ionq-devices-'));
    writeFileSync(
      join(devices, 'ionq-simulator.json'),
      JSON.stringify({
        id: 'ionq-simulator',
        name: 'IonQ simulator',
        provider: 'ionq',
        ionq_target: 'simulator',
        num_qubits: 11,
        native_gates: ['gpi', 'gpi2', 'ms'],
        coupling_map: null,
        pricing: { per_task_cents: 10, per_shot_cents: 0.01 },
        max_shots: 10_000,
        shot_time_us: 0,
      }),
    );
    sut = await startSystem({
      env: {
        QDC_QPU_DEVICES_DIR: devices,
        QDC_IONQ_API_KEY: 'test-ionq-key',
        QDC_IONQ_BASE_URL: ionq.baseUrl,
        QDC_QPU_POLL_INITIAL_MS: '100',
        QDC_QPU_POLL_MAX_INTERVAL_MS: '400',
        QDC_QPU_POLL_MAX_AGE_MS: '5000',
      },
    });
    api = qpuClient(sut);
    key = await sut.createKey('cloud-lab', 'coda');
  });

  afterAll(async () => {
    await sut?.stop();
    await ionq?.close();
  });

  it('lists the IonQ device when its key is configured', async () => {
    const { body } = await api.get('/v0/coda/qpus', key);
    expect(body.devices).toEqual([
      expect.objectContaining({ id: 'ionq-simulator', provider: 'ionq', native_gates: ['gpi', 'gpi2', 'ms'], coupling_map: null, status: 'online' }),
    ]);
  });

  it('submits native gates with the apiKey header, polls to completion and turns probabilities into counts', async () => {
    const jobId = await submit(1000);
    const done = await api.waitFor(key, jobId, (s) => s === 'completed' || s === 'failed', 30_000);
    expect(done).toMatchObject({ status: 'completed', cost_cents: 20, counts: { '00': 500, '11': 500 } });
    expect(await jobEvents(sut, jobId)).toEqual(['∅→queued', 'queued→running', 'running→completed']);
    const create = ionq.requests.find((r) => r.method === 'POST' && r.body?.name === `qdc-${jobId}`)!;
    expect(create.authorization).toBe('apiKey test-ionq-key');
    expect(create.body).toMatchObject({
      target: 'simulator',
      shots: 1000,
      metadata: { qdc_job_id: jobId },
      input: { format: 'ionq.circuit.v0', gateset: 'native', qubits: 11 },
    });
    expect(create.body.input.circuit.every((g: { gate: string }) => ['gpi', 'gpi2', 'ms'].includes(g.gate))).toBe(true);
    expect(create.body.input.circuit.filter((g: { gate: string }) => g.gate === 'ms')).toHaveLength(1);
    const remote = await remoteId(jobId);
    expect(ionq.requests.filter((r) => r.method === 'GET' && r.path === `/v0.3/jobs/${remote}`).length).toBeGreaterThanOrEqual(3);
    expect(ionq.requests.some((r) => r.path === `/v0.3/jobs/${remote}/results`)).toBe(true);
  });

  it('records a job IonQ failed, with IonQ’s error', async () => {
    const jobId = await submit(13);
    const done = await api.waitFor(key, jobId, (s) => s === 'failed' || s === 'completed', 30_000);
    expect(done).toMatchObject({ status: 'failed', cost_cents: 0, error: 'IonQ: An error occurred! (internal_error)' });
  });

  it('cancels a running job at IonQ', async () => {
    const jobId = await submit(17);
    await api.waitFor(key, jobId, (s) => s === 'running', 30_000);
    const res = await api.post('/v0/coda/qpus/cancel', key, { job_id: jobId });
    expect(res.body).toMatchObject({ success: true, status: 'cancelled' });
    const remote = await remoteId(jobId);
    expect(ionq.requests.some((r) => r.method === 'PUT' && r.path === `/v0.3/jobs/${remote}/status/cancel`)).toBe(true);
  });

  it('fails a job without a final status after the maximum age (dead letter) and cancels it at IonQ', async () => {
    const jobId = await submit(17);
    const done = await api.waitFor(key, jobId, (s) => s === 'failed' || s === 'completed', 30_000);
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(/no final status after \d+ s \(limit 5 s\)/);
    const remote = await remoteId(jobId);
    expect(ionq.requests.some((r) => r.method === 'PUT' && r.path === `/v0.3/jobs/${remote}/status/cancel`)).toBe(true);
    expect((await jobEvents(sut, jobId)).at(-1)).toBe('running→failed');
  });
});
