import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { RpcError, type FrameJobData, type FrameJobModelOutcome, type FrameJobResponse } from '#qdc/contracts';
import { NatsConnection, PayloadStore, jobIdFrom, loadConfig } from '#qdc/platform';
import type { FrameAnalysisProducer } from '#qdc/platform';
import { FrameJobBatcher } from './frame-job-batcher.js';

const OWNER = randomUUID();
const stream = { lab: 'lab-a', name: 'pinchoff', ownerId: OWNER, models: ['pinch-off-classifier-v0', 'pinch-off-parameter-extractor-v0'] };
const frame = (id = 'f-1', bytes = new Uint8Array([1, 2, 3])) => ({ frameId: id, bytes, fileName: `pinchoff-${id}.npy` });
const inline = (json: unknown) => ({ inline: Buffer.from(JSON.stringify(json)).toString('base64') });
const SHA = '039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81';
const tick = () => new Promise((r) => setImmediate(r));

/** {sut, mocks}: a real PayloadStore for inline payloads (no connection needed) and a producer answered here (held until `release`). */
function newAnalyser(jobsInFlight = 2, hold = false) {
  const config = loadConfig({});
  const nats = new PayloadStore(new NatsConnection(config, 'lab-streams'), config);
  const held: (() => void)[] = [];
  const run = jest.fn(async (data: FrameJobData, _jobId: string): Promise<FrameJobResponse> => {
    if (hold) await new Promise<void>((r) => held.push(r));
    const results: FrameJobModelOutcome[][] = data.frames.map((f) =>
      f.models.map(({ model }) => ({ model, resultId: randomUUID(), output: { classification: true, file: f.inputFileName } })),
    );
    return { results: inline(results) };
  });
  const sut = new FrameJobBatcher(nats, { run } as unknown as FrameAnalysisProducer, { QDC_STREAM_JOBS_IN_FLIGHT: jobsInFlight });
  return { sut, mocks: { run, release: () => held.shift()?.() } };
}

describe(FrameJobBatcher.name, () => {
  it('queues ONE job for all of the stream’s models, owned by the lab’s owner, each model with its own result job id', async () => {
    const { sut, mocks } = newAnalyser();
    const outcomes = await sut.analyse(stream, frame());
    expect(outcomes).toEqual([
      { model: 'pinch-off-classifier-v0', result_id: expect.any(String), output: { classification: true, file: 'pinchoff-f-1.npy' } },
      { model: 'pinch-off-parameter-extractor-v0', result_id: expect.any(String), output: { classification: true, file: 'pinchoff-f-1.npy' } },
    ]);
    expect(mocks.run).toHaveBeenCalledTimes(1);
    const [data, jobId] = mocks.run.mock.calls[0]!;
    expect(jobId).toBe(jobIdFrom('frame', [OWNER, 'lab-a', 'pinchoff', stream.models, [['f-1', SHA]]]));
    expect(data).toEqual({
      ownerId: OWNER,
      frames: [
        {
          inputFileName: 'pinchoff-f-1.npy',
          inputFileSize: 3,
          input: { inline: 'AQID' },
          inputSha256: SHA,
          models: stream.models.map((model) => ({ model, resultJobId: jobIdFrom('stream', [OWNER, 'lab-a', 'pinchoff', 'f-1', model, SHA]) })),
        },
      ],
      requestId: 'stream:lab-a/pinchoff/f-1',
    });
  });

  it('derives ids from stream, frame id, models and bytes: the same frame finds the same job and rows, other bytes do not', async () => {
    const { sut, mocks } = newAnalyser();
    await sut.analyse(stream, frame());
    await sut.analyse(stream, frame());
    await sut.analyse(stream, frame('f-1', new Uint8Array([9])));
    const ids = mocks.run.mock.calls.map(([, jobId]) => jobId);
    expect(ids[0]).toMatch(/^frame-[0-9a-f]{32}$/);
    expect(ids[1]).toBe(ids[0]);
    expect(ids[2]).not.toBe(ids[0]);
    const resultIds = mocks.run.mock.calls.map(([data]) => data.frames[0]!.models[0]!.resultJobId);
    expect(resultIds[1]).toBe(resultIds[0]);
    expect(resultIds[2]).not.toBe(resultIds[0]);
  });

  it('sends frames that arrive while the stream’s jobs run together in the next job, and answers each its own results', async () => {
    const { sut, mocks } = newAnalyser(1, true);
    const answers = ['a', 'b', 'c', 'd'].map((id) => sut.analyse(stream, frame(id, new Uint8Array([id.charCodeAt(0)]))));
    await tick();
    await tick();
    expect(mocks.run.mock.calls.map(([data]) => data.frames.map((f) => f.inputFileName))).toEqual([['pinchoff-a.npy']]);
    mocks.release();
    await answers[0];
    await tick();
    expect(mocks.run.mock.calls.map(([data]) => data.frames.map((f) => f.inputFileName))).toEqual([
      ['pinchoff-a.npy'],
      ['pinchoff-b.npy', 'pinchoff-c.npy', 'pinchoff-d.npy'],
    ]);
    expect(mocks.run.mock.calls[1]![0].requestId).toBe('stream:lab-a/pinchoff/b..d');
    mocks.release();
    const outcomes = await Promise.all(answers);
    expect(outcomes.map((o) => (o[0] as unknown as { output: { file: string } }).output.file)).toEqual([
      'pinchoff-a.npy',
      'pinchoff-b.npy',
      'pinchoff-c.npy',
      'pinchoff-d.npy',
    ]);
  });

  it('keeps large frames (maps) out of shared jobs: at most 64 KiB of input per job, a first frame always', async () => {
    const { sut, mocks } = newAnalyser(1, true);
    const big = (id: string) => frame(id, new Uint8Array(40 * 1024).fill(id.charCodeAt(0)));
    const answers = [big('a'), big('b'), big('c'), frame('d', new Uint8Array([1])), big('e')].map((f) => sut.analyse(stream, f));
    for (let i = 0; i < 4; i++) {
      await tick();
      await tick();
      mocks.release();
    }
    await Promise.all(answers);
    expect(mocks.run.mock.calls.map(([data]) => data.frames.map((f) => f.inputFileName))).toEqual([
      ['pinchoff-a.npy'],
      ['pinchoff-b.npy'],
      ['pinchoff-c.npy', 'pinchoff-d.npy'],
      ['pinchoff-e.npy'],
    ]);
  });

  it('passes a model’s refusal through as its error entry, and rejects every frame of a failed job (each is retried)', async () => {
    const { sut, mocks } = newAnalyser();
    mocks.run.mockResolvedValueOnce({
      results: inline([[{ model: 'pinch-off-classifier-v0', error: { code: 'invalid_input', message: 'expected 100 values; got 3' } }]]),
    });
    const outcomes = await sut.analyse({ ...stream, models: ['pinch-off-classifier-v0'] }, frame());
    expect(outcomes).toEqual([{ model: 'pinch-off-classifier-v0', error: { code: 'invalid_input', message: 'expected 100 values; got 3' } }]);
    mocks.run.mockRejectedValueOnce(new RpcError('timeout', 'frame analysis did not finish within 300000 ms'));
    await expect(sut.analyse({ ...stream, models: ['pinch-off-classifier-v0'] }, frame())).rejects.toThrow('frame analysis did not finish within 300000 ms');
  });
});
