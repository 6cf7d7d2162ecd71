import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Events, RunRecordedEvent, Subjects, type RunCountsResponse } from '#qdc/contracts';
import { EventHandler, NatsService } from '#qdc/platform';

const RESYNC_MS = 30_000;

/**
 * Every model's `number_of_runs`, held in memory so listing models costs no round trip.
 * Counters only grow, so updates are applied with max(): from the reply of a run this gateway
 * served (exact for its caller), from change events (other replicas), and a periodic resync.
 */
@Injectable()
export class RunCountsCache implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(RunCountsCache.name);
  private readonly counts = new Map<string, number>();
  private synced = false;
  /** Bumped whenever a count changes, so callers can cache what they derive from the counts. */
  version = 0;
  private timer?: NodeJS.Timeout;

  constructor(private readonly nats: NatsService) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.nats.connect();
    this.timer = setInterval(() => void this.resync(), RESYNC_MS);
    this.timer.unref();
    void this.resync();
  }

  /** Runs of other replicas (and this one's): results announces every counter change. */
  @EventHandler(Events.RunRecorded, RunRecordedEvent)
  onRunRecorded(event: RunRecordedEvent): void {
    this.observe(event.model, event.numberOfRuns);
  }

  observe(model: string, numberOfRuns: number): void {
    if (numberOfRuns > (this.counts.get(model) ?? 0)) {
      this.counts.set(model, numberOfRuns);
      this.version += 1;
    }
  }

  /** Counts for every model; waits for the first sync (results may start after the gateway). */
  async all(): Promise<ReadonlyMap<string, number>> {
    if (!this.synced) await this.resync();
    return this.counts;
  }

  private async resync(): Promise<void> {
    try {
      const { counts } = await this.nats.request<RunCountsResponse>(Subjects.RunCounts, {}, { timeoutMs: 5000 });
      for (const [model, n] of Object.entries(counts)) this.observe(model, n);
      this.synced = true;
    } catch (error) {
      this.logger.warn(`could not sync run counters: ${(error as Error).message}`);
      if (!this.synced) throw error;
    }
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }
}
