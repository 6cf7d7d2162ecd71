import { jest } from '@jest/globals';
import type { Job } from 'bullmq';
import { z } from 'zod';
import { RpcError, defineJob } from '#qdc/contracts';
import { loadConfig } from '../config/config.js';
import type { EventBus } from '../nats/event-bus.js';
import type { NatsConnection } from '../nats/nats-connection.js';
import { JobWorkerHost } from './job-worker-host.js';

const Data = z.object({ requestId: z.string(), n: z.number(), outcomeInbox: z.string().optional() });
const Square = defineJob({ queue: 'numbers', name: 'square', data: Data, outcome: z.number() });
const Negate = defineJob({ queue: 'numbers', name: 'negate', data: Data, outcome: z.number() });

/** A host whose event bus records publications; jobs are handed to it as BullMQ's worker would (`process`). */
function newHost() {
  const events = { publishOn: jest.fn(async (..._args: unknown[]) => undefined) };
  const sut = new JobWorkerHost(loadConfig({}), {} as NatsConnection, events as unknown as EventBus);
  return { sut, mocks: { events } };
}

const job = (name: string, data: object, attemptsMade = 0) => ({ id: 'run-1', name, data, attemptsMade, opts: { attempts: 3 } }) as unknown as Job;
const INBOX = 'jobs.numbers.outcome.gw-1';

describe(JobWorkerHost.name, () => {
  it('refuses a second handler for one job kind', () => {
    const { sut } = newHost();
    sut.register(Square, { what: 'squaring', run: async (d) => ({ ok: true, response: d.n ** 2 }) });
    expect(() => sut.register(Square, { what: 'again', run: async (d) => ({ ok: true, response: d.n }) })).toThrow(
      'two handlers for job square on queue numbers',
    );
  });

  it('refuses to start a queue with a job kind nobody handles', async () => {
    const { sut } = newHost();
    sut.register(Square, { what: 'squaring', run: async (d) => ({ ok: true, response: d.n ** 2 }) });
    await expect(sut.start([Square, Negate])).rejects.toThrow('queue numbers has no handler for job negate');
  });

  it('hands each job to the handler of its name with its data parsed by the contract, and publishes the outcome on the job’s inbox', async () => {
    const { sut, mocks } = newHost();
    sut.register(Square, { what: 'squaring', run: async (d) => ({ ok: true, response: d.n ** 2 }) });
    sut.register(Negate, { what: 'negating', run: async (d, run) => ({ ok: true, response: -d.n - run.attemptsMade }) });
    expect(await sut.process('numbers', job('square', { requestId: 'r', n: 3, outcomeInbox: INBOX }))).toEqual({ ok: true, response: 9 });
    expect(mocks.events.publishOn).toHaveBeenCalledWith(`${INBOX}.run-1`, { ok: true, response: 9 });
    expect(await sut.process('numbers', job('negate', { requestId: 'r', n: 3 }, 1))).toEqual({ ok: true, response: -4 });
    expect(mocks.events.publishOn).toHaveBeenCalledTimes(1); // no inbox: nobody waits
    await expect(sut.process('numbers', job('square', { requestId: 'r', n: 'three' }))).rejects.toThrow();
    expect(() => sut.process('numbers', job('cube', { requestId: 'r', n: 3 }))).toThrow('no handler for job cube on queue numbers');
  });

  it('serves a queue family on the queues it is given', async () => {
    const { sut } = newHost();
    sut.register(Square, { what: 'squaring', queues: ['numbers-a', 'numbers-b'], run: async (d) => ({ ok: true, response: d.n ** 2 }) });
    expect(await sut.process('numbers-b', job('square', { requestId: 'r', n: 2 }))).toEqual({ ok: true, response: 4 });
  });

  it('publishes 503 when a dependency is unavailable, and rethrows so that BullMQ retries the job', async () => {
    const { sut, mocks } = newHost();
    const error = new RpcError('unavailable', 'results away');
    sut.register(Square, { what: 'squaring', run: async () => Promise.reject(error) });
    await expect(sut.process('numbers', job('square', { requestId: 'r', n: 1, outcomeInbox: INBOX }))).rejects.toBe(error);
    expect(mocks.events.publishOn).toHaveBeenCalledWith(`${INBOX}.run-1`, { ok: false, error: { code: 'unavailable', message: 'results away' } });
  });

  it('publishes other errors only on the last attempt', async () => {
    const { sut, mocks } = newHost();
    sut.register(Square, { what: 'squaring', run: async () => Promise.reject(new Error('boom')) });
    await expect(sut.process('numbers', job('square', { requestId: 'r', n: 1, outcomeInbox: INBOX }, 0))).rejects.toThrow('boom');
    expect(mocks.events.publishOn).not.toHaveBeenCalled();
    await expect(sut.process('numbers', job('square', { requestId: 'r', n: 1, outcomeInbox: INBOX }, 2))).rejects.toThrow('boom');
    expect(mocks.events.publishOn).toHaveBeenCalledWith(`${INBOX}.run-1`, {
      ok: false,
      error: { code: 'internal', message: 'squaring job run-1 failed: boom' },
    });
  });

  it('runs `after` once the job is done, also when it failed', async () => {
    const { sut } = newHost();
    const after = jest.fn();
    sut.register(Square, { what: 'squaring', run: async () => Promise.reject(new Error('boom')), after });
    await expect(sut.process('numbers', job('square', { requestId: 'r', n: 5 }))).rejects.toThrow('boom');
    expect(after).toHaveBeenCalledWith({ requestId: 'r', n: 5 });
  });
});
