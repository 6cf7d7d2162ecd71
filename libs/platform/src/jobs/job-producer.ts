import { Logger } from '@nestjs/common';
import { Queue } from 'bullmq';
import { createHash, randomUUID } from 'node:crypto';
import { RpcError, jobOutcomeInbox, type JobContract, type JobDataOf, type JobResponseOf, type RpcErrorBody } from '#qdc/contracts';
import type { QdcConfig } from '../config/config.js';
import { countQueue } from '../metrics/metrics.js';
import type { EventBus } from '../nats/event-bus.js';
import { logConnectionErrors } from '../service/connection-errors.js';
import { queueOptions } from './queue-defaults.js';
import { SpanKind, inSpan, withJobTrace } from '../tracing/tracing.js';

/**
 * Return value of a job. Bad input is a final answer, not a failure to retry, so a processor completes the job with
 * an error body instead of throwing. `finishedAt` (epoch ms) lets a producer tell an answer whose payloads may have
 * expired (see JobProducerOptions.answerTtlMs).
 */
export type JobOutcome<T> = { ok: true; response: T; finishedAt?: number } | { ok: false; error: RpcErrorBody };

export interface JobProducerOptions {
  /** How long a caller waits for the outcome. */
  timeoutMs: number;
  /** Names the work in error messages ("inference", "the simulation"). */
  what: string;
  /**
   * A finished job older than this is run again instead of answered from its return value (whose object-store
   * payloads expire); the processor's persistence is idempotent by job id, so the run is not stored twice.
   */
  answerTtlMs?: number;
  /** How often the job's record is read while no outcome was heard (a lost reply, a lost job). Default 1 s. */
  pollMs?: number;
}

/** A job id from what identifies a request (its id plus what it asks): a retried request finds its job. */
export function jobIdFrom(prefix: string, parts: readonly unknown[]): string {
  return `${prefix}-${createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32)}`;
}

/** A job's record in Redis, as far as a waiting producer needs it. */
export type JobRecord =
  | { state: 'missing' }
  | { state: 'pending' }
  | { state: 'completed'; outcome: JobOutcome<unknown>; finishedOn: number }
  | { state: 'failed'; reason: string };

/** The fields of BullMQ's job hash read by `readRecord` (name is always set, so its absence means no job). */
const RECORD_FIELDS = ['name', 'finishedOn', 'returnvalue', 'failedReason'] as const;

/** A JobRecord from HMGET of RECORD_FIELDS. */
export function jobRecordFrom(fields: readonly (string | null)[]): JobRecord {
  const [name, finishedOn, returnvalue, failedReason] = fields;
  if (name === null || name === undefined) return { state: 'missing' };
  if (!finishedOn) return { state: 'pending' };
  if (returnvalue !== null && returnvalue !== undefined && returnvalue !== 'null') {
    return { state: 'completed', outcome: JSON.parse(returnvalue) as JobOutcome<unknown>, finishedOn: Number(finishedOn) };
  }
  return { state: 'failed', reason: failedReason ?? 'unknown reason' };
}

/** How long past the job's deadline a producer listens for the worker's last word (e.g. "results unavailable"). */
const REPLY_GRACE_MS = 1000;

type Response<C extends JobContract> = JobResponseOf<C>;

const sleep = (ms: number) => new Promise<'tick'>((resolve) => setTimeout(() => resolve('tick'), ms).unref());

/** The part of a BullMQ Queue a producer uses (a fake in unit tests). */
export type ProducerQueue = Pick<Queue, 'add' | 'remove' | 'getBackend' | 'toKey' | 'close' | 'getWorkersCount'>;

/**
 * The producer side of a job contract (libs/contracts `defineJob`): adds a job of that kind to its queue under a
 * caller-derived id and waits for its outcome, turning a timeout, a failed job or an error outcome into an RpcError.
 * The job's data and answer are the contract's types.
 *
 * The outcome arrives on NATS (`jobOutcomeSubject` under this producer's inbox, published by the worker with
 * JobWorkerHost as soon as it is known): one message instead of every producer reading every queue event from
 * Redis, heard on one subscription per producer. The job's record in Redis is the
 * fallback, read every `pollMs` while nothing was heard: a finished job answers from its return value (a lost reply),
 * a job whose record is gone (a Redis restart without persistence) is added once more, and a second loss answers 503.
 * A caller never waits past the deadline (`timeoutMs`).
 */
