import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { ResultsEvents, RpcError, type BinaryRef, type InputRef, type ResultsCreateRequest } from '#qdc/contracts';
import type { EventBus, InputBlobStore, PayloadStore } from '#qdc/platform';
import { StagedInputMissing, type ResultsRepository } from './results.repository.js';
import { ResultsService } from './results.service.js';

const inline = (text: string): BinaryRef => ({ inline: Buffer.from(text).toString('base64') });
const fromInline = async (ref: BinaryRef): Promise<Uint8Array> => {
  if ('inline' in ref) return new Uint8Array(Buffer.from(ref.inline, 'base64'));
  return new Uint8Array(Buffer.from(`object ${ref.objectKey}`));
};

function newResultsService() {
  const repository = {
    hasStagedInput: jest.fn(async () => false),
    findByJobId: jest.fn(async (): Promise<{ id: string; ownerId: string; model: string; createdAt: Date } | null> => null),
    createWithRun: jest.fn(async () => ({ createdAt: new Date('2026-11-25T12:00:00Z'), numberOfRuns: 3 })),
    voteOf: jest.fn(async (): Promise<number | null> => null),
    stageInput: jest.fn(async () => undefined),
    findOwned: jest.fn(async (): Promise<unknown> => null),
    deleteOwned: jest.fn(async (): Promise<{ deleted: boolean; unreferencedBlob: string | null }> => ({ deleted: false, unreferencedBlob: null })),
    blobReferences: jest.fn(async (_keys: readonly string[]) => new Set<string>()),
    inputFile: jest.fn(async (): Promise<unknown> => null as unknown),
    deleteVote: jest.fn(async () => false),
  };
  const nats = {
    fromBinaryRef: jest.fn(fromInline),
    toBinaryRef: jest.fn(async (bytes: Uint8Array) => inline(Buffer.from(bytes).toString())),
    publish: jest.fn(async () => undefined),
  };
  const inputs = {
    remove: jest.fn(async (_key: string) => undefined),
    keysWrittenBefore: jest.fn(async (_before: Date): Promise<string[]> => []),
  };
  const sut = new ResultsService(
    repository as unknown as ResultsRepository,
    nats as unknown as PayloadStore,
    nats as unknown as EventBus,
    inputs as unknown as InputBlobStore,
  );
  return { sut, mocks: { repository, nats, inputs } };
}

const output = '{"peak_indices":[3]}';
const request = (input: InputRef): ResultsCreateRequest => ({
  ownerId: randomUUID(),
  jobId: 'run-1',
  model: 'coulomb-blockade-peak-detector-v2',
  inputFileName: 'a.npy',
  inputFileSize: 5,
  input,
  batchSize: null,
  output: inline(output),
});

