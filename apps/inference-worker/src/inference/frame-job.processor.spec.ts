import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { encodeNpy } from '#qdc/arrays';
import { runModel } from '#qdc/characterization';
import {
  ResultsRpc,
  type BinaryRef,
  type FrameJobData,
  type FrameJobModelOutcome,
  type ResultsCreateManyRequest,
  type ResultsCreateManyResponse,
} from '#qdc/contracts';
import { generateChargeStabilityDiagram, generatePinchOffTrace } from '#qdc/device-physics';
import { NatsConnection, PayloadStore, RpcClient, loadConfig, type JobWorkerHost } from '#qdc/platform';
import { FrameJobProcessor } from './frame-job.processor.js';
import type { ResultsWriter } from './results-writer.js';

const CLASSIFIER = 'pinch-off-classifier-v0';
const EXTRACTOR = 'pinch-off-parameter-extractor-v0';
const inline = (bytes: Uint8Array): BinaryRef => ({ inline: Buffer.from(bytes).toString('base64') });
const decodeRef = (ref: BinaryRef): unknown => JSON.parse(Buffer.from((ref as { inline: string }).inline, 'base64').toString('utf8'));

/** A frame-job processor with a real PayloadStore (inline payloads need no connection) whose store is answered here. */
function newProcessor() {
  const config = loadConfig({});
  const connection = new NatsConnection(config, 'inference-worker');
  const nats = new PayloadStore(connection, config);
  const store = jest.fn(async (_contract: unknown, body: unknown): Promise<unknown> => {
    const request = body as ResultsCreateManyRequest;
    return {
      results: request.items.map((i) => ({ jobId: i.jobId, id: randomUUID(), createdAt: '2026-11-25T10:00:00.000Z' })),
    } satisfies ResultsCreateManyResponse;
  });
  const host = { register: jest.fn() };
  const rpc = new RpcClient(connection, nats, config);
  const sut = new FrameJobProcessor(nats, { store } as unknown as ResultsWriter, rpc, host as unknown as JobWorkerHost, config);
  return { sut, mocks: { store, host } };
}

const frameOf = (input: Uint8Array, models: string[], name = 'pinchoff-f1.npy') => ({
  inputFileName: name,
  inputFileSize: input.length,
  input: inline(input),
  inputSha256: '0'.repeat(64),
  models: models.map((model) => ({ model, resultJobId: `stream-${name}-${model}` })),
});

const job = (input: Uint8Array, models = [CLASSIFIER, EXTRACTOR]): FrameJobData => ({
  ownerId: randomUUID(),
  frames: [frameOf(input, models)],
  requestId: 'stream:lab-a/pinchoff/f1',
});

const answer = async (outcome: Awaited<ReturnType<FrameJobProcessor['process']>>) => {
  if (!outcome.ok) throw new Error(`not ok: ${outcome.error.message}`);
  return (decodeRef(outcome.response.results) as FrameJobModelOutcome[][])[0]!;
};

