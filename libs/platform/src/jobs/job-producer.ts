import { Queue, QueueEvents } from 'bullmq';
import { createHash } from 'node:crypto';
import { RpcError, type JobName, type QueueName, type RpcErrorBody } from '#qdc/contracts';
import type { QdcConfig } from '../config/config.js';
import { queueOptions } from './queue-defaults.js';
import { logConnectionErrors } from '../service/connection-errors.js';
import { countQueue } from '../metrics/metrics.js';
import { Logger } from '@nestjs/common';
import { SpanKind, inSpan, markError, withJobTrace } from '../tracing/tracing.js';

/**
 * Return value of a job. Bad input is a final answer, not a failure to retry, so a processor completes the job with
 * an error body instead of throwing. `finishedAt` (epoch ms) lets a producer tell an answer whose payloads may have
 * expired (see JobProducerOptions.answerTtlMs).
 */
export type JobOutcome<T> = { ok: true; response: T; finishedAt?: number } | { ok: false; error: RpcErrorBody };

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
}

/** A job id from what identifies a request (its id plus what it asks): a retried request finds its job. */
export function jobIdFrom(prefix: string, parts: readonly unknown[]): string {
  return `${prefix}-${createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32)}`;
}

/**
 * The producer side of a BullMQ queue (one for every queue): adds a job under a caller-derived id and waits for its
 * outcome, turning a timeout, a failed job or an error outcome into an RpcError.
 */
export class JobProducer<Data extends object, Response> {
  readonly queue: Queue<Data, JobOutcome<Response>>;
  private readonly events: QueueEvents;

  constructor(
    config: QdcConfig,
    private readonly options: JobProducerOptions,
  ) {
    const queueOpts = queueOptions(config);
    this.queue = new Queue<Data, JobOutcome<Response>>(options.queue, queueOpts);
    this.events = new QueueEvents(options.queue, { connection: queueOpts.connection, prefix: queueOpts.prefix });
    const logger = new Logger(`${options.queue} queue`);
    logConnectionErrors(this.queue, logger, 'Redis');
    logConnectionErrors(this.events, logger, 'Redis');
    countQueue(this.queue);
  }

  async run(data: Data, jobId: string): Promise<Response> {
    let outcome = await this.wait(data, jobId);
    if (outcome.ok && this.options.answerTtlMs !== undefined && Date.now() - (outcome.finishedAt ?? 0) > this.options.answerTtlMs) {
      await this.queue.remove(jobId);
      outcome = await this.wait(data, jobId);
    }
    if (!outcome.ok) throw new RpcError(outcome.error.code, outcome.error.message, outcome.error.details);
    return outcome.response;
  }

  private wait(data: Data, jobId: string): Promise<JobOutcome<Response>> {
    const attributes = { 'messaging.system': 'bullmq', 'messaging.destination.name': this.options.queue, 'messaging.message.id': jobId };
    return inSpan(`bullmq ${this.options.queue} ${this.options.job}`, { kind: SpanKind.PRODUCER, attributes }, async (span) => {
      const outcome = await this.addAndWait(withJobTrace(data), jobId); // the worker's span is a child of this one
      if (!outcome.ok) markError(span, outcome.error);
      return outcome;
    });
  }

  private async addAndWait(data: Data, jobId: string): Promise<JobOutcome<Response>> {
    // BullMQ's generics make add's name parameter a computed type; the names are ours (JobName).
    const job = await (this.queue as Queue).add(this.options.job, data, { jobId });
    try {
      return (await job.waitUntilFinished(this.events, this.options.timeoutMs)) as JobOutcome<Response>;
    } catch (error) {
      const message = (error as Error).message ?? String(error);
      if (/timed out/i.test(message)) throw new RpcError('timeout', `${this.options.what} did not finish within ${this.options.timeoutMs} ms`);
      throw new RpcError('internal', `${this.options.what} job ${jobId} failed: ${message}`);
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
    await this.events.close();
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