describe(ResultsService.name, () => {
  describe('create', () => {
    it('stores a small input with the output text as sent, counts the run and announces the counter', async () => {
      const { sut, mocks } = newResultsService();
      const answer = await sut.create(request(inline('bytes')));
      expect(answer).toEqual({ id: expect.any(String), createdAt: '2026-11-25T12:00:00.000Z', userVote: null });
      expect(mocks.repository.createWithRun).toHaveBeenCalledWith(
        expect.objectContaining({ id: answer.id, jobId: 'run-1', outputJson: output, input: { bytes: new Uint8Array(Buffer.from('bytes')) } }),
      );
      expect(mocks.repository.hasStagedInput).not.toHaveBeenCalled();
      await afterReply();
      expect(mocks.nats.publish).toHaveBeenCalledWith(ResultsEvents.runRecorded, { model: 'coulomb-blockade-peak-detector-v2', numberOfRuns: 3 });
    });

    it('links a staged input instead of fetching it again', async () => {
      const { sut, mocks } = newResultsService();
      mocks.repository.hasStagedInput.mockResolvedValue(true);
      await sut.create(request({ objectKey: 'big', size: 10 }));
      expect(mocks.repository.createWithRun).toHaveBeenCalledWith(expect.objectContaining({ input: null }));
      expect(mocks.nats.fromBinaryRef).toHaveBeenCalledTimes(1); // the output only
    });

    it('answers a retried job from the stored row without fetching its input or counting again', async () => {
      const { sut, mocks } = newResultsService();
      const stored = { id: randomUUID(), ownerId: randomUUID(), model: 'm', createdAt: new Date('2026-01-01T00:00:00Z') };
      mocks.repository.findByJobId.mockResolvedValue(stored);
      mocks.repository.voteOf.mockResolvedValue(1);
      expect(await sut.create(request({ objectKey: 'expired', size: 10 }))).toEqual({ id: stored.id, createdAt: '2026-01-01T00:00:00.000Z', userVote: 1 });
      expect(mocks.repository.createWithRun).not.toHaveBeenCalled();
      expect(mocks.nats.fromBinaryRef).not.toHaveBeenCalled();
      await afterReply();
      expect(mocks.nats.publish).not.toHaveBeenCalled();
    });

    it('answers from the stored row when the insert hits the unique job id (two deliveries raced)', async () => {
      const { sut, mocks } = newResultsService();
      const stored = { id: randomUUID(), ownerId: randomUUID(), model: 'm', createdAt: new Date('2026-02-01T00:00:00Z') };
      mocks.repository.createWithRun.mockRejectedValue(Object.assign(new Error('duplicate key'), { code: '23505' }));
      mocks.repository.findByJobId.mockResolvedValue(stored);
      expect(await sut.create(request(inline('x')))).toMatchObject({ id: stored.id, userVote: null });
    });

    it('fetches and stores the input when its staged copy vanished before the link', async () => {
      const { sut, mocks } = newResultsService();
      mocks.repository.hasStagedInput.mockResolvedValue(true);
      mocks.repository.createWithRun.mockRejectedValueOnce(new StagedInputMissing('run-1'));
      await sut.create(request({ objectKey: 'big', size: 10 }));
      expect(mocks.repository.createWithRun).toHaveBeenCalledTimes(2);
      expect(mocks.repository.createWithRun).toHaveBeenLastCalledWith(expect.objectContaining({ input: { bytes: new Uint8Array(Buffer.from('object big')) } }));
    });

    it('stores a stored input by its reference, without fetching its bytes', async () => {
      const { sut, mocks } = newResultsService();
      const sha256 = 'ab'.repeat(32);
      await sut.create(request({ inputBlob: 'blob-1', size: 600_000, sha256 }));
      expect(mocks.repository.createWithRun).toHaveBeenCalledWith(expect.objectContaining({ input: { blobKey: 'blob-1', sha256 } }));
      expect(mocks.nats.fromBinaryRef).toHaveBeenCalledTimes(1); // the output only
      expect(mocks.repository.hasStagedInput).not.toHaveBeenCalled();
    });

    it('passes other database errors on', async () => {
      const { sut, mocks } = newResultsService();
      mocks.repository.createWithRun.mockRejectedValue(new Error('connection reset'));
      await expect(sut.create(request(inline('x')))).rejects.toThrow('connection reset');
    });
  });

  it('answers not_found for a result the caller does not own', async () => {
    const { sut } = newResultsService();
    await expect(sut.get(randomUUID(), randomUUID())).rejects.toEqual(new RpcError('not_found', 'Model result not found'));
    await expect(sut.delete(randomUUID(), randomUUID())).rejects.toMatchObject({ code: 'not_found' });
    await expect(sut.download(randomUUID(), randomUUID())).rejects.toMatchObject({ code: 'not_found' });
  });

  describe('stored inputs', () => {
    it('removes a deleted result’s stored input when no other row names it, and only then', async () => {
      const { sut, mocks } = newResultsService();
      mocks.repository.deleteOwned.mockResolvedValueOnce({ deleted: true, unreferencedBlob: 'blob-1' });
      await sut.delete('o', randomUUID());
      expect(mocks.inputs.remove).toHaveBeenCalledWith('blob-1');
      mocks.repository.deleteOwned.mockResolvedValueOnce({ deleted: true, unreferencedBlob: null });
      await sut.delete('o', randomUUID());
      expect(mocks.inputs.remove).toHaveBeenCalledTimes(1);
    });

    it('answers a download of a stored input with its reference (the gateway streams it), of an older row with its bytes', async () => {
      const { sut, mocks } = newResultsService();
      const row = { id: 'r', model: 'm', createdAt: new Date(0), inputFileName: 'a.npy', inputFileSize: 5, batchSize: null, output: {}, votes: [] };
      mocks.repository.findOwned.mockResolvedValue(row);
      mocks.repository.inputFile.mockResolvedValueOnce({ name: 'a.npy', size: 5, bytes: null, blobKey: 'blob-1', sha256: 'cd'.repeat(32) });
      expect((await sut.download('o', 'r')).input).toEqual({ inputBlob: 'blob-1', size: 5, sha256: 'cd'.repeat(32) });
      mocks.repository.inputFile.mockResolvedValueOnce({ name: 'a.npy', size: 5, bytes: new Uint8Array(Buffer.from('bytes')), blobKey: null, sha256: null });
      expect((await sut.download('o', 'r')).input).toEqual(inline('bytes'));
    });

    it('sweeps stored inputs that no row names, keeping the named ones', async () => {
      const { sut, mocks } = newResultsService();
      mocks.inputs.keysWrittenBefore.mockResolvedValue(['named', 'orphan']);
      mocks.repository.blobReferences.mockResolvedValue(new Set(['named']));
      expect(await sut.sweepUnreferencedInputs(3_600_000)).toBe(1);
      expect(mocks.inputs.remove.mock.calls).toEqual([['orphan']]);
    });
  });

  it('answers "Vote not found" when there is no vote to remove', async () => {
    const { sut, mocks } = newResultsService();
    mocks.repository.findOwned.mockResolvedValue({ id: 'r' });
    await expect(sut.deleteVote('o', 'r')).rejects.toEqual(new RpcError('not_found', 'Vote not found'));
  });

  it('returns a stored result in the API shape with the caller’s vote', async () => {
    const { sut, mocks } = newResultsService();
    const createdAt = new Date('2026-03-01T00:00:00Z');
    mocks.repository.findOwned.mockResolvedValue({
      id: 'r',
      model: 'm',
      createdAt,
      inputFileName: 'a.npy',
      inputFileSize: 5,
      batchSize: null,
      output: { x: 1 },
      votes: [{ vote: -1 }],
    });
    expect(await sut.get('o', 'r')).toEqual({
      id: 'r',
      model: 'm',
      created_at: '2026-03-01T00:00:00.000Z',
      input_file_name: 'a.npy',
      input_file_size: 5,
      output: { x: 1 },
      user_vote: -1,
    });
  });
});

/** The run-count event goes after the reply (ResultsService.announceRuns). */
function afterReply(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
