import { jest } from '@jest/globals';
import { createHash, randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { MODEL_CATALOGUE } from '#qdc/characterization';
import { RpcError, type BinaryRef, type InferenceJobData, type ModelsRunResponse, type Principal } from '#qdc/contracts';
import { withRequestId, type InputBlobStore, type PayloadStore, type ReceivedInput } from '#qdc/platform';
import { ApiError, ValidationFailed } from '../http/api-errors.js';
import type { MultipartUpload } from '../http/multipart-upload.js';
import type { InferenceProducer } from '#qdc/platform';
import { ModelRunService, jobIdFor } from './model-run.service.js';
import type { RunBatcher } from './run-batcher.js';
import { ModelsService } from './models.service.js';
import type { RunCountsCache } from './run-counts.cache.js';

const PEAK_V2 = 'coulomb-blockade-peak-detector-v2';

function newModelsService() {
  const resultBytes = Buffer.from('{"id":"r","output":{}}');
  const response: ModelsRunResponse = { resultId: randomUUID(), result: { inline: resultBytes.toString('base64') } };
  const nats = {
    fromBinaryRef: jest.fn(async (ref: BinaryRef) => new Uint8Array(Buffer.from((ref as { inline: string }).inline, 'base64'))),
  };
  const producer = { run: jest.fn(async (..._args: unknown[]): Promise<ModelsRunResponse> => response), isRedisReady: jest.fn(async () => true) };
  // Grouping off: these tests are about the service around the run (the batcher has its own).
  const runs = new ModelRunService(producer as unknown as InferenceProducer, { enabled: false } as unknown as RunBatcher);
  const counts = new Map<string, number>([[PEAK_V2, 5]]);
  const runCounts = { all: jest.fn(async () => counts), version: 1 };
  const inputs = { remove: jest.fn(async (_key: string) => undefined) };
  const sut = new ModelsService(nats as unknown as PayloadStore, runCounts as unknown as RunCountsCache, runs, inputs as unknown as InputBlobStore);
  return { sut, mocks: { nats, producer, runCounts, counts, response, resultBytes, inputs } };
}

const caller: Principal = { ownerId: randomUUID(), keyId: 'k', scopes: ['control'] } as Principal;
/** An upload as InputBlobStore.receive leaves it: a small file inline, or (`stored`) a large one's reference. */
const received = (stored = false): ReceivedInput => {
  const sha256 = createHash('sha256').update('npy bytes').digest('hex');
  return stored
    ? { input: { inputBlob: 'blob-1', size: 9, sha256 }, size: 9, sha256 }
    : { input: { inline: Buffer.from('npy bytes').toString('base64') }, size: 9, sha256 };
};
const upload = (fields: Record<string, string>, file = true, stored = false): MultipartUpload<ReceivedInput> => ({
  fields,
  ...(file ? { file: { fieldName: 'data', fileName: 'trace.npy', content: received(stored) } } : {}),
});

describe(ModelsService.name, () => {
  describe('run', () => {
    it('sends the upload once, by reference, as one inference job, and answers the worker’s result bytes unchanged', async () => {
      const { sut, mocks } = newModelsService();
      const answer = await withRequestId('req-9', () => sut.run(caller, upload({ model: PEAK_V2, plot: 'true' }), false));
      expect(answer.equals(mocks.resultBytes)).toBe(true);
      const [data, jobId] = mocks.producer.run.mock.calls[0] as [InferenceJobData, string];
      expect(data).toEqual({
        ownerId: caller.ownerId,
        model: PEAK_V2,
        batch: false,
        plot: true,
        darkMode: false,
        inputFileName: 'trace.npy',
        inputFileSize: 9,
        input: { inline: Buffer.from('npy bytes').toString('base64') },
        inputSha256: createHash('sha256').update('npy bytes').digest('hex'),
        requestId: 'req-9',
      });
      expect(jobId).toBe(jobIdFor(data));
    });

    it('sends a stored file by its reference, and removes it when the worker refuses it (it will never be an input)', async () => {
      const { sut, mocks } = newModelsService();
      await sut.run(caller, upload({ model: PEAK_V2 }, true, true), false);
      expect((mocks.producer.run.mock.calls[0] as [InferenceJobData])[0].input).toEqual({ inputBlob: 'blob-1', size: 9, sha256: expect.any(String) });
      expect(mocks.inputs.remove).not.toHaveBeenCalled();
      mocks.producer.run.mockRejectedValueOnce(new RpcError('invalid_input', 'expected a 1-D array'));
      await expect(sut.run(caller, upload({ model: PEAK_V2 }, true, true), false)).rejects.toMatchObject({ code: 'invalid_input' });
      expect(mocks.inputs.remove).toHaveBeenCalledWith('blob-1');
      mocks.producer.run.mockRejectedValueOnce(new RpcError('unavailable', 'results is away'));
      await expect(sut.run(caller, upload({ model: PEAK_V2 }, true, true), false)).rejects.toMatchObject({ code: 'unavailable' });
      expect(mocks.inputs.remove).toHaveBeenCalledTimes(1); // the job may still run: left to the sweep
    });

    it('never asks for a plot of a batch', async () => {
      const { sut, mocks } = newModelsService();
      await sut.run(caller, upload({ model: PEAK_V2, plot: 'true' }), true);
      expect(mocks.producer.run.mock.calls[0]![0]).toMatchObject({ batch: true, plot: false });
    });

    it.each([
      ['no model field', upload({}), ValidationFailed, 422],
      ['no file', upload({ model: PEAK_V2 }, false), ValidationFailed, 422],
      ['a bad boolean', upload({ model: PEAK_V2, plot: 'maybe' }), ValidationFailed, 422],
    ])('refuses %s before anything is sent', async (_, body, type, status) => {
      const { sut, mocks } = newModelsService();
      const error = await sut.run(caller, body, false).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(type);
      expect((error as ApiError).getStatus()).toBe(status);
      expect(mocks.producer.run).not.toHaveBeenCalled();
    });

    it('refuses an unknown model (404) before the upload moves', async () => {
      const { sut, mocks } = newModelsService();
      await expect(sut.run(caller, upload({ model: 'no-such-model' }), false)).rejects.toMatchObject({ code: 'not_found', message: 'Model not found' });
      expect(mocks.producer.run).not.toHaveBeenCalled();
    });

    it('refuses a batch of a model that does not batch, naming the ones that do', async () => {
      const { sut, mocks } = newModelsService();
      const single = MODEL_CATALOGUE.find((m) => !m.batch)!;
      const error = (await sut.run(caller, upload({ model: single.id }), true).catch((e: unknown) => e)) as RpcError;
      expect(error).toBeInstanceOf(RpcError);
      expect(error.code).toBe('invalid_input');
      expect(error.details).toEqual({ loc: ['body', 'model'], type: 'value_error.batch' });
      expect(error.message).toContain(PEAK_V2);
      expect(mocks.producer.run).not.toHaveBeenCalled();
    });
  });

  describe('listJson', () => {
    it('serves the catalogue page with run counts and rebuilds it only when a count changed', async () => {
      const { sut, mocks } = newModelsService();
      const first = await sut.listJson(0, 100);
      const page = JSON.parse(first.toString('utf8')) as { id: string; number_of_runs: number }[];
      expect(page.map((m) => m.id)).toEqual(MODEL_CATALOGUE.slice(0, 100).map((m) => m.id));
      expect(page.find((m) => m.id === PEAK_V2)!.number_of_runs).toBe(5);
      expect(await sut.listJson(0, 100)).toBe(first);
      mocks.counts.set(PEAK_V2, 6);
      mocks.runCounts.version = 2;
      const second = await sut.listJson(0, 100);
      expect(second).not.toBe(first);
      expect((JSON.parse(second.toString('utf8')) as { id: string; number_of_runs: number }[]).find((m) => m.id === PEAK_V2)!.number_of_runs).toBe(6);
    });

    it('gzips the same page when asked', async () => {
      const { sut } = newModelsService();
      expect(gunzipSync(await sut.listJson(1, 2, true)).equals(await sut.listJson(1, 2))).toBe(true);
    });
  });

  it('answers 404 for an unknown model id', async () => {
    const { sut } = newModelsService();
    await expect(sut.get('nope')).rejects.toMatchObject({ status: 404 });
    expect((await sut.get(PEAK_V2)).number_of_runs).toBe(5);
  });
});
