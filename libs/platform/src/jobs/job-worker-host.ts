import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Worker, type Job, type WorkerOptions } from 'bullmq';
import { JOB_CONTRACTS, RpcError, jobOutcomeSubject, type JobContract, type JobDataOf, type JobResponseOf, type RpcErrorBody } from '#qdc/contracts';
import { QDC_CONFIG } from '../config/config.module.js';
import type { QdcConfig } from '../config/config.js';
import { withRequestId } from '../logging/request-context.js';
import { timeJob } from '../metrics/metrics.js';
import { EventBus } from '../nats/event-bus.js';
import { NatsConnection } from '../nats/nats-connection.js';
import type { JobOutcome } from './job-producer.js';
import { workerOptions } from './queue-defaults.js';
import { isRedisReady, requireRedisReady, waitForDependencies } from './wait-for-dependencies.js';

/** The job as its handler sees it besides its data (parsed with the contract's schema). */
export interface JobRun {
  id: string;
  queue: string;
  attemptsMade: number;
  /** BullMQ's job and lock token, for a job that re-delays itself (`moveToDelayed`). */
  bullJob: Job;
  token?: string;
}

/** How one job kind (a job contract) is run in this process. */
export interface JobHandler<C extends JobContract> {
  /** Names the work in error messages ("inference", "the simulation"). */
  what: string;
  run(data: JobDataOf<C>, job: JobRun): Promise<JobOutcome<JobResponseOf<C>>>;
  /** The queues themselves, for a contract that names a queue family (`qpu-<device>`). Default: the contract's queue. */
  queues?: readonly string[];
  /** Jobs of this queue run at once in this process. Default QDC_WORKER_CONCURRENCY. */
  concurrency?: number;
  /** The `name` label of qdc_job_duration_seconds (default the job name; the model id for inference). */
  metricName?: (data: JobDataOf<C>) => string;
  /** Throws (or rejects) with what is not ready yet; the queue's worker takes no job before it resolves. */
  ready?: () => Promise<void>;
  /** After the outcome is published and the job is done (e.g. giving a large job's memory back). */
  after?: (data: JobDataOf<C>) => void;
}

/** A registered handler with its contract's types closed over (the host holds every kind in one map). */
interface Registered {
  contract: JobContract;
  concurrency?: number;
  ready?: () => Promise<void>;
  process(queue: string, job: Job, token?: string): Promise<JobOutcome<unknown>>;
}

/**
 * Runs every BullMQ worker of a process. Job kinds are declared in libs/contracts (`defineJob`); a processor registers
 * its handler per kind (`register`), and `start`:
 * - refuses to start when a queue it serves has a job kind (JOB_CONTRACTS) without a handler (a second handler for
 *   one is refused by `register` already);
 * - makes one paused worker per queue, which takes jobs only once NATS, Redis and every handler's `ready` answer;
 * - parses each job's data with its contract's schema, times it (qdc_job_duration_seconds, a consumer span), and
 *   publishes its outcome for the producer waiting on NATS (`<the job's outcomeInbox>.<job id>`, see JobProducer)
 *   before BullMQ completes the job — a thrown error only when nobody would hear better later (the last attempt, or
 *   `unavailable`: the caller answers 503 while BullMQ retries);
 * - logs failed attempts with the job's request id, and on shutdown lets the current jobs finish (`worker.close()`).
 */
@Injectable()
export class JobWorkerHost implements OnModuleDestroy {
  private readonly logger = new Logger(JobWorkerHost.name);
  /** Handlers by queue, then by job name. */
  private readonly handlers = new Map<string, Map<string, Registered>>();
  private readonly workers: Worker[] = [];

  constructor(
    @Inject(QDC_CONFIG) private readonly config: QdcConfig,
    private readonly nats: NatsConnection,
    private readonly events: EventBus,
  ) {}

  /** Registers the handler of one job kind; a second handler for the same kind on the same queue is refused. */
  register<C extends JobContract>(contract: C, handler: JobHandler<C>): void {
    const registered: Registered = {
      contract,
      concurrency: handler.concurrency,
      ready: handler.ready,
      process: async (queue, job, token) => {
        // The contract's own schema: its output is the contract's data type.
        const data = contract.data.parse(job.data) as JobDataOf<C>;
        const run: JobRun = { id: String(job.id), queue, attemptsMade: job.attemptsMade, bullJob: job, token };
        try {
          return await timeJob(
            queue,
            handler.metricName?.(data) ?? contract.name,
            () => this.publishOutcome(handler.what, job, () => handler.run(data, run)),
            job.data as object,
          );
        } finally {
          handler.after?.(data);
        }
      },
    };
    for (const queue of handler.queues ?? [contract.queue]) {
      const byName = this.handlers.get(queue) ?? new Map<string, Registered>();
      if (byName.has(contract.name)) throw new Error(`two handlers for job ${contract.name} on queue ${queue}`);
      byName.set(contract.name, registered);
      this.handlers.set(queue, byName);
    }
  }

