import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { encodeNpy } from '#qdc/arrays';
import { runModel, runModelBatch } from '#qdc/characterization';
import {
  ResultsRpc,
  RpcError,
  type BinaryRef,
  type InferenceJobData,
  type ResultsCreateManyRequest,
  type ResultsCreateRequest,
  type ResultsCreateResponse,
  type RpcContract,
} from '#qdc/contracts';
import { generateCoulombPeakTrace, tuningSeeds } from '#qdc/device-physics';
import { InputBlobStore, NatsConnection, PayloadStore, RpcClient, loadConfig, type JobWorkerHost } from '#qdc/platform';
import { InferenceProcessor } from './inference.processor.js';
import { PERSIST_ATTEMPT_FIRST_MS, ResultsWriter } from './results-writer.js';

const PEAK_V2 = 'coulomb-blockade-peak-detector-v2';
const trace = (seed: number) => generateCoulombPeakTrace(seed, { length: 128, kind: 'peaks' }).trace;
const inline = (bytes: Uint8Array): BinaryRef => ({ inline: Buffer.from(bytes).toString('base64') });
const decodeRef = (ref: BinaryRef): unknown => JSON.parse(Buffer.from((ref as { inline: string }).inline, 'base64').toString('utf8'));

/**
 * A processor with a real PayloadStore (inline payloads need no connection) and RpcClient whose calls are answered
 * here; the worker host only records the registration.
 */
function newProcessor(stored: Partial<ResultsCreateResponse> = {}, env: Record<string, string> = {}) {
  const config = loadConfig({ QDC_INFERENCE_THREADS: '1', ...env });
  const connection = new NatsConnection(config, 'inference-worker');
  const nats = new PayloadStore(connection, config);
  const rpc = new RpcClient(connection, nats, config);
  const answer: ResultsCreateResponse = { id: randomUUID(), createdAt: '2026-11-25T10:00:00.000Z', userVote: null, ...stored };
  const request = jest.spyOn(rpc, 'call').mockImplementation(async (subject: RpcContract) => (subject === ResultsRpc.create ? answer : {}) as never);
  const host = { register: jest.fn() };
  const sut = new InferenceProcessor(
    nats,
    new InputBlobStore(connection, nats, config),
    new ResultsWriter(rpc, config),
    rpc,
    host as unknown as JobWorkerHost,
    config,
  );
  return { sut, mocks: { nats, request, answer, host } };
}

/** The handler's arguments: the job's data (as JobWorkerHost parses it) and its id. */
const job = (data: Partial<InferenceJobData> & { input: BinaryRef }): [InferenceJobData, string] => [
  {
    ownerId: randomUUID(),
    model: PEAK_V2,
    batch: false,
    plot: false,
    darkMode: false,
    inputFileName: 'trace.npy',
    inputFileSize: 1,
    inputSha256: '0'.repeat(64),
    requestId: 'req-1',
    ...data,
  },
  'run-0123',
];

const createRequest = (request: jest.Mock) => request.mock.calls.find(([subject]) => subject === ResultsRpc.create)?.[1] as ResultsCreateRequest | undefined;

