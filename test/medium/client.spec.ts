import { unzipSync } from 'fflate';
import { QdcApiError, createClient, type AssistantStreamEvent, type ModelResult, type QdcClient, type QpuJobStatus } from '@qdc/client';
import { generateCoulombPeakTrace, tuningSeeds } from '#qdc/device-physics';
import { BELL_QISKIT, writeTestDevices } from './qpu.fixtures.js';
import { startSystem, type TestSystem } from './system.harness.js';

/**
 * @qdc/client against the real stack: every call goes through the gateway to the services, so the client's paths,
 * bodies, multipart, .npy encoding, error mapping and SSE parsing meet the server's, not a mock's.
 */
const PEAK_V2 = 'coulomb-blockade-peak-detector-v2';
const BELL_QASM = 'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[2];\ncreg c[2];\nh q[0];\ncx q[0],q[1];\nmeasure q -> c;\n';

describe('@qdc/client (real gateway, services, Postgres, Redis, NATS)', () => {
  let sut: TestSystem;
  let qdc: QdcClient;
  let other: QdcClient;

  beforeAll(async () => {
    sut = await startSystem({ env: { QDC_QPU_DEVICES_DIR: writeTestDevices([{ id: 'fast-3', shotTimeUs: 10 }]), QDC_QPU_TIME_SCALE: '1' } });
    const [alice, bob] = await Promise.all([sut.createKey('client-alice', 'control,coda'), sut.createKey('client-bob', 'control,coda')]);
    qdc = createClient({ baseUrl: sut.baseUrl, token: alice });
    other = createClient({ baseUrl: sut.baseUrl, token: bob });
  });

  afterAll(async () => {
    await sut?.stop();
  });

  it('lists models and gets one', async () => {
    const models = await qdc.models.list({ skip: 0, limit: 1000 });
    expect(models.map((m) => m.id)).toContain(PEAK_V2);
    const model = await qdc.models.get(PEAK_V2);
    expect(Object.keys(model).sort()).toEqual([
      'description',
      'id',
      'input_shape_requirements',
      'name',
      'nn_input_shape_requirements',
      'nn_output_shape_requirements',
      'number_of_runs',
      'released',
    ]);
    expect(model).toEqual(models.find((m) => m.id === PEAK_V2));
  });

  it('runs the peak detector on a simulated trace (encoded as .npy by the client) and finds its peaks; a batch of nested arrays too', async () => {
    const truth = generateCoulombPeakTrace(tuningSeeds(1, 701)[0]!, { length: 128, kind: 'peaks', peakCount: 3, snrRange: [40, 60] });
    const result = await qdc.models.run({ model: PEAK_V2, data: { data: truth.trace, shape: [128] }, plot: true, fileName: 'sweep.npy' });
    expect(result).toMatchObject({ model: PEAK_V2, input_file_name: 'sweep.npy', user_vote: null });
    const found = result.output.peak_indices as number[];
    expect(found).toHaveLength(truth.peakIndices.length);
    for (const [i, index] of found.entries()) expect(Math.abs(index - truth.peakIndices[i]!)).toBeLessThanOrEqual(2);
    expect(result.output.plot).toMatch(/^data:image\/(png|svg\+xml);base64,/);

    const rows = [[...truth.trace], [...truth.trace]];
    const batch = await qdc.models.runBatch({ model: PEAK_V2, data: rows });
    expect(batch.batch_size).toBe(2);
    expect(batch.output.outputs.map((o) => o.peak_indices)).toEqual([found, found]);
  });

  it('lists, gets, votes on, downloads and deletes a result; another owner gets 404', async () => {
    const run: ModelResult = await qdc.models.run({ model: PEAK_V2, data: Array.from({ length: 128 }, (_, i) => Math.exp(-(((i - 64) / 3) ** 2))) });
    const listed = await qdc.results.list({ model_str_id: PEAK_V2, limit: 10 });
    expect(listed[0]).toMatchObject({ id: run.id, model: PEAK_V2 });
    expect(await qdc.results.get(run.id)).toMatchObject({ id: run.id, input_file_name: 'data.npy', user_vote: null });

    expect(await qdc.results.vote(run.id, 1, 'right peak')).toEqual({ model_result_id: run.id, vote: 1, feedback: 'right peak' });
    expect(await qdc.results.get(run.id)).toMatchObject({ user_vote: 1 });
    expect(await qdc.results.unvote(run.id)).toEqual({ detail: 'Vote removed' });

    const files = unzipSync(await qdc.results.download(run.id));
    expect(Object.keys(files).sort()).toEqual(['data.npy', 'result.json']);
    expect(JSON.parse(new TextDecoder().decode(files['result.json']))).toMatchObject({ id: run.id, model: PEAK_V2 });

    await expect(other.results.get(run.id)).rejects.toMatchObject({ status: 404 });
    expect(await qdc.results.delete(run.id)).toEqual({ detail: 'Model result deleted' });
    await expect(qdc.results.get(run.id)).rejects.toMatchObject({ status: 404, detail: 'Model result not found' });
  });

  it('throws typed errors: 404 with the request id sent, 422 with the validation list, coda 422 with success false', async () => {
    const notFound = await qdc.models.get('no-such-model-v0', { requestId: 'client-spec-404' }).catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(QdcApiError);
    expect(notFound).toMatchObject({ status: 404, detail: 'Model not found', requestId: 'client-spec-404' });

    const invalid = (await qdc.models.run({ model: PEAK_V2, data: [1, Number.NaN, 3, 4, 5, 6, 7, 8] }).catch((e: unknown) => e)) as QdcApiError;
    expect(invalid).toBeInstanceOf(QdcApiError);
    expect(invalid.status).toBe(422);
    expect(invalid.issues[0]).toMatchObject({ loc: ['body', 'data'], msg: expect.stringMatching(/NaN|finite/i) });
    expect(invalid.requestId).toEqual(expect.any(String));

    const coda = (await qdc.qpus.submit({ code: BELL_QISKIT, backend: 'fast-3', shots: 5 }).catch((e: unknown) => e)) as QdcApiError;
    expect(coda).toMatchObject({ status: 422, success: false, error: expect.stringMatching(/shots/) });
    expect(coda.issues.map((i) => i.loc)).toContainEqual(['body', 'shots']);
  });

  it('lists QPUs, submits a Bell circuit and waits: completed, results summing to the shots; its event stream replays the same', async () => {
    const { devices } = await qdc.qpus.list();
    expect(devices.map((d) => d.id)).toEqual(['fast-3']);
    const estimate = await qdc.qpus.estimate({ code: BELL_QASM, backend: 'fast-3', shots: 200 });
    expect(estimate).toMatchObject({ success: true, estimated_cost_cents: 50 });
    const submitted = await qdc.qpus.submit({ code: BELL_QASM, backend: 'fast-3', shots: 200 }, { idempotencyKey: 'client-spec-bell' });
    expect(submitted).toMatchObject({ success: true, status: 'submitted', backend: 'fast-3', shots: 200, idempotent_replay: false });
    const seen: QpuJobStatus[] = [];
    const done = await qdc.qpus.wait(submitted.job_id, { intervalMs: 50, onStatus: (s) => seen.push(s.status) });
    expect(done.status).toBe('completed');
    expect(seen.at(-1)).toBe('completed');
    expect(new Set(seen).size).toBe(seen.length);
    const results = done.results!;
    expect(Object.values(results).reduce((a, b) => a + b, 0)).toBe(200);
    expect(Object.keys(results).every((bits) => bits === '00' || bits === '11')).toBe(true);
    const events = [];
    for await (const e of qdc.qpus.events(submitted.job_id)) events.push(e);
    expect(events.filter((e) => e.type === 'status').map((e) => e.status)).toEqual(['queued', 'running', 'completed']);
    expect(events.at(-1)).toMatchObject({ type: 'results', results });
    const replay = await qdc.qpus.submit({ code: BELL_QASM, backend: 'fast-3', shots: 200 }, { idempotencyKey: 'client-spec-bell' });
    expect(replay).toMatchObject({ job_id: submitted.job_id, idempotent_replay: true });
    expect((await qdc.qpus.jobs({ limit: 5 })).jobs.map((j) => j.job_id)).toContain(submitted.job_id);
  });

  it('simulates and converts circuits', async () => {
    const sim = await qdc.tools.simulate({ code: BELL_QASM, shots: 1000, seed_simulator: 7 });
    expect(sim.success).toBe(true);
    expect(Object.values(sim.counts).reduce((a, b) => a + b, 0)).toBe(1000);
    expect(Object.keys(sim.counts).sort()).toEqual(['00', '11']);
    const qasm3 = await qdc.tools.toOpenqasm3({ code: BELL_QISKIT });
    expect(qasm3.openqasm3).toMatch(/^OPENQASM 3/);
    const split = await qdc.tools.splitCircuit({ code: BELL_QASM });
    expect(split.success).toBe(false); // a 2-qubit circuit cannot be cut smaller: an answer (200), not an error
  });

  it('streams the assistant to completed, and resumes a dropped stream with lastEventId', async () => {
    expect((await qdc.agents.list()).agents.length).toBeGreaterThan(0);
    const body = { messages: [{ role: 'user' as const, content: 'write a GHZ state on 3 qubits' }] };
    const first: AssistantStreamEvent[] = [];
    for await (const event of qdc.agents.stream(body)) {
      first.push(event);
      if (first.length === 2) break; // the client goes away mid-answer
    }
    expect(first.map((e) => e.type)).toEqual(['token', 'token']);
    const lastEventId = first.at(-1)!.eventId!;
    const [run, seen] = lastEventId.split(':');

    const rest: AssistantStreamEvent[] = [];
    for await (const event of qdc.agents.stream(body, { lastEventId })) rest.push(event);
    expect(rest.at(-1)).toMatchObject({ type: 'completed', thread_id: expect.any(String) });
    for (const e of rest) {
      expect(e.eventId!.split(':')[0]).toBe(run);
      expect(Number(e.eventId!.split(':')[1])).toBeGreaterThan(Number(seen));
    }
    const text = [...first, ...rest].map((e) => (e.type === 'token' ? e.content : '')).join('');
    expect(text).toMatch(/GHZ|ghz|cx|CNOT/);

    await expect(qdc.agents.stream(body, { lastEventId: 'nonsense' })[Symbol.asyncIterator]().next()).rejects.toMatchObject({ status: 422, success: false });
  });
});
