import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { RpcError, type GroupedRun, type ModelsRunResponse, type RunGroupJobData } from '#qdc/contracts';
import { QDC_CONFIG, RunGroupProducer, runGroupSize, type QdcConfig } from '#qdc/platform';

/** How often the number of inference workers (BullMQ's named connections) is read again. */
const WORKER_COUNT_REFRESH_MS = 10_000;

interface Waiting {
  run: GroupedRun;
  resolve: (response: ModelsRunResponse) => void;
  reject: (error: unknown) => void;
}

interface Forming {
  ownerId: string;
  runs: Waiting[];
  timer?: NodeJS.Timeout;
}

/**
 * Dynamic batching of small runs (as Triton's dynamic batcher with no queue delay, or Nagle's rule): a run that finds a
 * worker slot free goes at once, as a group of one; runs that come while every slot is busy wait, grouped by owner,
 * until a group in flight comes back, the group is full (QDC_RUN_GROUP_MAX) or QDC_RUN_GROUP_WAIT_MS has passed since
 * its first run came — whichever is first. The bound is a safety net (a slot count read wrong, a worker stuck on a
 * long job): sent earlier, a group would only wait in Redis instead, smaller. One group is one BullMQ job, one
 * results insert (`createMany`) and one outcome message; each run keeps its own job id (the one it would have alone,
 * so its result is stored once whatever delivers it), result and error. A concurrency-1 client never waits; under
 * load the groups grow with the queue.
 *
 * Slots: the inference workers connected to queue `inference-groups` × QDC_RUN_GROUP_CONCURRENCY (groups a worker
 * runs at once), plus one (a group waiting in Redis while the others run hides the add's round trip), read every 10 s.
 */
@Injectable()
export class RunBatcher implements OnModuleDestroy {
  private readonly logger = new Logger(RunBatcher.name);
  private readonly forming = new Map<string, Forming>();
  private inFlight = 0;
  private slots: number;
  private slotsReadAt = 0;

  constructor(
    private readonly producer: RunGroupProducer,
    @Inject(QDC_CONFIG) private readonly config: QdcConfig,
  ) {
    this.slots = config.QDC_RUN_GROUP_CONCURRENCY + 1;
  }

  /** Whether grouping is on (QDC_RUN_GROUP_MAX > 1). */
  get enabled(): boolean {
    return this.config.QDC_RUN_GROUP_MAX > 1;
  }

  /** Runs `run` in a group of `ownerId`'s concurrent runs; answers this run's own outcome. */
  run(ownerId: string, run: GroupedRun): Promise<ModelsRunResponse> {
    this.refreshSlots();
    return new Promise<ModelsRunResponse>((resolve, reject) => {
      const group = this.forming.get(ownerId) ?? { ownerId, runs: [] };
      this.forming.set(ownerId, group);
      group.runs.push({ run, resolve, reject });
      if (this.inFlight < this.slots || group.runs.length >= this.config.QDC_RUN_GROUP_MAX) this.dispatch(group);
      else group.timer ??= setTimeout(() => this.dispatch(group), this.config.QDC_RUN_GROUP_WAIT_MS);
    });
  }

  /** Sends a forming group as one job and hands each run its own outcome. */
  private dispatch(group: Forming): void {
    if (this.forming.get(group.ownerId) === group) this.forming.delete(group.ownerId);
    clearTimeout(group.timer);
    const waiting = group.runs;
    const jobId = `group-${crypto.randomUUID()}`;
    const data: RunGroupJobData = { ownerId: group.ownerId, runs: waiting.map((w) => w.run), requestId: jobId };
    this.inFlight += 1;
    runGroupSize.observe(waiting.length);
    this.producer
      .run(data, jobId, { fresh: true })
      .then(
        ({ runs }) => {
          if (runs.length !== waiting.length) throw new RpcError('internal', `run group ${jobId} answered ${runs.length} outcomes for ${waiting.length} runs`);
          runs.forEach((outcome, k) => {
            if (outcome.ok) waiting[k]!.resolve(outcome.response);
            else waiting[k]!.reject(new RpcError(outcome.error.code, outcome.error.message, outcome.error.details));
          });
        },
        (error: unknown) => {
          for (const w of waiting) w.reject(error);
        },
      )
      .catch((error: unknown) => {
        for (const w of waiting) w.reject(error);
      })
      .finally(() => {
        this.inFlight -= 1;
        // A slot came back: the oldest forming group goes now instead of waiting out its timer.
        const next = this.forming.values().next();
        if (!next.done) this.dispatch(next.value);
      });
  }

  /** Slots from the workers BullMQ sees (not on every run: a CLIENT LIST per run would cost more than it saves). */
  private refreshSlots(): void {
    const now = Date.now();
    if (now - this.slotsReadAt < WORKER_COUNT_REFRESH_MS) return;
    this.slotsReadAt = now;
    this.producer.queue.getWorkersCount().then(
      (workers) => (this.slots = Math.max(1, workers) * this.config.QDC_RUN_GROUP_CONCURRENCY + 1),
      (error: Error) => this.logger.debug(`reading the number of inference workers failed: ${error.message}`),
    );
  }

  /** Shutdown: groups still forming go now (their runs are answered before the producer closes). */
  onModuleDestroy(): void {
    for (const group of [...this.forming.values()]) this.dispatch(group);
  }
}