export class JobProducer<C extends JobContract> {
  readonly queue: ProducerQueue;
  private readonly pollMs: number;
  /** This producer's outcome prefix: one subscription (made at the first run) for all of its jobs. */
  private readonly inbox: string;
  private listening = false;
  /** Callers waiting for a job's outcome, by job id (a retried request may wait beside the first). */
  private readonly waiting = new Map<string, Set<(outcome: JobOutcome<Response<C>>) => void>>();

  constructor(
    config: QdcConfig,
    private readonly events: Pick<EventBus, 'listenOn'>,
    readonly contract: C,
    private readonly options: JobProducerOptions,
    queue?: ProducerQueue,
  ) {
    this.pollMs = options.pollMs ?? 1000;
    this.inbox = jobOutcomeInbox(contract.queue, randomUUID());
    if (queue) {
      this.queue = queue;
      return;
    }
    const created = new Queue(contract.queue, queueOptions(config));
    logConnectionErrors(created, new Logger(`${contract.queue} queue`), 'Redis');
    countQueue(created);
    this.queue = created;
  }

  /**
   * Adds the job (or finds the one a retried request made) and answers its outcome. `fresh`: the job id cannot have
   * been used before (it derives from a request id made by this service, not a client's), so the job's record is not
   * read before adding it (one Redis command less per run).
   */
  async run(data: JobDataOf<C>, jobId: string, options: { fresh?: boolean } = {}): Promise<Response<C>> {
    const attributes = { 'messaging.system': 'bullmq', 'messaging.destination.name': this.contract.queue, 'messaging.message.id': jobId };
    return inSpan(`bullmq ${this.contract.queue} ${this.contract.name}`, { kind: SpanKind.PRODUCER, attributes }, () =>
      this.runTraced(data, jobId, options.fresh ?? false),
    );
  }

  private async runTraced(data: JobDataOf<C>, jobId: string, fresh: boolean): Promise<Response<C>> {
    const jobDeadline = Date.now() + this.options.timeoutMs;
    // The worker's span is a child of the producer's (trace context in the job data, off = unchanged).
    const job: object = withJobTrace({ ...(data as object), deadline: jobDeadline, outcomeInbox: this.inbox });
    // The worker bounds its work by the job's deadline and then says why it stopped; a little longer here hears that.
    const deadline = jobDeadline + REPLY_GRACE_MS;
    const heard = this.hear(jobId);
    try {
      return await this.await(job, jobId, deadline, heard.message, fresh);
    } finally {
      heard.close();
    }
  }

  /**
   * The outcome of a job this producer added, from the producer's one subscription (a subscription per job cost a SUB
   * and an UNSUB per run). A job another producer added (a retried request that found it) publishes to that
   * producer: this one hears it from the job's record, read every `pollMs`.
   */
  private hear(jobId: string): { message: Promise<JobOutcome<Response<C>>>; close: () => void } {
    if (!this.listening) {
      // Published by this producer's workers only (JobWorkerHost), in the JobOutcome envelope of this contract.
      this.events.listenOn(`${this.inbox}.*`, (subject, outcome) => {
        for (const resolve of this.waiting.get(subject.slice(this.inbox.length + 1)) ?? []) resolve(outcome as JobOutcome<Response<C>>);
      });
      this.listening = true;
    }
    let resolver!: (outcome: JobOutcome<Response<C>>) => void;
    const message = new Promise<JobOutcome<Response<C>>>((resolve) => (resolver = resolve));
    const waiters = this.waiting.get(jobId) ?? new Set();
    waiters.add(resolver);
    this.waiting.set(jobId, waiters);
    return {
      message,
      close: () => {
        waiters.delete(resolver);
        if (waiters.size === 0 && this.waiting.get(jobId) === waiters) this.waiting.delete(jobId);
      },
    };
  }