describe(FrameJobProcessor.name, () => {
  it('runs every model of the frame once and stores all their results in ONE create-many request', async () => {
    const { sut, mocks } = newProcessor();
    const data = generatePinchOffTrace(7, { length: 100 }).trace;
    const results = await answer(await sut.process(job(encodeNpy({ shape: [100], data }))));
    expect(mocks.store).toHaveBeenCalledTimes(1);
    const [contract, body] = mocks.store.mock.calls[0]! as [unknown, ResultsCreateManyRequest];
    expect(contract).toBe(ResultsRpc.createMany);
    expect(body.items.map((i) => [i.jobId, i.model])).toEqual([
      [`stream-pinchoff-f1.npy-${CLASSIFIER}`, CLASSIFIER],
      [`stream-pinchoff-f1.npy-${EXTRACTOR}`, EXTRACTOR],
    ]);
    // Ground truth: the same models run here on the same trace.
    const array = { shape: [100], data: Float64Array.from(data) };
    const expectedClassifier = JSON.parse(JSON.stringify(runModel(CLASSIFIER, array)));
    const expectedExtractor = JSON.parse(JSON.stringify(runModel(EXTRACTOR, array)));
    expect(decodeRef(body.items[0]!.output)).toEqual(expectedClassifier);
    expect(decodeRef(body.items[1]!.output)).toEqual(expectedExtractor);
    expect(results).toEqual([
      { model: CLASSIFIER, resultId: expect.any(String), output: expectedClassifier },
      { model: EXTRACTOR, resultId: expect.any(String), output: expectedExtractor },
    ]);
  });

  it('runs several frames of one job and stores all their results in ONE request, each result naming its frame’s input', async () => {
    const { sut, mocks } = newProcessor();
    const traces = [11, 12, 13].map((seed) => generatePinchOffTrace(seed, { length: 100 }).trace);
    const frames = traces.map((t, i) => frameOf(encodeNpy({ shape: [100], data: t }), [CLASSIFIER], `f${i}.npy`));
    const broken = frameOf(new Uint8Array([1, 2, 3]), [CLASSIFIER], 'broken.npy');
    const outcome = await sut.process({ ownerId: randomUUID(), frames: [frames[0]!, broken, frames[1]!, frames[2]!], requestId: 'r' });
    if (!outcome.ok) throw new Error('not ok');
    const perFrame = decodeRef(outcome.response.results) as FrameJobModelOutcome[][];
    expect(perFrame.map((p) => p.map((o) => ('error' in o ? 'error' : 'stored')))).toEqual([['stored'], ['error'], ['stored'], ['stored']]);
    expect(mocks.store).toHaveBeenCalledTimes(1);
    const [, body] = mocks.store.mock.calls[0]! as [unknown, ResultsCreateManyRequest];
    expect(body.inputs.map((i) => i.inputFileName)).toEqual(['f0.npy', 'broken.npy', 'f1.npy', 'f2.npy']);
    expect(body.items.map((i) => [i.jobId, i.input])).toEqual([
      [`stream-f0.npy-${CLASSIFIER}`, 0],
      [`stream-f1.npy-${CLASSIFIER}`, 2],
      [`stream-f2.npy-${CLASSIFIER}`, 3],
    ]);
    traces.forEach((t, i) => {
      const expected = JSON.parse(JSON.stringify(runModel(CLASSIFIER, { shape: [100], data: Float64Array.from(t) })));
      expect(decodeRef(body.items[i]!.output)).toEqual(expected);
    });
  });

  it('answers an unreadable frame with an error per model and stores nothing', async () => {
    const { sut, mocks } = newProcessor();
    const results = await answer(await sut.process(job(new Uint8Array([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, 4, 0]))));
    expect(mocks.store).not.toHaveBeenCalled();
    expect(results.map((r) => [r.model, 'error' in r ? r.error.code : 'stored'])).toEqual([
      [CLASSIFIER, 'invalid_input'],
      [EXTRACTOR, 'invalid_input'],
    ]);
  });

  it('stores only the models that accepted the frame (a model refusing it answers its own message)', async () => {
    const { sut, mocks } = newProcessor();
    // 2-D: the pinch-off models refuse it; the charge-stability segmenter takes it.
    const map = generateChargeStabilityDiagram(900, { rows: 128 });
    const results = await answer(
      await sut.process(job(encodeNpy({ shape: [128, 128], data: map.data }), [CLASSIFIER, 'charge-stability-diagram-segmenter-v0'])),
    );
    expect(results[0]).toEqual({ model: CLASSIFIER, error: { code: 'invalid_input', message: 'expected a 1-D trace of length ≥ 32; got shape [128, 128]' } });
    expect(results[1]).toMatchObject({ model: 'charge-stability-diagram-segmenter-v0', resultId: expect.any(String) });
    const [, body] = mocks.store.mock.calls[0]! as [unknown, ResultsCreateManyRequest];
    expect(body.items.map((i) => i.model)).toEqual(['charge-stability-diagram-segmenter-v0']);
  });
});
