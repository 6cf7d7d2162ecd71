import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { RpcError, type GroupedRun, type ModelsRunResponse, type RunGroupJobData, type RunGroupResponse } from '#qdc/contracts';
import { loadConfig, type RunGroupProducer } from '#qdc/platform';
import { RunBatcher } from './run-batcher.js';

const OWNER = randomUUID();
const OTHER = randomUUID();

const run = (name: string): GroupedRun => ({
  jobId: `run-${name}`,
  requestId: `req-${name}`,
  model: 'coulomb-blockade-peak-detector-v2',
  inputFileName: `${name}.npy`,
  inputFileSize: 1152,
  input: { inline: 'AAAA' },
  inputSha256: '0'.repeat(64),
});

/** Each run answered with a result id derived from its job id. */
const answers = (data: RunGroupJobData): RunGroupResponse => ({
  runs: data.runs.map((r) => ({ ok: true, response: { resultId: `result-of-${r.jobId}`, result: { inline: '' } } })),
});

/** A batcher whose producer's jobs finish only when the test says so (`jobs[k].finish()`). */
function newBatcher(env: Record<string, string> = {}, workers = 1) {
  const jobs: { data: RunGroupJobData; jobId: string; finish: (answer?: RunGroupResponse | Error) => void }[] = [];
  const producer = {
    run: jest.fn(
      (data: RunGroupJobData, jobId: string, _options?: { fresh?: boolean }) =>
        new Promise<RunGroupResponse>((resolve, reject) => {
          jobs.push({ data, jobId, finish: (answer) => (answer instanceof Error ? reject(answer) : resolve(answer ?? answers(data))) });
        }),
    ),
    queue: { getWorkersCount: jest.fn(async () => workers) },
  };
  const sut = new RunBatcher(producer as unknown as RunGroupProducer, loadConfig({ QDC_RUN_GROUP_WAIT_MS: '1000', QDC_RUN_GROUP_CONCURRENCY: '1', ...env }));
  return { sut, mocks: { producer, jobs } };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const resultIds = (responses: ModelsRunResponse[]) => responses.map((r) => r.resultId);

describe(RunBatcher.name, () => {
  it('sends a run at once, as a group of one, while a worker slot is free (a concurrency-1 client never waits)', async () => {
    const { sut, mocks } = newBatcher();
    const answer = sut.run(OWNER, run('a'));
    expect(mocks.producer.run).toHaveBeenCalledTimes(1);
    expect(mocks.jobs[0]!.data).toMatchObject({ ownerId: OWNER, runs: [run('a')] });
    expect(mocks.jobs[0]!.jobId).toMatch(/^group-[0-9a-f-]{36}$/);
    expect(mocks.producer.run.mock.calls[0]![2]).toEqual({ fresh: true });
    mocks.jobs[0]!.finish();
    await expect(answer).resolves.toEqual({ resultId: 'result-of-run-a', result: { inline: '' } });
  });

  it('groups the runs that come while every slot is busy and sends them as one job when a group comes back', async () => {
    const { sut, mocks } = newBatcher(); // 1 worker × 1 group at a time + 1 = 2 slots
    await settle(); // the worker count has been read
    const first = [sut.run(OWNER, run('a')), sut.run(OWNER, run('b'))];
    expect(mocks.jobs).toHaveLength(2);
    const waiting = ['c', 'd', 'e'].map((name) => sut.run(OWNER, run(name)));
    expect(mocks.jobs).toHaveLength(2);

    mocks.jobs[0]!.finish();
    await settle();

    expect(mocks.jobs).toHaveLength(3);
    expect(mocks.jobs[2]!.data.runs.map((r) => r.jobId)).toEqual(['run-c', 'run-d', 'run-e']);
    mocks.jobs[1]!.finish();
    mocks.jobs[2]!.finish();
    expect(resultIds(await Promise.all([...first, ...waiting]))).toEqual(['a', 'b', 'c', 'd', 'e'].map((n) => `result-of-run-${n}`));
  });

  it('sends a full group at once (QDC_RUN_GROUP_MAX) and a forming one after QDC_RUN_GROUP_WAIT_MS', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      const { sut, mocks } = newBatcher({ QDC_RUN_GROUP_MAX: '3', QDC_RUN_GROUP_WAIT_MS: '5' });
      await settle();
      void sut.run(OWNER, run('a'));
      void sut.run(OWNER, run('b'));
      for (const name of ['c', 'd', 'e']) void sut.run(OWNER, run(name));
      expect(mocks.jobs.map((j) => j.data.runs.length)).toEqual([1, 1, 3]);

      void sut.run(OWNER, run('f'));
      jest.advanceTimersByTime(4);
      expect(mocks.jobs).toHaveLength(3);
      jest.advanceTimersByTime(1);
      expect(mocks.jobs).toHaveLength(4);
      expect(mocks.jobs[3]!.data.runs.map((r) => r.jobId)).toEqual(['run-f']);
    } finally {
      jest.useRealTimers();
    }
  });

  it('forms one group per owner (a group is stored under its owner)', async () => {
    const { sut, mocks } = newBatcher();
    await settle();
    void sut.run(OWNER, run('a'));
    void sut.run(OWNER, run('b'));
    void sut.run(OWNER, run('c'));
    void sut.run(OTHER, run('x'));
    void sut.run(OWNER, run('d'));
    mocks.jobs[0]!.finish();
    await settle();
    mocks.jobs[1]!.finish();
    await settle();
    expect(mocks.jobs.slice(2).map((j) => [j.data.ownerId, j.data.runs.map((r) => r.jobId)])).toEqual([
      [OWNER, ['run-c', 'run-d']],
      [OTHER, ['run-x']],
    ]);
  });

  it("answers each run its own error, and the group's failure to every run of it", async () => {
    const { sut, mocks } = newBatcher();
    await settle();
    const a = sut.run(OWNER, run('a'));
    const b = sut.run(OWNER, run('b'));
    const c = sut.run(OWNER, run('c'));
    const d = sut.run(OWNER, run('d'));
    mocks.jobs[0]!.finish({ runs: [{ ok: false, error: { code: 'invalid_input', message: 'expected a 1-D trace', details: { type: 'value_error' } } }] });
    await expect(a).rejects.toEqual(new RpcError('invalid_input', 'expected a 1-D trace', { type: 'value_error' }));
    await settle();
    expect(mocks.jobs[2]!.data.runs.map((r) => r.jobId)).toEqual(['run-c', 'run-d']);
    mocks.jobs[1]!.finish();
    await expect(b).resolves.toMatchObject({ resultId: 'result-of-run-b' });
    mocks.jobs[2]!.finish(new RpcError('unavailable', 'the job queue (Redis) is not reachable; retry'));
    await expect(c).rejects.toMatchObject({ code: 'unavailable' });
    await expect(d).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('refuses an answer with another number of outcomes than runs (internal), never mixing answers up', async () => {
    const { sut, mocks } = newBatcher();
    const a = sut.run(OWNER, run('a'));
    mocks.jobs[0]!.finish({ runs: [] });
    await expect(a).rejects.toMatchObject({ code: 'internal' });
  });

  it('is off with QDC_RUN_GROUP_MAX=1', () => {
    expect(newBatcher({ QDC_RUN_GROUP_MAX: '1' }).sut.enabled).toBe(false);
    expect(newBatcher().sut.enabled).toBe(true);
  });
});
