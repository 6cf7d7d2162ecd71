import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { MODEL_CATALOGUE } from '#qdc/characterization';
import type { InferenceJobData, ModelsRunResponse } from '#qdc/contracts';
import { withRequestId } from '#qdc/platform';
import type { InferenceProducer } from '#qdc/platform';
import { ModelRunService, jobIdFor, type ModelRunRequest } from './model-run.service.js';

const PEAK_V2 = 'coulomb-blockade-peak-detector-v2';

function newModelRunService() {
  const response: ModelsRunResponse = { resultId: randomUUID(), result: { inline: 'e30=' } };
  const producer = { run: jest.fn(async (..._args: unknown[]): Promise<ModelsRunResponse> => response), isRedisReady: jest.fn(async () => true) };
  return { sut: new ModelRunService(producer as unknown as InferenceProducer), mocks: { producer, response } };
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
    await withRequestId('http-6', () => sut.run(request({ freshRequestId: true })));
    expect(mocks.producer.run.mock.calls[0]![2]).toEqual({ fresh: true });
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
