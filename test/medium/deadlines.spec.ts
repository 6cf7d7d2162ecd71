import { BELL_QISKIT, qpuClient, writeTestDevices } from './qpu.fixtures.js';
import { startSystem, type TestSystem } from './system.harness.js';

/**
 * Deadlines across the process boundary (issue 28 item 5): a QPU submission whose caller gave up — the gateway
 * answered 504 because the broker was stalled — is not created when the broker resumes, so the official client's
 * retry of the POST (it retries on 5xx, without an Idempotency-Key) makes one job and one charge, not two.
 */
describe('a stalled broker resumes past its caller’s deadline', () => {
  let sut: TestSystem;
  let api: ReturnType<typeof qpuClient>;
  let key: string;
  const jobsOfOwner = async () =>
    (await sut.query<{ n: number }>("SELECT count(*)::int AS n FROM qpu_jobs j JOIN owners o ON o.id = j.owner_id WHERE o.name = 'stalled-lab'"))[0]!.n;

  beforeAll(async () => {
    const devices = writeTestDevices([{ id: 'fast-3', shotTimeUs: 10 }]);
    sut = await startSystem({ env: { QDC_QPU_DEVICES_DIR: devices, QDC_NATS_TIMEOUT_MS: '4000' } });
    api = qpuClient(sut);
    key = await sut.createKey('stalled-lab', 'coda');
  }, 120_000);
  afterAll(async () => sut?.stop());

  it('answers 504 while the broker is stopped, creates nothing when it resumes, and the retry makes exactly one job', async () => {
    const broker = sut.processes.get('qpu-broker')!;
    broker.kill('SIGSTOP');
    let timedOut: Awaited<ReturnType<typeof api.post>>;
    try {
      timedOut = await api.post('/v0/coda/qpus', key, { code: BELL_QISKIT, backend: 'fast-3', shots: 100 });
    } finally {
      broker.kill('SIGCONT');
    }
    expect([timedOut.status, timedOut.body.success, timedOut.body.error]).toEqual([504, false, 'Gateway Timeout']);
    // The resumed broker reads the submission now, past its deadline: it must not become a job.
    await new Promise((r) => setTimeout(r, 3_000));
    expect(await jobsOfOwner()).toBe(0);

    const retried = await api.post('/v0/coda/qpus', key, { code: BELL_QISKIT, backend: 'fast-3', shots: 100 });
    expect([retried.status, retried.body.status]).toEqual([200, 'submitted']);
    expect(await jobsOfOwner()).toBe(1);
  });
});