describe(InferenceProcessor.name, () => {
  it('runs the model, persists its output and answers with the result bytes around that output', async () => {
    const { sut, mocks } = newProcessor();
    const data = trace(tuningSeeds(1, 11)[0]!);
    const outcome = await sut.process(...job({ input: inline(encodeNpy({ shape: [128], data })), inputFileSize: 1152 }));
    const expected = runModel(PEAK_V2, { shape: [128], data });

    const create = createRequest(mocks.request as jest.Mock)!;
    expect(create).toMatchObject({ jobId: 'run-0123', model: PEAK_V2, batchSize: null, inputFileSize: 1152 });
    expect(decodeRef(create.output)).toEqual(expected);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.response.resultId).toBe(mocks.answer.id);
    expect(decodeRef(outcome.response.result)).toEqual({
      id: mocks.answer.id,
      model: PEAK_V2,
      created_at: mocks.answer.createdAt,
      input_file_name: 'trace.npy',
      input_file_size: 1152,
      output: expected,
      user_vote: null,
    });
  });

  it('answers a batch as ModelBatchResult, row i equal to a single run of trace i', async () => {
    const { sut } = newProcessor();
    const seeds = tuningSeeds(3, 12);
    const flat = new Float64Array(3 * 128);
    for (const [i, seed] of seeds.entries()) flat.set(trace(seed), i * 128);
    const outcome = await sut.process(...job({ input: inline(encodeNpy({ shape: [3, 128], data: flat })), batch: true }));
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const result = decodeRef(outcome.response.result) as Record<string, unknown>;
    expect(result).not.toHaveProperty('input_file_size');
    expect(result).not.toHaveProperty('user_vote');
    expect(result.batch_size).toBe(3);
    expect(result.output).toEqual({ outputs: runModelBatch(PEAK_V2, { shape: [3, 128], data: flat }) });
  });

  it('answers a retried job with the stored row’s id, time and vote', async () => {
    const { sut } = newProcessor({ userVote: -1, createdAt: '2026-01-01T00:00:00.000Z' });
    const outcome = await sut.process(...job({ input: inline(encodeNpy({ shape: [128], data: trace(5) })) }));
    if (!outcome.ok) throw new Error('expected a result');
    expect(decodeRef(outcome.response.result)).toMatchObject({ created_at: '2026-01-01T00:00:00.000Z', user_vote: -1 });
  });

  it.each([
    ['an unreadable file', Uint8Array.of(1, 2, 3), /npy|pt|zip|magic|expected/i],
    ['a non-finite value', encodeNpy({ shape: [4], data: [1, Number.NaN, 2, 3] }), /finite/i],
    ['a 2-D array for a 1-D model', encodeNpy({ shape: [2, 2], data: [1, 2, 3, 4] }), /shape/i],
  ])('answers %s with invalid_input and stores nothing', async (_, bytes, message) => {
    const { sut, mocks } = newProcessor();
    const outcome = await sut.process(...job({ input: inline(bytes) }));
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe('invalid_input');
    expect(outcome.error.message).toMatch(message);
    expect(mocks.request).not.toHaveBeenCalled();
  });

  it('keeps trying to store the result while results does not answer, then answers with the stored row', async () => {
    const { sut, mocks } = newProcessor();
    let calls = 0;
    mocks.request.mockImplementation(async (subject: RpcContract) => {
      if (subject !== ResultsRpc.create) return {} as never;
      calls += 1;
      if (calls <= 2) throw new RpcError('unavailable', 'no service is answering results.result.create.v1');
      return mocks.answer as never;
    });
    const outcome = await sut.process(...job({ input: inline(encodeNpy({ shape: [128], data: trace(7) })), deadline: Date.now() + 10_000 }));
    expect(calls).toBe(3);
    expect(outcome.ok && outcome.response.resultId).toBe(mocks.answer.id);
  });

  it('gives up storing at the job’s deadline with unavailable (the caller answers 503; BullMQ retries the job)', async () => {
    const { sut, mocks } = newProcessor();
    mocks.request.mockImplementation(async (subject: RpcContract) => {
      if (subject === ResultsRpc.create) throw new RpcError('unavailable', 'no service is answering results.result.create.v1');
      return {} as never;
    });
    const error = await sut
      .process(...job({ input: inline(encodeNpy({ shape: [128], data: trace(7) })), deadline: Date.now() + 400 }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(
        /^the results service did not store the result \(tried for \d+\.\d s: no service is answering results\.result\.create\.v1\); retry$/,
      ),
    });
    expect(mocks.request.mock.calls.filter(([subject]) => subject === ResultsRpc.create).length).toBeGreaterThanOrEqual(2);
  });

  it('gives up storing after QDC_RESULTS_RETRY_MS even when the job’s deadline is far (503 at once rather than a long wait)', async () => {
    const { sut, mocks } = newProcessor({}, { QDC_RESULTS_RETRY_MS: '500' });
    mocks.request.mockImplementation(async (subject: RpcContract) => {
      if (subject === ResultsRpc.create) throw new RpcError('unavailable', 'no service is answering results.result.create.v1');
      return {} as never;
    });
    const error = await sut
      .process(...job({ input: inline(encodeNpy({ shape: [128], data: trace(7) })), deadline: Date.now() + 300_000 }))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/^the results service did not store the result \(tried for \d+\.\d s: no service/),
    });
    expect(mocks.request.mock.calls.filter(([subject]) => subject === ResultsRpc.create).length).toBeGreaterThanOrEqual(2);
  });

  it('sends a store that got no answer again after PERSIST_ATTEMPT_FIRST_MS, then waits twice as long (a request lost in a killed results)', async () => {
    const { sut, mocks } = newProcessor();
    const timeouts: number[] = [];
    mocks.request.mockImplementation(async (subject: RpcContract, _payload: unknown, options?: { timeoutMs?: number }) => {
      if (subject !== ResultsRpc.create) return {} as never;
      timeouts.push(options!.timeoutMs!);
      if (timeouts.length === 1) throw new RpcError('timeout', 'results.result.create.v1 did not answer');
      return mocks.answer as never;
    });
    const outcome = await sut.process(...job({ input: inline(encodeNpy({ shape: [128], data: trace(7) })), deadline: Date.now() + 300_000 }));
    expect(outcome).toMatchObject({ ok: true, response: { resultId: mocks.answer.id } });
    expect(timeouts).toEqual([PERSIST_ATTEMPT_FIRST_MS, 2 * PERSIST_ATTEMPT_FIRST_MS]);
  });

  it('does not retry a persist that results refused', async () => {
    const { sut, mocks } = newProcessor();
    mocks.request.mockImplementation(async () => {
      throw new RpcError('internal', 'internal error');
    });
    await expect(sut.process(...job({ input: inline(encodeNpy({ shape: [128], data: trace(7) })), deadline: Date.now() + 10_000 }))).rejects.toMatchObject({
      code: 'internal',
    });
    expect(mocks.request).toHaveBeenCalledTimes(1);
  });

  it('stages an object-store input with results before persisting the result', async () => {
    const { sut, mocks } = newProcessor();
    const bytes = encodeNpy({ shape: [128], data: trace(6) });
    jest.spyOn(mocks.nats, 'fromBinaryRef').mockImplementation(async (ref) => ('objectKey' in ref ? bytes : Buffer.from(ref.inline, 'base64')));
    await sut.process(...job({ input: { objectKey: 'k1', size: bytes.length } }));
    const subjects = (mocks.request as jest.Mock).mock.calls.map(([subject]) => subject);
    expect(subjects).toEqual([ResultsRpc.stageInput, ResultsRpc.create]);
    expect((mocks.request as jest.Mock).mock.calls[0]![1]).toEqual({
      jobId: 'run-0123',
      inputFileName: 'trace.npy',
      inputFileSize: 1,
      input: { objectKey: 'k1', size: bytes.length },
    });
  });

  describe("a run group (the gateway's dynamic batching)", () => {
    const run = (jobId: string, bytes: Uint8Array) => ({
      jobId,
      requestId: `req-${jobId}`,
      model: PEAK_V2,
      inputFileName: `${jobId}.npy`,
      inputFileSize: bytes.length,
      input: { inline: Buffer.from(bytes).toString('base64') },
      inputSha256: '0'.repeat(64),
    });
    /** results answers createMany with a row per item (ids made here, by job id). */
    const answerCreateMany = (request: jest.Mock) => {
      const ids = new Map<string, string>();
      request.mockImplementation((async (subject: RpcContract, body: ResultsCreateManyRequest) => {
        if (subject !== ResultsRpc.createMany) return {};
        return {
          results: body.items.map((item) => ({
            jobId: item.jobId,
            id: ids.set(item.jobId, randomUUID()).get(item.jobId)!,
            createdAt: '2026-11-29T10:00:00.000Z',
          })),
        };
      }) as never);
      return ids;
    };

    it('runs each run as a single run would, stores the results in one createMany and answers each run its own result', async () => {
      const { sut, mocks } = newProcessor();
      const ids = answerCreateMany(mocks.request as jest.Mock);
      const traces = [trace(21), trace(22), trace(23)];
      const runs = traces.map((data, k) => run(`run-g${k}`, encodeNpy({ shape: [128], data })));
      const ownerId = randomUUID();

      const outcome = await sut.processGroup({ ownerId, runs, requestId: 'group-1' });

      const calls = (mocks.request as jest.Mock).mock.calls.filter(([subject]) => subject === ResultsRpc.createMany);
      expect(calls).toHaveLength(1);
      const request = calls[0]![1] as ResultsCreateManyRequest;
      expect(request.ownerId).toBe(ownerId);
      expect(request.items.map((i) => [i.jobId, i.input])).toEqual([
        ['run-g0', 0],
        ['run-g1', 1],
        ['run-g2', 2],
      ]);
      expect(request.items.map((i) => decodeRef(i.output))).toEqual(traces.map((data) => runModel(PEAK_V2, { shape: [128], data })));
      expect(outcome.ok).toBe(true);
      if (!outcome.ok) return;
      expect(outcome.response.runs).toHaveLength(3);
      outcome.response.runs.forEach((o, k) => {
        expect(o.ok).toBe(true);
        if (!o.ok) return;
        expect(o.response.resultId).toBe(ids.get(`run-g${k}`));
        expect(decodeRef(o.response.result)).toEqual({
          id: ids.get(`run-g${k}`),
          model: PEAK_V2,
          created_at: '2026-11-29T10:00:00.000Z',
          input_file_name: `run-g${k}.npy`,
          input_file_size: runs[k]!.inputFileSize,
          output: runModel(PEAK_V2, { shape: [128], data: traces[k]! }),
          user_vote: null,
        });
      });
    });

    it("answers a run's bad input as that run's invalid_input and stores the others", async () => {
      const { sut, mocks } = newProcessor();
      answerCreateMany(mocks.request as jest.Mock);
      const runs = [
        run('run-ok', encodeNpy({ shape: [128], data: trace(31) })),
        run('run-short', encodeNpy({ shape: [128], data: new Float64Array(128).fill(Number.NaN) })),
        run('run-junk', new TextEncoder().encode('not an array')),
      ];

      const outcome = await sut.processGroup({ ownerId: randomUUID(), runs, requestId: 'group-2' });

      const request = (mocks.request as jest.Mock).mock.calls.find(([subject]) => subject === ResultsRpc.createMany)![1] as ResultsCreateManyRequest;
      expect(request.items.map((i) => i.jobId)).toEqual(['run-ok']);
      expect(request.inputs.map((i) => i.inputFileName)).toEqual(['run-ok.npy']);
      if (!outcome.ok) throw new Error('the group failed');
      const [ok, short, junk] = outcome.response.runs;
      expect(ok!.ok).toBe(true);
      expect(short).toMatchObject({ ok: false, error: { code: 'invalid_input', details: { type: 'value_error' } } });
      expect(junk).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    });

    it('stores nothing when no run of the group ran', async () => {
      const { sut, mocks } = newProcessor();
      const outcome = await sut.processGroup({ ownerId: randomUUID(), runs: [run('run-bad', new Uint8Array(3))], requestId: 'group-3' });
      expect(mocks.request).not.toHaveBeenCalled();
      expect(outcome).toMatchObject({ ok: true, response: { runs: [{ ok: false, error: { code: 'invalid_input' } }] } });
    });

    it('fails the whole group with unavailable when results does not store it (BullMQ retries; each run keeps its job id)', async () => {
      const { sut, mocks } = newProcessor({}, { QDC_RESULTS_RETRY_MS: '300' });
      (mocks.request as jest.Mock).mockImplementation((async () => {
        throw new RpcError('unavailable', 'no responders');
      }) as never);
      await expect(
        sut.processGroup({ ownerId: randomUUID(), runs: [run('run-x', encodeNpy({ shape: [128], data: trace(41) }))], requestId: 'group-4' }),
      ).rejects.toMatchObject({
        code: 'unavailable',
      });
    });
  });
});
