import { Logger } from '@nestjs/common';
import { Queue } from 'bullmq';
import { createHash, randomUUID } from 'node:crypto';
import { RpcError, jobOutcomeInbox, jobOutcomeSubject, type JobName, type QueueName, type RpcErrorBody } from '#qdc/contracts';
import type { QdcConfig } from '../config/config.js';
import { countQueue } from '../metrics/metrics.js';
import type { NatsService } from '../nats/nats.service.js';
import { logConnectionErrors } from '../service/connection-errors.js';
import { queueOptions } from './queue-defaults.js';
import { SpanKind, inSpan, withJobTrace } from '../tracing/tracing.js';

/**
 * Return value of a job. Bad input is a final answer, not a failure to retry, so a processor completes the job with
 * an error body instead of throwing. `finishedAt` (epoch ms) lets a producer tell an answer whose payloads may have
 * expired (see JobProducerOptions.answerTtlMs).
 */
export type JobOutcome<T> = { ok: true; response: T; finishedAt?: number } | { ok: false; error: RpcErrorBody };

/**
 * What every job's data carries besides its own fields: the request id, the deadline after which nobody waits for the
 * answer (a worker bounds its retries by it), and `meta` for propagated headers (trace context). JobProducer sets
 * `deadline`.
 */
export interface JobEnvelope {
  requestId: string;
  deadline?: number;
  meta?: Record<string, string>;
  /** Where the worker publishes the outcome (`<producer's inbox>.<job id>`); set by JobProducer. */
  outcomeInbox?: string;
}

export interface JobProducerOptions {
  queue: QueueName;
  job: JobName;
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

const sleep = (ms: number) => new Promise<'tick'>((resolve) => setTimeout(() => resolve('tick'), ms).unref());

/** The part of a BullMQ Queue a producer uses (a fake in unit tests). */
export type ProducerQueue = Pick<Queue, 'add' | 'remove' | 'getBackend' | 'toKey' | 'close' | 'getWorkersCount'>;

/**
 * The producer side of a BullMQ queue (one for every queue): adds a job under a caller-derived id and waits for its
 * outcome, turning a timeout, a failed job or an error outcome into an RpcError.
 *
 * The outcome arrives on NATS (`jobOutcomeSubject` under this producer's inbox, published by the worker with
 * `publishJobOutcome` as soon as it is known): one message instead of every producer reading every queue event from
 * Redis, heard on one subscription per producer. The job's record in Redis is the
 * fallback, read every `pollMs` while nothing was heard: a finished job answers from its return value (a lost reply),
 * a job whose record is gone (a Redis restart without persistence) is added once more, and a second loss answers 503.
 * A caller never waits past the deadline (`timeoutMs`).
 */
export class JobProducer<Data extends JobEnvelope, Response> {
  readonly queue: ProducerQueue;
  private readonly pollMs: number;
  /** This producer's outcome prefix: one subscription (made at the first run) for all of its jobs. */
  private readonly inbox: string;
  private listening = false;
  /** Callers waiting for a job's outcome, by job id (a retried request may wait beside the first). */
  private readonly waiting = new Map<string, Set<(outcome: JobOutcome<Response>) => void>>();

  constructor(
    config: QdcConfig,
    private readonly nats: Pick<NatsService, 'listen'>,
    private readonly options: JobProducerOptions,
    queue?: ProducerQueue,
  ) {
    this.pollMs = options.pollMs ?? 1000;
    this.inbox = jobOutcomeInbox(options.queue, randomUUID());
    if (queue) {
      this.queue = queue;
      return;
    }
    const created = new Queue<Data, JobOutcome<Response>>(options.queue, queueOptions(config));
    logConnectionErrors(created, new Logger(`${options.queue} queue`), 'Redis');
    countQueue(created);
    this.queue = created as unknown as ProducerQueue;
  }

  /**
   * Adds the job (or finds the one a retried request made) and answers its outcome. `fresh`: the job id cannot have
   * been used before (it derives from a request id made by this service, not a client's), so the job's record is not
   * read before adding it (one Redis command less per run).
   */
  async run(data: Data, jobId: string, options: { fresh?: boolean } = {}): Promise<Response> {
    const attributes = { 'messaging.system': 'bullmq', 'messaging.destination.name': this.options.queue, 'messaging.message.id': jobId };
    return inSpan(`bullmq ${this.options.queue} ${this.options.job}`, { kind: SpanKind.PRODUCER, attributes }, () =>
      this.runTraced(data, jobId, options.fresh ?? false),
    );
  }

