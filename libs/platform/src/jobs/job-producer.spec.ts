import { jest } from '@jest/globals';
import { z } from 'zod';
import { defineJob } from '#qdc/contracts';
import { loadConfig } from '../config/config.js';
import { JobProducer, jobRecordFrom, type JobOutcome, type ProducerQueue } from './job-producer.js';

const Numbers = defineJob({ queue: 'inference', name: 'run-model', data: z.object({ requestId: z.string(), n: z.number() }), outcome: z.string() });
type Data = z.infer<typeof Numbers.data>;
type Fields = (string | null)[];

const MISSING: Fields = [null, null, null, null];
const PENDING: Fields = ['run-model', null, null, null];
const completed = (outcome: JobOutcome<string>, finishedOn = Date.now()): Fields => ['run-model', String(finishedOn), JSON.stringify(outcome), null];
const FAILED: Fields = ['run-model', String(Date.now()), null, 'boom'];

/**
 * A producer over a fake BullMQ queue (its Redis client answers HMGET from `records`, one per call, the last one
 * repeating) and a fake NATS whose outcome message the test resolves.
 */
function newProducer(options: { records?: Fields[]; status?: string; pollMs?: number; timeoutMs?: number; answerTtlMs?: number } = {}) {
  const records = [...(options.records ?? [MISSING])];
  const client = {
    status: options.status ?? 'ready',
    hmget: jest.fn(async (..._args: unknown[]) => (records.length > 1 ? records.shift()! : records[0]!)),
  };
  const queue = {
    add: jest.fn(async (..._args: unknown[]) => ({})),
    remove: jest.fn(async (..._args: unknown[]) => 1),
    getBackend: () => ({ client: Promise.resolve(client) }),
    toKey: (id: string) => `ns:bull:inference:${id}`,
    close: jest.fn(async () => undefined),
    getWorkersCount: jest.fn(async () => 1),
  };
  let onMessage: (subject: string, outcome: JobOutcome<string>) => void = () => undefined;
  let inbox = '';
  const nats = {
    listenOn: jest.fn((subject: string, listener: typeof onMessage) => {
      inbox = subject.replace(/\.\*$/, '');
      onMessage = listener;
    }),
  };
  const sut = new JobProducer(
    loadConfig({}),
    nats as never,
    Numbers,
    {
      timeoutMs: options.timeoutMs ?? 5000,
      what: 'inference',
      pollMs: options.pollMs ?? 20,
      answerTtlMs: options.answerTtlMs,
    },
    queue as unknown as ProducerQueue,
  );
  // The worker publishes on `<the inbox named in the job>.<job id>`.
  const hear = (outcome: JobOutcome<string>, jobId = 'run-1') => onMessage(`${inbox}.${jobId}`, outcome);
  return { sut, mocks: { queue, client, nats, hear } };
}

const data: Data = { requestId: 'req-1', n: 7 };

