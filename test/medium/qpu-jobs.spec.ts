import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { startSystem, type TestSystem } from './system.harness.js';
import { BELL_QISKIT, jobEvents, qpuClient, watchStatusEvents, writeTestDevices } from './qpu.fixtures.js';
import { WEBHOOK_TEST_ENV, webhookCases } from './webhooks.cases.js';

/**
 * QPU routes end to end: gateway → NATS → qpu-broker (Postgres) → BullMQ → simulation worker → broker.
 * Devices are noiseless test devices: `fast-3` (10 µs/shot) and `slow-3` (1 ms/shot: 2000 shots hold it 2 s; at most
 * 5000 shots). Answers are the vendor's documented shapes (SPEC §4): submit says `submitted` with the charge split,
 * status carries the measurement as `results` (and `counts`, its deprecated alias).
 */
describe('QPU devices and jobs (real gateway, broker, simulation worker, Postgres, Redis, NATS)', () => {
  let sut: TestSystem;
  let api: ReturnType<typeof qpuClient>;
  let labA: string;
  let labB: string;
  let controlOnly: string;
  let admin: string;
  let watch: Awaited<ReturnType<typeof watchStatusEvents>>;

  const cli = (...args: string[]) => spawnSync(process.execPath, [resolve('dist/apps/cli/src/main.js'), ...args], { env: sut.env, encoding: 'utf8' });
  const submit = (token: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
    api.post('/v0/coda/qpus', token, { code: BELL_QISKIT, source_framework: 'qiskit', backend: 'fast-3', shots: 100, ...body }, headers);

  beforeAll(async () => {
    const devices = writeTestDevices([
      { id: 'fast-3', shotTimeUs: 10 },
      { id: 'slow-3', shotTimeUs: 1000, maxShots: 5000 },
    ]);
    sut = await startSystem({ env: { QDC_QPU_DEVICES_DIR: devices, QDC_QPU_TIME_SCALE: '1', ...WEBHOOK_TEST_ENV } });
    api = qpuClient(sut);
    [labA, labB, controlOnly, admin] = await Promise.all([
      sut.createKey('lab-a', 'coda'),
      sut.createKey('lab-b', 'coda'),
      sut.createKey('control-lab', 'control'),
      sut.createKey('root', 'admin'),
    ]);
    watch = await watchStatusEvents(sut);
  });

  afterAll(async () => {
    await watch?.close();
    await sut?.stop();
  });

  it('lists the devices on the canonical and legacy paths (same ids), with SPEC §6 fields', async () => {
    const canonical = await api.get('/v0/coda/qpus', labA);
    expect(canonical.status).toBe(200);
    expect(canonical.body.success).toBe(true);
    const ids = canonical.body.devices.map((d: { id: string }) => d.id).sort();
    expect(ids).toEqual(['fast-3', 'slow-3']);
    expect(canonical.body.devices.find((d: { id: string }) => d.id === 'fast-3')).toEqual({
      id: 'fast-3',
      name: 'Test device fast-3',
      provider: 'qdc-sim',
      num_qubits: 3,
      native_gates: ['rz', 'sx', 'x', 'cz'],
      coupling_map: [
        [0, 1],
        [1, 2],
      ],
      status: 'online',
      queue_depth: 0,
      pricing: { per_task_cents: 30, per_shot_cents: 0.1 },
      max_shots: 100_000,
      shot_time_us: 10,
      noise: expect.objectContaining({ t1_us: null, two_qubit_error: 0, readout_error: 0, gate_times_us: { single: 0.035, two: 0.3, measure: 1 } }),
    });
    for (const path of ['/v0/coda/qpu/devices', '/v0/qpus', '/v0/qpu/devices']) {
      const legacy = await api.get(path, labA);
      expect([path, legacy.status, legacy.body.success]).toEqual([path, 200, true]);
      expect(legacy.body.devices.map((d: { id: string }) => d.id).sort()).toEqual(ids);
    }
  });

  it('estimates per_task_cents + shots × per_shot_cents on both paths', async () => {
    for (const path of ['/v0/coda/qpus/estimate-cost', '/v0/coda/qpu/estimate-cost', '/v0/qpu/estimate-cost']) {
      const res = await api.post(path, labA, { code: BELL_QISKIT, source_framework: 'qiskit', backend: 'fast-3', shots: 100 });
      expect([path, res.status]).toEqual([path, 200]);
      expect(res.body).toMatchObject({ success: true, estimated_cost_cents: 40, device: 'fast-3', shots: 100, budget_cents: null, remaining_cents: null });
      expect(res.body.compiled.two_qubit_gate_count).toBeGreaterThanOrEqual(1);
    }
    // 0.1 × 33 = 3.3 → 33.3 → charged in whole cents, rounded up.
    expect((await api.post('/v0/coda/qpus/estimate-cost', labA, { code: BELL_QISKIT, backend: 'fast-3', shots: 33 })).body.estimated_cost_cents).toBe(34);
  });

  it('runs a Bell job to completion: persisted, every transition an event (table and NATS), cost recorded once', async () => {
    const res = await api.post('/v0/coda/qpu/submit', labA, {
      code: BELL_QISKIT,
      source_framework: 'qiskit',
      backend: 'fast-3',
      shots: 200,
      accept_overage: false,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      job_id: expect.any(String),
      status: 'submitted',
      backend: 'fast-3',
      shots: 200,
      estimated_cost_cents: 50,
      credits_applied: 50,
      overage_cents: 0,
      idempotent_replay: false,
    });
    const jobId: string = res.body.job_id;
    const done = await api.waitFor(labA, jobId, (s) => s === 'completed');
    expect(done).toMatchObject({
      success: true,
      job_id: jobId,
      status: 'completed',
      device: 'fast-3',
      shots: 200,
      cost_cents: 50,
      estimated_cost_cents: 50,
      source_framework: 'qiskit',
    });
    expect(
      Object.keys(done.results)
        .sort()
        .every((k: string) => k === '00' || k === '11'),
    ).toBe(true);
    expect(Object.values(done.results as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(200);
    expect(done.counts).toEqual(done.results);
    for (const field of ['submitted_at', 'started_at', 'completed_at']) expect(Number.isNaN(Date.parse(done[field]))).toBe(false);
    expect(Object.keys(done.compiled).sort()).toEqual(['depth', 'native_gate_count', 'swap_count', 'two_qubit_gate_count']);
    expect(await jobEvents(sut, jobId)).toEqual(['∅→queued', 'queued→running', 'running→completed']);
    const legacy = await api.post('/v0/coda/qpu/status', labA, { job_id: jobId });
    expect(legacy.body.results).toEqual(done.results);
    const deadline = Date.now() + 5000;
    while (watch.events.filter((e) => e.jobId === jobId).length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(watch.events.filter((e) => e.jobId === jobId).map((e) => `${e.from ?? '∅'}→${e.to}`)).toEqual(['∅→queued', 'queued→running', 'running→completed']);
    expect(await sut.query('SELECT spent_cents FROM qpu_owner_budgets WHERE owner_id = (SELECT id FROM owners WHERE name = $1)', ['lab-a'])).toEqual([
      { spent_cents: 50 },
    ]);
  });

  it('answers 401 without a key, 403 without the coda scope, in the coda shape', async () => {
    for (const [method, path] of [
      ['GET', '/v0/coda/qpus'],
      ['POST', '/v0/coda/qpus'],
      ['POST', '/v0/coda/qpus/status'],
      ['POST', '/v0/coda/qpus/estimate-cost'],
      ['POST', '/v0/coda/qpus/cancel'],
      ['GET', '/v0/coda/qpus/jobs'],
      ['POST', '/v0/qpu/submit'],
    ]) {
      const none = method === 'GET' ? await api.get(path, null) : await api.post(path, null, { job_id: 'x' });
      expect([path, none.status, none.body.success]).toEqual([path, 401, false]);
      const forbidden = method === 'GET' ? await api.get(path, controlOnly) : await api.post(path, controlOnly, { job_id: 'x' });
      expect([path, forbidden.status, forbidden.body.success]).toEqual([path, 403, false]);
    }
  });

  it('compiles the circuit the entry_point function returns on estimate and submit; an unknown entry_point is 422', async () => {
    const functions =
      'from qiskit import QuantumCircuit\ndef flip(n=3):\n    qc = QuantumCircuit(n, n)\n    qc.x(2)\n    qc.measure(range(n), range(n))\n    return qc\ndef bell():\n    qc = QuantumCircuit(2, 2)\n    qc.h(0)\n    qc.cx(0, 1)\n    qc.measure([0, 1], [0, 1])\n    return qc\n';
    const estimate = await api.post('/v0/coda/qpus/estimate-cost', labA, { code: functions, backend: 'fast-3', shots: 10, entry_point: 'flip' });
    expect(estimate.status).toBe(200);
    expect(estimate.body.compiled.two_qubit_gate_count).toBe(0);
    const res = await submit(labA, { code: functions, entry_point: 'flip', shots: 20 });
    expect(res.status).toBe(200);
    let status: { status: string; counts?: Record<string, number> } = { status: 'queued' };
    for (
      const deadline = Date.now() + 30_000;
      !['completed', 'failed'].includes(status.status) && Date.now() < deadline;
      await new Promise((r) => setTimeout(r, 100))
    ) {
      status = (await api.post('/v0/coda/qpus/status', labA, { job_id: res.body.job_id })).body;
    }
    expect(status).toMatchObject({ status: 'completed', counts: { '100': 20 } });
    const ambiguous = await submit(labA, { code: functions });
    expect(ambiguous.status).toBe(422);
    expect(ambiguous.body.error).toMatch(/several functions return one: flip\(\), bell\(\)/);
    const unknown = await submit(labA, { code: functions, entry_point: 'grover' });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({
      success: false,
      error: "entry_point 'grover' is not a function defined at module level; functions found: flip(), bell()",
    });
  });

  it('answers 422 for bad bodies and circuits, 404 for unknown devices and jobs', async () => {
    const cases: [Record<string, unknown> | string, RegExp][] = [
      [{ backend: 'fast-3' }, /code/],
      [{ code: BELL_QISKIT }, /backend/],
      [{ code: BELL_QISKIT, backend: 'fast-3', shots: 0 }, /^shots must be from 10 to 10000$/],
      [{ code: BELL_QISKIT, backend: 'fast-3', shots: 9 }, /^shots must be from 10 to 10000$/],
      [{ code: BELL_QISKIT, backend: 'fast-3', shots: 10_001 }, /^shots must be from 10 to 10000$/],
      [{ code: BELL_QISKIT, backend: 'fast-3', shots: 1.5 }, /^shots must be an integer from 10 to 10000$/],
      [{ code: BELL_QISKIT, backend: 'slow-3', shots: 6000 }, /at most 5000 on slow-3/],
      [{ code: 'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[1];\nfoo q[0];', backend: 'fast-3' }, /line 4: unknown gate/],
      [{ code: 'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[5];\nh q[4];', backend: 'fast-3' }, /5 qubits; device fast-3 has 3/],
      [{ code: BELL_QISKIT, source_framework: 'cirq', backend: 'fast-3' }, /source_framework is 'cirq' but the code is qiskit/],
      [{ code: BELL_QISKIT, source_framework: 'quil', backend: 'fast-3' }, /not supported/],
      ['{"code": ', /malformed request body/],
      ['[1, 2]', /JSON object/],
    ];
    for (const [body, message] of cases) {
      for (const path of ['/v0/coda/qpus', '/v0/coda/qpus/estimate-cost', '/v0/qpu/submit']) {
        const res = await api.post(path, labA, body);
        expect([path, body, res.status, res.body.success]).toEqual([path, body, 422, false]);
        expect(res.body.error).toMatch(message);
        // FastAPI's list, as on control routes: a client reading detail[0]["msg"] gets the message.
        expect(res.body.detail).toEqual([{ loc: expect.arrayContaining(['body']), msg: expect.stringMatching(message), type: expect.any(String) }]);
      }
    }
    const shots = await submit(labA, { shots: 5 });
    expect(shots.body.detail).toEqual([{ loc: ['body', 'shots'], msg: 'shots must be from 10 to 10000', type: 'greater_than_equal' }]);
    const missing = await api.post('/v0/coda/qpus', labA, { backend: 'fast-3' });
    expect(missing.body.detail).toEqual([{ loc: ['body', 'code'], msg: expect.stringMatching(/^code is required/), type: 'missing' }]);
    const overage = await submit(labA, { accept_overage: 'yes' });
    expect([overage.status, overage.body.error]).toEqual([422, expect.stringMatching(/accept_overage/)]);
    const badKey = await submit(labA, {}, { 'Idempotency-Key': 'x'.repeat(300) });
    expect([badKey.status, badKey.body.error]).toEqual([422, expect.stringMatching(/Idempotency-Key/)]);
    const unknownDevice = await submit(labA, { backend: 'ionq_harmony' });
    expect(unknownDevice).toEqual({
      status: 404,
      body: expect.objectContaining({ success: false, error: expect.stringMatching(/unknown backend 'ionq_harmony'.*fast-3/) }),
    });
    // The official client's test_qpu_status_unknown_job: success false (with a 4xx).
    for (const path of ['/v0/coda/qpus/status', '/v0/coda/qpu/status', '/v0/qpus/status']) {
      const unknown = await api.post(path, labA, { job_id: 'nonexistent-job-id' });
      expect([path, unknown.status, unknown.body.success]).toEqual([path, 404, false]);
    }
    expect((await api.post('/v0/coda/qpus/status', labA, {})).status).toBe(422);
    expect((await api.get('/v0/coda/qpus/jobs?status=done', labA)).status).toBe(422);
    expect((await api.get('/v0/coda/qpus/jobs?limit=0', labA)).status).toBe(422);
    expect(await sut.query("SELECT count(*)::int AS n FROM qpu_jobs WHERE status <> 'completed'")).toEqual([{ n: 0 }]);
  });

  it('makes a resubmission with the same Idempotency-Key and body one job and one charge; another body is 409', async () => {
    const [spentBefore] = await sut.query<{ spent_cents: number }>(
      'SELECT spent_cents FROM qpu_owner_budgets WHERE owner_id = (SELECT id FROM owners WHERE name = $1)',
      ['lab-a'],
    );
    const key = { 'Idempotency-Key': `bell-${Date.now()}` };
    const first = await submit(labA, { shots: 300 }, key);
    const [again, third] = await Promise.all([
      submit(labA, { shots: 300 }, key),
      api.post('/v0/coda/qpu/submit', labA, { code: BELL_QISKIT, source_framework: 'qiskit', backend: 'fast-3', shots: 300 }, key),
    ]);
    expect(first.body).toMatchObject({ success: true, status: 'submitted', idempotent_replay: false, estimated_cost_cents: 60 });
    // A replay answers what the first submission answered (the same charge), marked as a replay.
    for (const replay of [again, third]) expect(replay).toEqual({ status: 200, body: { ...first.body, idempotent_replay: true } });
    const different = await submit(labA, { shots: 301 }, key);
    expect(different).toEqual({ status: 409, body: expect.objectContaining({ success: false, error: expect.stringMatching(/Idempotency-Key/) }) });
    await api.waitFor(labA, first.body.job_id, (s) => s === 'completed');
    expect(await sut.query('SELECT count(*)::int AS n FROM qpu_jobs WHERE shots = 300')).toEqual([{ n: 1 }]);
    expect(await sut.query('SELECT spent_cents FROM qpu_owner_budgets WHERE owner_id = (SELECT id FROM owners WHERE name = $1)', ['lab-a'])).toEqual([
      { spent_cents: spentBefore!.spent_cents + 60 },
    ]);
    // Another owner may use the same key for its own job.
    const other = await submit(labB, { shots: 300 }, key);
    expect(other.body).toMatchObject({ success: true, idempotent_replay: false });
    expect(other.body.job_id).not.toBe(first.body.job_id);
  });

  it('refuses a job over the budget with 402 unless accept_overage; budgets from the CLI and admin HTTP', async () => {
    const set = cli('budget', 'set', '--owner', 'lab-b', '--cents', '100');
    expect(set.status).toBe(0);
    expect(set.stdout).toMatch(/owner lab-b: budget 100 cents/);
    // lab-b has spent 60 (the job above) → 40 left; a 40-cent job fits, the next does not.
    const fits = await submit(labB, { backend: 'slow-3', shots: 100 });
    expect(fits.body).toMatchObject({ success: true, status: 'submitted', estimated_cost_cents: 40, credits_applied: 40, overage_cents: 0 });
    const over = await submit(labB, { shots: 100 });
    expect(over.status).toBe(402);
    expect(over.body).toMatchObject({ success: false, error: expect.stringMatching(/estimated at 40 cents but the budget has 0 cents left.*accept_overage/) });
    const estimate = await api.post('/v0/coda/qpus/estimate-cost', labB, { code: BELL_QISKIT, backend: 'fast-3', shots: 100 });
    expect(estimate.body).toMatchObject({ budget_cents: 100, remaining_cents: 0 });
    const overage = await submit(labB, { shots: 100, accept_overage: true });
    expect(overage.body).toMatchObject({ success: true, status: 'submitted', estimated_cost_cents: 40, credits_applied: 0, overage_cents: 40 });
    await api.waitFor(labB, overage.body.job_id, (s) => s === 'completed');
    await api.waitFor(labB, fits.body.job_id, (s) => s === 'completed');
    const show = cli('budget', 'show', '--owner', 'lab-b');
    expect(show.stdout).toMatch(/budget 100 cents, spent 140, reserved by queued\/running jobs 0, remaining -40/);
    expect(cli('budget', 'show', '--owner', 'nobody').stderr).toMatch(/no owner named 'nobody'/);
    expect(cli('budget', 'set', '--owner', 'lab-b', '--cents', '-5').status).toBe(2);
    // Admin HTTP: raise to unlimited, then read back.
    expect((await api.put('/v0/admin/budgets/lab-b', labA, { budget_cents: null })).status).toBe(403);
    const raised = await api.put('/v0/admin/budgets/lab-b', admin, { budget_cents: null });
    expect(raised).toEqual({ status: 200, body: { owner: 'lab-b', budget_cents: null, spent_cents: 140, reserved_cents: 0, remaining_cents: null } });
    expect((await api.put('/v0/admin/budgets/lab-b', admin, { budget_cents: -1 })).status).toBe(422);
    expect((await submit(labB, { shots: 100 })).status).toBe(200);
  });

  it('cancels a queued job and a running one; a finished job cannot be cancelled; nothing is charged for them', async () => {
    const running = await submit(labA, { backend: 'slow-3', shots: 3000 }); // holds slow-3 for 3 s
    const queued = await submit(labA, { backend: 'slow-3', shots: 3000 });
    await api.waitFor(labA, running.body.job_id, (s) => s === 'running');
    const waiting = await api.post('/v0/coda/qpus/status', labA, { job_id: queued.body.job_id });
    expect(waiting.body).toMatchObject({ status: 'queued', queue_position: 1 });
    const devices = await api.get('/v0/coda/qpus', labA);
    expect(devices.body.devices.find((d: { id: string }) => d.id === 'slow-3').queue_depth).toBe(2);

    const cancelQueued = await api.post('/v0/coda/qpus/cancel', labA, { job_id: queued.body.job_id });
    expect(cancelQueued).toEqual({ status: 200, body: { success: true, job_id: queued.body.job_id, status: 'cancelled' } });
    const cancelRunning = await api.post('/v0/qpus/cancel', labA, { job_id: running.body.job_id });
    expect(cancelRunning.body).toMatchObject({ success: true, status: 'cancelled' });
    expect(await jobEvents(sut, queued.body.job_id)).toEqual(['∅→queued', 'queued→cancelled']);
    expect(await jobEvents(sut, running.body.job_id)).toEqual(['∅→queued', 'queued→running', 'running→cancelled']);

    // The device is free again soon after (the worker stops spending its time), and nothing was stored or charged.
    const next = await submit(labA, { backend: 'slow-3', shots: 10 });
    await api.waitFor(labA, next.body.job_id, (s) => s === 'completed', 10_000);
    for (const id of [queued.body.job_id, running.body.job_id]) {
      const status = await api.post('/v0/coda/qpus/status', labA, { job_id: id });
      expect(status.body).toMatchObject({ status: 'cancelled', cost_cents: 0 });
      expect([status.body.results, status.body.counts]).toEqual([undefined, undefined]);
    }
    const again = await api.post('/v0/coda/qpus/cancel', labA, { job_id: next.body.job_id });
    expect(again).toEqual({ status: 409, body: expect.objectContaining({ success: false, error: expect.stringMatching(/already completed/) }) });
  });

  it("keeps owners apart: another owner's job is unknown (404) for status and cancel, and absent from its list", async () => {
    const mine = await submit(labA, { shots: 10 });
    for (const path of ['/v0/coda/qpus/status', '/v0/coda/qpus/cancel']) {
      const theirs = await api.post(path, labB, { job_id: mine.body.job_id });
      expect([path, theirs.status, theirs.body.success, theirs.body.error]).toEqual([path, 404, false, `unknown job_id '${mine.body.job_id}'`]);
    }
    const list = await api.get('/v0/coda/qpus/jobs?limit=1000', labB);
    expect(list.body.jobs.some((j: { job_id: string }) => j.job_id === mine.body.job_id)).toBe(false);
    await api.waitFor(labA, mine.body.job_id, (s) => s === 'completed');
  });

  it('lists the caller’s jobs newest first, filtered by status and device, paged', async () => {
    const all = await api.get('/v0/coda/qpus/jobs', labA);
    expect(all.status).toBe(200);
    const times = all.body.jobs.map((j: { submitted_at: string }) => Date.parse(j.submitted_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const [ownCount] = await sut.query<{ n: number }>('SELECT count(*)::int AS n FROM qpu_jobs WHERE owner_id = (SELECT id FROM owners WHERE name = $1)', [
      'lab-a',
    ]);
    expect(all.body.jobs).toHaveLength(ownCount!.n);
    const cancelled = await api.get('/v0/coda/qpus/jobs?status=cancelled', labA);
    expect(cancelled.body.jobs.map((j: { status: string }) => j.status)).toEqual(['cancelled', 'cancelled']);
    const slow = await api.get('/v0/qpus/jobs?device=slow-3&skip=1&limit=2', labA);
    expect(slow.body.jobs).toHaveLength(2);
    expect(slow.body.jobs.every((j: { device: string }) => j.device === 'slow-3')).toBe(true);
    expect(slow.body.jobs[0].job_id).toBe(all.body.jobs.filter((j: { device: string }) => j.device === 'slow-3')[1].job_id);
  });

  // Signed webhooks (docs/webhooks.md) on this stack rather than a boot of their own.
  describe('signed webhooks', () => webhookCases(() => sut));
});
