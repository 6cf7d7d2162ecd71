import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { encodeNpy } from '#qdc/arrays';
import { runModel } from '#qdc/characterization';
import { Subjects, type BinaryRef, type FrameJobData, type FrameJobModelOutcome, type ResultsCreateManyRequest, type ResultsCreateManyResponse } from '#qdc/contracts';
import { generateChargeStabilityDiagram, generatePinchOffTrace } from '#qdc/device-physics';
import { NatsService, loadConfig } from '#qdc/platform';
import { FrameJobProcessor } from './frame-job.processor.js';

const CLASSIFIER = 'pinch-off-classifier-v0';
const EXTRACTOR = 'pinch-off-parameter-extractor-v0';
const inline = (bytes: Uint8Array): BinaryRef => ({ inline: Buffer.from(bytes).toString('base64') });
const decodeRef = (ref: BinaryRef): unknown => JSON.parse(Buffer.from((ref as { inline: string }).inline, 'base64').toString('utf8'));

/** A frame-job processor with a real NatsService (inline payloads need no connection) whose store is answered here. */
function newProcessor() {
  const config = loadConfig({});
  const nats = new NatsService(config, 'inference-worker');
  const store = jest.fn(async (_subject: string, body: unknown): Promise<unknown> => {
    const request = body as ResultsCreateManyRequest;
    return { results: request.items.map((i) => ({ jobId: i.jobId, id: randomUUID(), createdAt: '2026-11-25T10:00:00.000Z' })) } satisfies ResultsCreateManyResponse;
  });
  const sut = new FrameJobProcessor(nats, config, store as never);
  return { sut, mocks: { store } };
}

const job = (input: Uint8Array, models = [CLASSIFIER, EXTRACTOR]): { data: FrameJobData } => ({
  data: {
    ownerId: randomUUID(),
    models: models.map((model) => ({ model, resultJobId: `stream-${model}` })),
    inputFileName: 'pinchoff-f1.npy',
    inputFileSize: input.length,
    input: inline(input),
    inputSha256: '0'.repeat(64),
    requestId: 'stream:lab-a/pinchoff/f1',
  },
});

const answer = async (outcome: Awaited<ReturnType<FrameJobProcessor['process']>>) => {
  if (!outcome.ok) throw new Error(`not ok: ${outcome.error.message}`);
  return decodeRef(outcome.response.results) as FrameJobModelOutcome[];
};

describe(FrameJobProcessor.name, () => {
  it('runs every model of the frame once and stores all their results in ONE create-many request', async () => {
    const { sut, mocks } = newProcessor();
    const data = generatePinchOffTrace(7, { length: 100 }).trace;
    const results = await answer(await sut.process(job(encodeNpy({ shape: [100], data }))));
    expect(mocks.store).toHaveBeenCalledTimes(1);
    const [subject, body] = mocks.store.mock.calls[0]! as [string, ResultsCreateManyRequest];
    expect(subject).toBe(Subjects.ResultsCreateMany);
    expect(body.items.map((i) => [i.jobId, i.model])).toEqual([
      [`stream-${CLASSIFIER}`, CLASSIFIER],
      [`stream-${EXTRACTOR}`, EXTRACTOR],
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
    const results = await answer(await sut.process(job(encodeNpy({ shape: [128, 128], data: map.data }), [CLASSIFIER, 'charge-stability-diagram-segmenter-v0'])));
    expect(results[0]).toEqual({ model: CLASSIFIER, error: { code: 'invalid_input', message: 'expected a 1-D trace of length ≥ 32; got shape [128, 128]' } });
    expect(results[1]).toMatchObject({ model: 'charge-stability-diagram-segmenter-v0', resultId: expect.any(String) });
    const [, body] = mocks.store.mock.calls[0]! as [string, ResultsCreateManyRequest];
    expect(body.items.map((i) => i.model)).toEqual(['charge-stability-diagram-segmenter-v0']);
  });
});