  private async runTraced(data: Data, jobId: string, fresh: boolean): Promise<Response> {
    const jobDeadline = Date.now() + this.options.timeoutMs;
    // The worker's span is a child of the producer's (trace context in the job data, off = unchanged).
    const job = withJobTrace({ ...data, deadline: jobDeadline, outcomeInbox: this.inbox });
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
  private hear(jobId: string): { message: Promise<JobOutcome<Response>>; close: () => void } {
    if (!this.listening) {
      this.nats.listen<JobOutcome<Response>>(`${this.inbox}.*`, (subject, outcome) => {
        for (const resolve of this.waiting.get(subject.slice(this.inbox.length + 1)) ?? []) resolve(outcome);
      });
      this.listening = true;
    }
    let resolver!: (outcome: JobOutcome<Response>) => void;
    const message = new Promise<JobOutcome<Response>>((resolve) => (resolver = resolve));
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

  private async await(job: Data, jobId: string, deadline: number, heard: Promise<JobOutcome<Response>>, fresh: boolean): Promise<Response> {
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
      if (record.state === 'completed') return this.answer(record.outcome as JobOutcome<Response>);
      if (record.state === 'failed') throw new RpcError('internal', `${this.options.what} job ${jobId} failed: ${record.reason}`);
      if (record.state === 'missing') {
        if (readded) throw new RpcError('unavailable', `${this.options.what} job ${jobId} was lost by the job queue twice (Redis restarted?); retry`);
        readded = true;
        new Logger(`${this.options.queue} queue`).warn(`job ${jobId} is no longer in Redis (restarted without persistence?); adding it again`);
        await this.add(job, jobId, deadline);
      }
    }
  }

  /** A finished job's outcome when it may be answered again: fresh successes and final errors, not 503s or failures. */
  private repeatable(record: JobRecord): JobOutcome<Response> | undefined {
    if (record.state !== 'completed') return undefined;
    const outcome = record.outcome as JobOutcome<Response>;
    if (!outcome.ok) return outcome.error.code === 'unavailable' ? undefined : outcome;
    const ttl = this.options.answerTtlMs;
    return ttl !== undefined && Date.now() - (outcome.finishedAt ?? record.finishedOn) > ttl ? undefined : outcome;
  }

  private answer(outcome: JobOutcome<Response>): Response {
    if (!outcome.ok) throw new RpcError(outcome.error.code, outcome.error.message, outcome.error.details);
    return outcome.response;
  }

  /**
   * Adds the job; answers the record the job id had before (read in the same round trip: the read is sent first on the
   * same connection), so a retried request knows whether it found a finished job. BullMQ ignores an add of an id that
   * exists.
   */
  /** Adds the job; answers the record it had before (read in the same round trip), or `missing` for a fresh id. */
  private async add(job: Data, jobId: string, deadline: number, fresh = false): Promise<JobRecord> {
    const client = await this.queue.getBackend().client;
    if (client.status !== 'ready') throw new RpcError('unavailable', `the job queue (Redis) is not reachable; retry`);
    const before = fresh ? Promise.resolve([null] as (string | null)[]) : client.hmget(this.queue.toKey(jobId), ...RECORD_FIELDS);
    // BullMQ's generics make add's name parameter a computed type; the names are ours (JobName).
    const added = (this.queue as unknown as Queue).add(this.options.job, job, { jobId });
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
   * outcomes (NatsService finishes in-flight handlers in onModuleDestroy).
   */
  onApplicationShutdown(): Promise<void> {
    return this.close();
  }
}

/**
 * The worker side: runs a job's processor and publishes its outcome for the producer waiting on NATS (see JobProducer)
 * before BullMQ completes the job. A thrown error is published only when nobody would hear better later: on the last
 * attempt, or when a dependency is unavailable (the caller answers 503 while BullMQ retries the job).
 */
export async function publishJobOutcome<T>(
  nats: Pick<NatsService, 'publish'>,
  queue: QueueName,
  job: { id?: string; attemptsMade: number; opts: { attempts?: number }; data?: { outcomeInbox?: string } },
  what: string,
  work: () => Promise<JobOutcome<T>>,
): Promise<JobOutcome<T>> {
  const subject = jobOutcomeSubject(queue, String(job.id), job.data?.outcomeInbox);
  try {
    const outcome = await work();
    // A lost publication only costs the waiting producer its next read of the job's record.
    await nats.publish(subject, outcome).catch(() => undefined);
    return outcome;
  } catch (error) {
    const unavailable = error instanceof RpcError && error.code === 'unavailable';
    if (unavailable || job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) {
      const body: RpcErrorBody = unavailable
        ? error.toBody()
        : { code: 'internal', message: `${what} job ${job.id} failed: ${(error as Error)?.message ?? error}` };
      await nats.publish(subject, { ok: false, error: body } satisfies JobOutcome<T>).catch(() => undefined);
    }
    throw error;
  }
}