describe(JobProducer.name, () => {
  it('adds the job under its id with a deadline and answers the outcome the worker publishes', async () => {
    const { sut, mocks } = newProducer({ records: [MISSING, PENDING], pollMs: 60_000 });
    const before = Date.now();
    const answer = sut.run(data, 'run-1');
    await new Promise((resolve) => setImmediate(resolve));
    mocks.hear({ ok: true, response: 'stored' });
    expect(await answer).toBe('stored');
    const [name, job, opts] = mocks.queue.add.mock.calls[0] as [string, Data & { outcomeInbox: string; deadline: number }, { jobId: string }];
    expect([name, opts]).toEqual(['run-model', { jobId: 'run-1' }]);
    expect(job).toMatchObject({ requestId: 'req-1', n: 7 });
    expect(job.outcomeInbox).toMatch(/^jobs\.inference\.outcome\.[0-9a-f-]{36}$/);
    expect(mocks.nats.listenOn).toHaveBeenCalledWith(`${job.outcomeInbox}.*`, expect.any(Function));
    expect(job.deadline).toBeGreaterThanOrEqual(before + 5000);
    expect(mocks.client.hmget).toHaveBeenCalledTimes(1); // the record before the add, in the same round trip
  });

  it('does not read the record of a fresh job id before adding it (a request id made by the service)', async () => {
    const { sut, mocks } = newProducer({ records: [completed({ ok: true, response: 'old answer' })], pollMs: 60_000 });
    const answer = sut.run(data, 'run-1', { fresh: true });
    await new Promise((resolve) => setImmediate(resolve));
    mocks.hear({ ok: true, response: 'stored' });
    expect(await answer).toBe('stored');
    expect(mocks.client.hmget).not.toHaveBeenCalled();
    expect(mocks.queue.add).toHaveBeenCalledTimes(1);
  });

  it('hears all its jobs on one subscription, each caller its own job’s outcome', async () => {
    const { sut, mocks } = newProducer({ records: [MISSING], pollMs: 60_000 });
    const first = sut.run(data, 'run-1');
    const second = sut.run({ ...data, n: 8 }, 'run-2');
    const retried = sut.run(data, 'run-1'); // the same request again, while the first waits
    await new Promise((resolve) => setImmediate(resolve));
    mocks.hear({ ok: true, response: 'two' }, 'run-2');
    mocks.hear({ ok: true, response: 'one' }, 'run-1');
    expect(await Promise.all([first, second, retried])).toEqual(['one', 'two', 'one']);
    expect(mocks.nats.listenOn).toHaveBeenCalledTimes(1);
    mocks.hear({ ok: true, response: 'late duplicate' }, 'run-1'); // nobody waits any more: ignored
  });

  it('turns an error outcome into an RpcError with its code', async () => {
    const { sut, mocks } = newProducer({ pollMs: 60_000 });
    const answer = sut.run(data, 'run-1');
    await new Promise((resolve) => setImmediate(resolve));
    mocks.hear({ ok: false, error: { code: 'invalid_input', message: 'expected a 1-D array', details: { type: 'value_error' } } });
    await expect(answer).rejects.toMatchObject({ code: 'invalid_input', message: 'expected a 1-D array' });
  });

  it('answers a retried request from its finished job without adding it again or waiting', async () => {
    const { sut, mocks } = newProducer({ records: [completed({ ok: true, response: 'first answer' })], pollMs: 60_000 });
    expect(await sut.run(data, 'run-1')).toBe('first answer');
    expect(mocks.queue.remove).not.toHaveBeenCalled();
    expect(mocks.queue.add).toHaveBeenCalledTimes(1); // BullMQ ignores the add of an existing id
  });

  it.each([
    ['failed', FAILED],
    ['answered 503 (results was away)', completed({ ok: false, error: { code: 'unavailable', message: 'results away' } })],
    ['too old to answer from', completed({ ok: true, response: 'old', finishedAt: Date.now() - 120_000 })],
  ])('runs a retried request again when its job %s', async (_, record) => {
    const { sut, mocks } = newProducer({ records: [record, PENDING], pollMs: 60_000, answerTtlMs: 60_000 });
    const answer = sut.run(data, 'run-1');
    await new Promise((resolve) => setTimeout(resolve, 5));
    mocks.hear({ ok: true, response: 'rerun' });
    expect(await answer).toBe('rerun');
    expect(mocks.queue.remove).toHaveBeenCalledWith('run-1');
    expect(mocks.queue.add).toHaveBeenCalledTimes(2);
  });

  it('reads the job when no outcome is heard (a lost reply) and answers its return value', async () => {
    const { sut } = newProducer({ records: [MISSING, PENDING, completed({ ok: true, response: 'from redis' })] });
    expect(await sut.run(data, 'run-1')).toBe('from redis');
  });

  it('adds a job that Redis lost once more, and answers 503 when it is lost again', async () => {
    const once = newProducer({ records: [MISSING, MISSING, PENDING, completed({ ok: true, response: 'second try' })] });
    expect(await once.sut.run(data, 'run-1')).toBe('second try');
    expect(once.mocks.queue.add).toHaveBeenCalledTimes(2);

    const twice = newProducer({ records: [MISSING, MISSING] });
    await expect(twice.sut.run(data, 'run-1')).rejects.toMatchObject({ code: 'unavailable', message: expect.stringContaining('lost by the job queue twice') });
    expect(twice.mocks.queue.add).toHaveBeenCalledTimes(2);
  });

  it('answers internal for a job that failed, timeout at the deadline', async () => {
    const failed = newProducer({ records: [MISSING, FAILED] });
    await expect(failed.sut.run(data, 'run-1')).rejects.toMatchObject({ code: 'internal', message: 'inference job run-1 failed: boom' });
    const slow = newProducer({ records: [MISSING, PENDING], timeoutMs: 80 });
    await expect(slow.sut.run(data, 'run-1')).rejects.toMatchObject({ code: 'timeout', message: 'inference did not finish within 80 ms' });
  });

  it('answers 503 at once while Redis is not connected', async () => {
    const { sut, mocks } = newProducer({ status: 'reconnecting' });
    await expect(sut.run(data, 'run-1')).rejects.toMatchObject({ code: 'unavailable' });
    expect(mocks.queue.add).not.toHaveBeenCalled();
  });
});

describe('jobRecordFrom', () => {
  it('reads BullMQ’s job hash fields', () => {
    expect(jobRecordFrom(MISSING)).toEqual({ state: 'missing' });
    expect(jobRecordFrom(PENDING)).toEqual({ state: 'pending' });
    expect(jobRecordFrom(['x', '5', '{"ok":true,"response":1}', null])).toEqual({ state: 'completed', outcome: { ok: true, response: 1 }, finishedOn: 5 });
    expect(jobRecordFrom(['x', '5', null, 'boom'])).toEqual({ state: 'failed', reason: 'boom' });
  });
});