  private async await(job: object, jobId: string, deadline: number, heard: Promise<JobOutcome<Response<C>>>, fresh: boolean): Promise<Response<C>> {
    const before = await this.add(job, jobId, deadline, fresh);
    if (before.state === 'completed' || before.state === 'failed') {
      // A retried request found its finished job: answer from it unless the answer should not be repeated.
      const answer = this.repeatable(before);
      if (answer) return this.answer(answer);
      await this.queue.remove(jobId);
      await this.add(job, jobId, deadline);
    }
    let readded = false;
    for (;;) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new RpcError('timeout', `${this.options.what} did not finish within ${this.options.timeoutMs} ms`);
      const next = await Promise.race([heard, sleep(Math.min(this.pollMs, remaining))]);
      if (next !== 'tick') return this.answer(next);
      const record = await this.read(jobId, deadline).catch(() => ({ state: 'pending' }) as const);
      if (record.state === 'completed') return this.answer(record.outcome as JobOutcome<Response<C>>);
      if (record.state === 'failed') throw new RpcError('internal', `${this.options.what} job ${jobId} failed: ${record.reason}`);
      if (record.state === 'missing') {
        if (readded) throw new RpcError('unavailable', `${this.options.what} job ${jobId} was lost by the job queue twice (Redis restarted?); retry`);
        readded = true;
        new Logger(`${this.contract.queue} queue`).warn(`job ${jobId} is no longer in Redis (restarted without persistence?); adding it again`);
        await this.add(job, jobId, deadline);
      }
    }
  }

  /** A finished job's outcome when it may be answered again: fresh successes and final errors, not 503s or failures. */
  private repeatable(record: JobRecord): JobOutcome<Response<C>> | undefined {
    if (record.state !== 'completed') return undefined;
    const outcome = record.outcome as JobOutcome<Response<C>>;
    if (!outcome.ok) return outcome.error.code === 'unavailable' ? undefined : outcome;
    const ttl = this.options.answerTtlMs;
    return ttl !== undefined && Date.now() - (outcome.finishedAt ?? record.finishedOn) > ttl ? undefined : outcome;
  }

  private answer(outcome: JobOutcome<Response<C>>): Response<C> {
    if (!outcome.ok) throw new RpcError(outcome.error.code, outcome.error.message, outcome.error.details);
    return outcome.response;
  }

  /**
   * Adds the job; answers the record the job id had before (read in the same round trip: the read is sent first on the
   * same connection, or `missing` for a fresh id), so a retried request knows whether it found a finished job. BullMQ
   * ignores an add of an id that exists.
   */
  private async add(job: object, jobId: string, deadline: number, fresh = false): Promise<JobRecord> {
    const client = await this.queue.getBackend().client;
    if (client.status !== 'ready') throw new RpcError('unavailable', `the job queue (Redis) is not reachable; retry`);
    const before = fresh ? Promise.resolve([null] as (string | null)[]) : client.hmget(this.queue.toKey(jobId), ...RECORD_FIELDS);
    const added = this.queue.add(this.contract.name, job, { jobId });
    const [fields] = await this.beforeDeadline(Promise.all([before, added]), deadline, 'adding the job');
    return jobRecordFrom(fields);
  }

  private async read(jobId: string, deadline: number): Promise<JobRecord> {
    const client = await this.queue.getBackend().client;
    return jobRecordFrom(await this.beforeDeadline(client.hmget(this.queue.toKey(jobId), ...RECORD_FIELDS), deadline, 'reading the job'));
  }

  private async beforeDeadline<T>(work: Promise<T>, deadline: number, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RpcError('unavailable', `the job queue (Redis) did not answer ${what}; retry`)), Math.max(0, deadline - Date.now()));
    });
    try {
      return await Promise.race([work, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Whether any worker is connected to the queue (BullMQ names worker connections). */
  async hasWorkers(): Promise<boolean> {
    try {
      return (await this.queue.getWorkersCount()) > 0;
    } catch {
      return false;
    }
  }

  async isRedisReady(): Promise<boolean> {
    try {
      return (await this.queue.getBackend().client).status === 'ready';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.queue.close();
  }

  /**
   * Nest shutdown hook of every producer: closes last, after NATS handlers still waiting for their jobs have their
   * outcomes (RpcDispatcher finishes in-flight handlers in onModuleDestroy).
   */
  onApplicationShutdown(): Promise<void> {
    return this.close();
  }
}
