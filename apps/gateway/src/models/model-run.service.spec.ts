import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { MODEL_CATALOGUE } from '#qdc/characterization';
import type { InferenceJobData, ModelsRunResponse } from '#qdc/contracts';
import { withRequestId } from '#qdc/platform';
import type { InferenceProducer } from '#qdc/platform';
import { GROUPED_RUN_MAX_INPUT_BYTES, ModelRunService, jobIdFor, type ModelRunRequest } from './model-run.service.js';
import type { RunBatcher } from './run-batcher.js';

const PEAK_V2 = 'coulomb-blockade-peak-detector-v2';

function newModelRunService(grouping = true) {
  const response: ModelsRunResponse = { resultId: randomUUID(), result: { inline: 'e30=' } };
  const producer = { run: jest.fn(async (..._args: unknown[]): Promise<ModelsRunResponse> => response), isRedisReady: jest.fn(async () => true) };
  const batcher = { enabled: grouping, run: jest.fn(async (..._args: unknown[]): Promise<ModelsRunResponse> => response) };
  return { sut: new ModelRunService(producer as unknown as InferenceProducer, batcher as unknown as RunBatcher), mocks: { producer, batcher, response } };
}

const request = (overrides: Partial<ModelRunRequest> = {}): ModelRunRequest => ({
  ownerId: '6f1c1d8e-3b0a-4d8e-9a53-2f4f7d1f0c11',
  model: PEAK_V2,
  input: { inline: 'AAAA' },
  inputSha256: 'a'.repeat(64),
  inputFileName: 'frame.npy',
  inputFileSize: 3,
  flags: { batch: false, plot: false, darkMode: false },
  ...overrides,
});

describe(ModelRunService.name, () => {
  it('adds one job with the run, the request id and meta, and answers its outcome', async () => {
    const { sut, mocks } = newModelRunService();
    expect(await sut.run(request({ requestId: 'frame-17', meta: { traceparent: '00-abc-def-01' } }))).toBe(mocks.response);
    const [data, jobId] = mocks.producer.run.mock.calls[0] as [InferenceJobData, string];
    expect(data).toEqual({
      ...request(),
      flags: undefined,
      batch: false,
      plot: false,
      darkMode: false,
      requestId: 'frame-17',
      meta: { traceparent: '00-abc-def-01' },
    });
    expect(jobId).toBe(jobIdFor(data));
    expect(mocks.producer.run.mock.calls[0]![2]).toEqual({ fresh: false }); // a caller's own id may be a retry
  });

  it('tells the producer when the request id was made by the gateway (no earlier job can have it)', async () => {
    const { sut, mocks } = newModelRunService();
    await withRequestId('http-6', () => sut.run(request({ freshRequestId: true, flags: { batch: false, plot: true, darkMode: false } })));
    expect(mocks.producer.run.mock.calls[0]![2]).toEqual({ fresh: true });
  });

  it('hands a small run whose request id the gateway made to the batcher, with the job id it would have alone', async () => {
    const { sut, mocks } = newModelRunService();
    expect(await withRequestId('http-7', () => sut.run(request({ freshRequestId: true })))).toBe(mocks.response);
    expect(mocks.producer.run).not.toHaveBeenCalled();
    const [ownerId, run] = mocks.batcher.run.mock.calls[0] as [string, Record<string, unknown>];
    expect(ownerId).toBe(request().ownerId);
    const alone: InferenceJobData = { ...request(), flags: undefined, batch: false, plot: false, darkMode: false, requestId: 'http-7' } as never;
    expect(run).toEqual({
      jobId: jobIdFor(alone),
      requestId: 'http-7',
      model: PEAK_V2,
      inputFileName: 'frame.npy',
      inputFileSize: 3,
      input: { inline: 'AAAA' },
      inputSha256: 'a'.repeat(64),
    });
  });

  it.each([
    ['the client sent its request id (a retry must find its job)', request({ freshRequestId: false })],
    ['a plot is asked for', request({ freshRequestId: true, flags: { batch: false, plot: true, darkMode: false } })],
    ['a batch run', request({ freshRequestId: true, flags: { batch: true, plot: false, darkMode: false } })],
    ['the input is in the input store', request({ freshRequestId: true, input: { inputBlob: 'k', size: 3, sha256: 'a'.repeat(64) } })],
    ['the input is larger than 64 KiB', request({ freshRequestId: true, inputFileSize: GROUPED_RUN_MAX_INPUT_BYTES + 1 })],
    ['propagated headers come with it', request({ freshRequestId: true, meta: { traceparent: '00-abc-def-01' } })],
  ])('runs alone when %s', async (_why, asked) => {
    const { sut, mocks } = newModelRunService();
    await sut.run(asked);
    expect(mocks.batcher.run).not.toHaveBeenCalled();
    expect(mocks.producer.run).toHaveBeenCalledTimes(1);
  });

  it('runs alone when grouping is off (QDC_RUN_GROUP_MAX=1)', async () => {
    const { sut, mocks } = newModelRunService(false);
    await sut.run(request({ freshRequestId: true }));
    expect(mocks.batcher.run).not.toHaveBeenCalled();
    expect(mocks.producer.run).toHaveBeenCalledTimes(1);
  });

  it('takes the current request id when none is given', async () => {
    const { sut, mocks } = newModelRunService();
    await withRequestId('http-5', () => sut.run(request()));
    expect((mocks.producer.run.mock.calls[0]![0] as InferenceJobData).requestId).toBe('http-5');
  });

  it('derives the same job id for a retried request and another for another upload or owner', () => {
    const data = (overrides: Partial<InferenceJobData> = {}): InferenceJobData => ({
      ownerId: request().ownerId,
      model: PEAK_V2,
      batch: false,
      plot: false,
      darkMode: false,
      inputFileName: 'a.npy',
      inputFileSize: 3,
      input: { inline: 'AAAA' },
      inputSha256: 'a'.repeat(64),
      requestId: 'r1',
      ...overrides,
    });
    expect(jobIdFor(data())).toBe(jobIdFor(data({ inputFileName: 'renamed.npy', deadline: 5, meta: { x: 'y' } })));
    expect(jobIdFor(data())).not.toBe(jobIdFor(data({ inputSha256: 'b'.repeat(64) })));
    expect(jobIdFor(data())).not.toBe(jobIdFor(data({ ownerId: randomUUID() })));
    expect(jobIdFor(data())).not.toBe(jobIdFor(data({ requestId: 'r2' })));
  });

  it('refuses an unknown model and a batch of a model that does not batch before anything is queued', async () => {
    const { sut, mocks } = newModelRunService();
    await expect(sut.run(request({ model: 'nope' }))).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      sut.run(request({ model: MODEL_CATALOGUE.find((m) => !m.batch)!.id, flags: { batch: true, plot: false, darkMode: false } })),
    ).rejects.toMatchObject({
      code: 'invalid_input',
      details: { loc: ['body', 'model'], type: 'value_error.batch' },
    });
    expect(mocks.producer.run).not.toHaveBeenCalled();
  });

  it('never asks for a plot of a batch', async () => {
    const { sut, mocks } = newModelRunService();
    await sut.run(request({ flags: { batch: true, plot: true, darkMode: true } }));
    expect(mocks.producer.run.mock.calls[0]![0]).toMatchObject({ batch: true, plot: false, darkMode: true });
  });
});
