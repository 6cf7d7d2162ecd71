import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { RpcError, type InferenceJobData, type ModelsRunResponse } from '#qdc/contracts';
import { NatsService, loadConfig } from '#qdc/platform';
import type { InferenceProducer } from '#qdc/platform';
import { FrameAnalyser } from './frame-analyser.js';

const OWNER = randomUUID();
const stream = { lab: 'lab-a', name: 'pinchoff', ownerId: OWNER, models: ['pinch-off-classifier-v0', 'pinch-off-parameter-extractor-v0'] };
const frame = { frameId: 'f-1', bytes: new Uint8Array([1, 2, 3]), fileName: 'pinchoff-f-1.npy' };
const inline = (json: unknown) => ({ inline: Buffer.from(JSON.stringify(json)).toString('base64') });

/** {sut, mocks}: a real NatsService for inline payloads (no connection needed) and a producer answered here. */
function newAnalyser() {
  const nats = new NatsService(loadConfig({}), 'lab-streams');
  const run = jest.fn(async (data: InferenceJobData, _jobId: string): Promise<ModelsRunResponse> => {
    const id = randomUUID();
    return { resultId: id, result: inline({ id, model: data.model, output: { classification: true } }) };
  });
  const sut = new FrameAnalyser(nats, { run } as unknown as InferenceProducer);
  return { sut, mocks: { run } };
}

describe(FrameAnalyser.name, () => {
  it('queues one inference job per model, owned by the lab’s owner, like an upload of POST /models', async () => {
    const { sut, mocks } = newAnalyser();
    const outcomes = await sut.analyse(stream, frame);
    expect(outcomes).toEqual([
      { model: 'pinch-off-classifier-v0', result_id: expect.any(String), output: { classification: true } },
      { model: 'pinch-off-parameter-extractor-v0', result_id: expect.any(String), output: { classification: true } },
    ]);
    const [data] = mocks.run.mock.calls[0]!;
    expect(data).toEqual({
      ownerId: OWNER,
      model: 'pinch-off-classifier-v0',
      batch: false,
      plot: false,
      darkMode: false,
      inputFileName: 'pinchoff-f-1.npy',
      inputFileSize: 3,
      input: { inline: 'AQID' },
      inputSha256: '039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81',
      requestId: 'stream:lab-a/pinchoff/f-1',
    });
  });

  it('derives job ids from stream, frame id, model and bytes: the same frame finds the same jobs, other bytes do not', async () => {
    const { sut, mocks } = newAnalyser();
    await sut.analyse(stream, frame);
    await sut.analyse(stream, frame);
    await sut.analyse(stream, { ...frame, bytes: new Uint8Array([9]) });
    const ids = mocks.run.mock.calls.map(([, jobId]) => jobId);
    expect(ids[0]).toMatch(/^stream-[0-9a-f]{32}$/);
    expect(ids.slice(2, 4)).toEqual(ids.slice(0, 2));
    expect(new Set([ids[0], ids[1], ids[4], ids[5]]).size).toBe(4);
  });

  it('answers an input a model refuses as that model’s error, and lets other failures reach the caller (retried)', async () => {
    const { sut, mocks } = newAnalyser();
    mocks.run.mockRejectedValueOnce(new RpcError('invalid_input', 'expected 100 values; got 3'));
    const outcomes = await sut.analyse({ ...stream, models: ['pinch-off-classifier-v0'] }, frame);
    expect(outcomes).toEqual([{ model: 'pinch-off-classifier-v0', error: { code: 'invalid_input', message: 'expected 100 values; got 3' } }]);
    mocks.run.mockRejectedValueOnce(new RpcError('timeout', 'inference did not finish within 300000 ms'));
    await expect(sut.analyse({ ...stream, models: ['pinch-off-classifier-v0'] }, frame)).rejects.toThrow('inference did not finish within 300000 ms');
  });
});