  /** Checks the handlers against the job catalogue, then starts every queue's worker once its dependencies answer. */
  async start(catalogue: readonly JobContract[] = JOB_CONTRACTS): Promise<void> {
    if (this.handlers.size === 0) return;
    this.checkAgainst(catalogue);
    for (const [queue, byName] of this.handlers) this.workers.push(this.worker(queue, byName));
    await this.nats.connect();
    const handlers = [...this.handlers.values()].flatMap((byName) => [...byName.values()]);
    await waitForDependencies(async () => {
      for (const worker of this.workers) await requireRedisReady(worker.getBackend().client);
      for (const handler of new Set(handlers.map((h) => h.ready))) await handler?.();
    }, this.logger);
    for (const worker of this.workers) void worker.run();
    this.logger.log(`workers running: ${[...this.handlers].map(([queue, byName]) => `${queue} (${[...byName.keys()].join(', ')})`).join('; ')}`);
  }

  /** Every job kind of a queue this process serves has a handler (immich's job repository check). */
  checkAgainst(catalogue: readonly JobContract[]): void {
    for (const [queue, byName] of this.handlers) {
      const family = [...byName.values()][0]!.contract.queue;
      const missing = catalogue.filter((c) => c.queue === family && !byName.has(c.name)).map((c) => c.name);
      if (missing.length) throw new Error(`queue ${queue} has no handler for job ${missing.join(', ')}`);
    }
  }

  private worker(queue: string, byName: Map<string, Registered>): Worker {
    const concurrency = [...byName.values()].find((h) => h.concurrency !== undefined)?.concurrency;
    const options: WorkerOptions = { ...workerOptions(this.config), ...(concurrency === undefined ? {} : { concurrency }) };
    const worker = new Worker(queue, (job, token) => this.process(queue, job, token), options);
    worker.on('failed', (job, error: Error) =>
      withRequestId(requestIdOf(job?.data) ?? '-', () =>
        this.logger.error(`${queue} job ${job?.id} (${job?.name}) attempt ${job?.attemptsMade} failed: ${error.message}`),
      ),
    );
    worker.on('error', (error: Error) => this.logger.error(`${queue} worker error: ${error.message}`));
    return worker;
  }

  /** One job, as the queue's worker hands it over: to the handler of its name. */
  process(queue: string, job: Job, token?: string): Promise<JobOutcome<unknown>> {
    const handler = this.handlers.get(queue)?.get(job.name);
    if (!handler) throw new Error(`no handler for job ${job.name} on queue ${queue}`);
    return handler.process(queue, job, token);
  }

  /** Runs the job and publishes its outcome for the waiting producer (a job whose data names no inbox has none). */
  private async publishOutcome<T>(what: string, job: Job, work: () => Promise<JobOutcome<T>>): Promise<JobOutcome<T>> {
    const inbox = (job.data as { outcomeInbox?: unknown }).outcomeInbox;
    const publish = (outcome: JobOutcome<T>): Promise<void> =>
      // A lost publication only costs the waiting producer its next read of the job's record.
      typeof inbox === 'string' ? this.events.publishOn(jobOutcomeSubject(inbox, String(job.id)), outcome).catch(() => undefined) : Promise.resolve();
    try {
      const outcome = await work();
      await publish(outcome);
      return outcome;
    } catch (error) {
      const unavailable = error instanceof RpcError && error.code === 'unavailable';
      if (unavailable || job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) {
        const body: RpcErrorBody = unavailable
          ? error.toBody()
          : { code: 'internal', message: `${what} job ${job.id} failed: ${(error as Error)?.message ?? error}` };
        await publish({ ok: false, error: body });
      }
      throw error;
    }
  }

  /** Whether every worker's Redis connection is up (readiness probes). */
  async isRedisReady(): Promise<boolean> {
    if (this.workers.length === 0) return false;
    return (await Promise.all(this.workers.map((worker) => isRedisReady(worker.getBackend().client)))).every(Boolean);
  }

  /** SIGTERM: stop taking jobs, let the current ones finish. */
  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.close()));
  }
}

const requestIdOf = (data: unknown): string | undefined => {
  const id = (data as { requestId?: unknown } | undefined)?.requestId;
  return typeof id === 'string' ? id : undefined;
};
