import { encodeNpy } from '#qdc/arrays';
import { generateCoulombPeakTrace, tuningSeeds } from '#qdc/device-physics';
import { SERVICE_PROCESSES } from '#qdc/platform';
import { multipart, startSystem, type TestSystem } from './system.harness.js';

const PEAK_V2 = 'coulomb-blockade-peak-detector-v2';
const RESULTS_ENTRY = SERVICE_PROCESSES.find((s) => s.name === 'results')!.entry;
/** The job's deadline in this system: short, so that a results outage can outlast it within the test. */
const INFERENCE_TIMEOUT_MS = 20_000;

/**
 * #18 defect 5: the results service restarts while runs arrive. The worker keeps trying to store the result until the
 * job's deadline: a short outage ends in 200, a longer one in 503 with Retry-After (FastAPI-style body), and the retry of
 * that request (same X-Request-Id) then stores the result once. Nothing is lost or stored twice.
 */
describe('results service restart during a run', () => {
  let sut: TestSystem;
  let auth: Record<string, string>;
  const bytes = encodeNpy({ shape: [128], data: generateCoulombPeakTrace(tuningSeeds(1, 515)[0]!, { length: 128, kind: 'peaks' }).trace });
  const run = (requestId: string) =>
    fetch(`${sut.baseUrl}/v0/models`, {
      method: 'POST',
      headers: { ...auth, 'x-request-id': requestId },
      body: multipart({ model: PEAK_V2 }, { name: 'restart.npy', bytes }),
    });
  const stopResults = async () => {
    const results = sut.processes.get('results')!;
    results.kill('SIGKILL');
    await new Promise((resolve) => results.once('exit', resolve));
  };
  const startResults = async () => {
    sut.launch('results', RESULTS_ENTRY);
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
      const ready = await fetch(`${sut.baseUrl}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`results did not come back; logs in ${sut.logDir}`);
  };
  const rows = async () =>
    sut.query<{ id: string; n: number }>(
      'SELECT id, (SELECT runs FROM model_run_counters WHERE model_id = $1)::int AS n FROM model_results ORDER BY created_at',
      [PEAK_V2],
    );

  beforeAll(async () => {
    // Keys stay cached in the gateway across the outage (auth needs results otherwise).
    // The worker's store retry runs to the job's deadline here (QDC_RESULTS_RETRY_MS, 8 s by default, cuts it shorter).
    sut = await startSystem({
      env: { QDC_INFERENCE_TIMEOUT_MS: String(INFERENCE_TIMEOUT_MS), QDC_RESULTS_RETRY_MS: String(INFERENCE_TIMEOUT_MS), QDC_AUTH_CACHE_MS: '600000' },
    });
    auth = { authorization: `Bearer ${await sut.createKey('restart-lab', 'control')}` };
    expect((await run('warm-up')).status).toBe(200);
  });
  afterAll(async () => {
    await sut?.stop();
  });

  it('a short outage: the worker stores the result once results is back and the run answers 200', async () => {
    const before = (await rows()).length;
    await stopResults();
    const answer = run('short-outage');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await startResults();
    const res = await answer;
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: string };
    const stored = await rows();
    expect(stored).toHaveLength(before + 1);
    expect(stored.at(-1)).toEqual({ id: body.id, n: before + 1 });
  });

  it('an outage past the deadline: 503 with Retry-After; the retry with the same X-Request-Id stores the run once', async () => {
    const before = (await rows()).length;
    await stopResults();
    const res = await run('long-outage');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(await res.json()).toEqual({ detail: 'Service Unavailable', error_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(await rows()).toHaveLength(before);

    await startResults();
    const retried = await run('long-outage');
    expect(retried.status).toBe(200);
    const body = (await retried.json()) as { id: string };
    // BullMQ may have retried the job in the background meanwhile: still one row, counted once.
    const again = await run('long-outage');
    expect(again.status).toBe(200);
    expect(((await again.json()) as { id: string }).id).toBe(body.id);
    const stored = await rows();
    expect(stored).toHaveLength(before + 1);
    expect(stored.at(-1)).toEqual({ id: body.id, n: before + 1 });
  });
});
