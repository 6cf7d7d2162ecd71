import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { ResultsEvents, RpcError, type BinaryRef, type ResultsCreateManyRequest } from '#qdc/contracts';
import type { EventBus, InputBlobStore, PayloadStore } from '#qdc/platform';
import type { ResultsRepository } from './results.repository.js';
import { ResultsService } from './results.service.js';

const inline = (text: string): BinaryRef => ({ inline: Buffer.from(text).toString('base64') });
const bytes = (text: string) => new Uint8Array(Buffer.from(text));
const AT = new Date('2026-11-25T12:00:00Z');

type Created = { jobId: string; id: string; model: string; createdAt: Date; runs: number };

/** A ResultsService whose repository stores into a map keyed by job id, as ON CONFLICT (job_id) DO NOTHING does. */
function newService() {
  const rows = new Map<string, { id: string; createdAt: Date }>();
  const runs = new Map<string, number>();
  const repository = {
    createManyWithRuns: jest.fn(async (_owner: string, items: { id: string; jobId: string; model: string }[]): Promise<Created[]> => {
      const created: Created[] = [];
      for (const item of items) {
        if (rows.has(item.jobId)) continue;
        rows.set(item.jobId, { id: item.id, createdAt: AT });
        runs.set(item.model, (runs.get(item.model) ?? 0) + 1);
        created.push({ jobId: item.jobId, id: item.id, model: item.model, createdAt: AT, runs: 0 });
      }
      return created.map((c) => ({ ...c, runs: runs.get(c.model)! }));
    }),
    findManyByJobId: jest.fn(async (jobIds: readonly string[]) => jobIds.filter((j) => rows.has(j)).map((j) => ({ jobId: j, ...rows.get(j)! }))),
  };
  const nats = {
    fromBinaryRef: jest.fn(async (ref: BinaryRef) => new Uint8Array(Buffer.from((ref as { inline: string }).inline, 'base64'))),
    publish: jest.fn(async () => undefined),
  };
  const sut = new ResultsService(
    repository as unknown as ResultsRepository,
    nats as unknown as PayloadStore,
    nats as unknown as EventBus,
    {} as InputBlobStore,
  );
  return { sut, mocks: { repository, nats, rows } };
}

const OWNER = randomUUID();
const request = (jobIds: [string, string, number][]): ResultsCreateManyRequest => ({
  ownerId: OWNER,
  inputs: [
    { inputFileName: 'f0.npy', inputFileSize: 2, input: inline('f0') },
    { inputFileName: 'f1.npy', inputFileSize: 2, input: inline('f1') },
  ],
  items: jobIds.map(([jobId, model, input]) => ({ jobId, model, input, output: inline(`{"of":"${jobId}"}`) })),
});

describe('ResultsService.createMany (the results of analyse-frame jobs, one insert)', () => {
  it('stores every item with its own frame’s input and its output text in one call, and announces each model’s counter once', async () => {
    const { sut, mocks } = newService();
    const answer = await sut.createMany(
      request([
        ['a-clf', 'clf', 0],
        ['a-ext', 'ext', 0],
        ['b-clf', 'clf', 1],
      ]),
    );
    expect(mocks.repository.createManyWithRuns).toHaveBeenCalledTimes(1);
    const [owner, items] = mocks.repository.createManyWithRuns.mock.calls[0]!;
    expect(owner).toBe(OWNER);
    expect(items).toEqual([
      {
        id: expect.any(String),
        jobId: 'a-clf',
        model: 'clf',
        outputJson: '{"of":"a-clf"}',
        inputFileName: 'f0.npy',
        inputFileSize: 2,
        inputBytes: bytes('f0'),
      },
      {
        id: expect.any(String),
        jobId: 'a-ext',
        model: 'ext',
        outputJson: '{"of":"a-ext"}',
        inputFileName: 'f0.npy',
        inputFileSize: 2,
        inputBytes: bytes('f0'),
      },
      {
        id: expect.any(String),
        jobId: 'b-clf',
        model: 'clf',
        outputJson: '{"of":"b-clf"}',
        inputFileName: 'f1.npy',
        inputFileSize: 2,
        inputBytes: bytes('f1'),
      },
    ]);
    expect(answer.results.map((r) => [r.jobId, r.id, r.createdAt])).toEqual(items.map((i) => [i.jobId, i.id, AT.toISOString()]));
    await afterReply();
    expect(mocks.nats.publish.mock.calls).toEqual([
      [ResultsEvents.runRecorded, { model: 'clf', numberOfRuns: 2 }],
      [ResultsEvents.runRecorded, { model: 'ext', numberOfRuns: 1 }],
    ]);
    expect(mocks.repository.findManyByJobId).not.toHaveBeenCalled();
  });

  it('answers items stored before (a redelivered frame) from their rows, in item order, without counting them again', async () => {
    const { sut, mocks } = newService();
    const first = await sut.createMany(request([['a-clf', 'clf', 0]]));
    await afterReply();
    mocks.nats.publish.mockClear();
    const again = await sut.createMany(
      request([
        ['a-clf', 'clf', 0],
        ['b-clf', 'clf', 1],
      ]),
    );
    expect(again.results[0]).toEqual(first.results[0]);
    expect(again.results[1]!.jobId).toBe('b-clf');
    expect(mocks.rows.size).toBe(2);
    expect(mocks.repository.findManyByJobId).toHaveBeenCalledWith(['a-clf']);
    await afterReply();
    expect(mocks.nats.publish.mock.calls).toEqual([[ResultsEvents.runRecorded, { model: 'clf', numberOfRuns: 2 }]]);
  });

  it('refuses an item naming an input the request does not have (422 naming both)', async () => {
    const { sut, mocks } = newService();
    await expect(sut.createMany(request([['a', 'clf', 2]]))).rejects.toEqual(new RpcError('invalid_input', 'item 0 names input 2; the request has 2'));
    expect(mocks.repository.createManyWithRuns).not.toHaveBeenCalled();
  });
});

/** The run-count event goes after the reply (ResultsService.announceRuns). */
function afterReply(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
