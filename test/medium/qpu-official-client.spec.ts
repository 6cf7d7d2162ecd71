import { startSystem, type TestSystem } from './system.harness.js';
import { BELL_QISKIT, qpuClient } from './qpu.fixtures.js';

/**
 * What the official conductorquantum client's QPU tests expect (TestCodaQPU, TestCodaQPUsList,
 * TestCodaQPUsEstimateCost, TestCodaQPUsStatus, TestLegacyShortcutParity.test_qpu_devices_parity),
 * on the paths it calls, against the devices shipped in devices/ (the default QDC_QPU_DEVICES_DIR),
 * plus a Bell job on each shipped device with its noise.
 */
describe('official client QPU expectations (shipped devices)', () => {
  let sut: TestSystem;
  let api: ReturnType<typeof qpuClient>;
  let key: string;

  beforeAll(async () => {
    sut = await startSystem({ env: { QDC_QPU_TIME_SCALE: '0.1' } });
    api = qpuClient(sut);
    key = await sut.createKey('client-lab', 'coda');
  });
  afterAll(async () => sut?.stop());

  it('test_qpu_devices / test_qpus_list / test_qpu_devices_parity', async () => {
    const legacy = await api.get('/v0/qpu/devices', key);
    const canonical = await api.get('/v0/coda/qpus', key);
    for (const r of [legacy, canonical]) expect([r.status, r.body.success, r.body.devices.length > 0]).toEqual([200, true, true]);
    const ids = (r: typeof legacy) => new Set(r.body.devices.map((d: { id?: string; name: string }) => d.id ?? d.name));
    expect(ids(legacy)).toEqual(ids(canonical));
    expect([...ids(canonical)].sort()).toEqual(['qdc-sim-heavyhex-16', 'qdc-sim-ion-11', 'qdc-sim-line-5']);
    for (const d of canonical.body.devices)
      expect(d.noise).toEqual(expect.objectContaining({ t1_us: expect.any(Number), two_qubit_error: expect.any(Number), readout_error: expect.any(Number) }));
  });

  it('test_qpu_estimate_cost on devices[0] (legacy and canonical)', async () => {
    const backend = (await api.get('/v0/qpu/devices', key)).body.devices[0].id;
    for (const path of ['/v0/qpu/estimate-cost', '/v0/coda/qpus/estimate-cost']) {
      const r = await api.post(path, key, { code: BELL_QISKIT, source_framework: 'qiskit', backend, shots: 100 });
      expect(r.status).toBe(200);
      expect(r.body.success).toBe(true);
      expect(typeof r.body.estimated_cost_cents).toBe('number');
      expect(r.body.estimated_cost_cents).toBeGreaterThanOrEqual(0);
    }
  });

  it('documents the QPU routes in the OpenAPI document', async () => {
    const doc = await (await fetch(`${sut.baseUrl}/v0/openapi.json`)).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/v0/coda/qpus',
        '/v0/coda/qpu/devices',
        '/v0/coda/qpus/status',
        '/v0/qpu/submit',
        '/v0/coda/qpus/cancel',
        '/v0/coda/qpus/jobs',
        '/v0/admin/budgets/{owner}',
      ]),
    );
  });

  it('test_qpu_status_unknown_job: a 4xx with success false', async () => {
    for (const path of ['/v0/qpu/status', '/v0/coda/qpus/status']) {
      const r = await api.post(path, key, { job_id: 'nonexistent-job-id' });
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.body.success).toBe(false);
    }
  });

  it('runs a Bell job on every shipped device: compiled to its native gates, counts from its noise model', async () => {
    const devices = (await api.get('/v0/coda/qpus', key)).body.devices as { id: string }[];
    const jobs = await Promise.all(
      devices.map(
        async (d) =>
          (await api.post('/v0/qpu/submit', key, { code: BELL_QISKIT, source_framework: 'qiskit', backend: d.id, shots: 2000, accept_overage: false })).body,
      ),
    );
    for (const [i, job] of jobs.entries()) {
      // As the vendor's API reference shows the submit answer (a client written from it reads these fields).
      expect(job).toEqual(
        expect.objectContaining({
          success: true,
          job_id: expect.any(String),
          status: 'submitted',
          backend: devices[i]!.id,
          shots: 2000,
          estimated_cost_cents: expect.any(Number),
          credits_applied: job.estimated_cost_cents,
          overage_cents: 0,
        }),
      );
      const done = await api.waitFor(key, job.job_id, (s) => s === 'completed' || s === 'failed', 120_000);
      expect([devices[i]!.id, done.status]).toEqual([devices[i]!.id, 'completed']);
      // The vendor's `results`; `counts` is QDC's deprecated alias of the same measurement.
      const counts = done.results as Record<string, number>;
      expect(done.counts).toEqual(counts);
      expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(2000);
      const correlated = ((counts['00'] ?? 0) + (counts['11'] ?? 0)) / 2000;
      // Noisy but a good device: mostly correlated, not perfectly (readout errors alone are ~1–3 % per qubit).
      expect([devices[i]!.id, correlated > 0.9, correlated < 1]).toEqual([devices[i]!.id, true, true]);
      expect(done.compiled.two_qubit_gate_count).toBeGreaterThanOrEqual(1);
    }
  });
});
