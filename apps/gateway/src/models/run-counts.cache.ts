import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { ResultsEvents, ResultsRpc, type RunRecordedEvent } from '#qdc/contracts';
import { EventHandler, NatsConnection, RpcClient } from '#qdc/platform';

/**
 * Every model's `number_of_runs`, held in memory so listing models costs no round trip. One way in: results announces
 * every counter change (`results.run-counter.changed.v1`, absolute values, applied with max() since counters only
 * grow). The full list is loaded at first use and again after a NATS reconnect, when events may have been missed.
 * Results publishes the event before it answers the worker, so on one NATS server the gateway hears it before the
 * run's outcome: the caller who just ran a model sees it counted.
 */
@Injectable()
export class RunCountsCache implements OnApplicationBootstrap {
  private readonly logger = new Logger(RunCountsCache.name);
  private readonly counts = new Map<string, number>();
  private loaded?: Promise<void>;
  /** Bumped whenever a count changes, so callers can cache what they derive from the counts. */
  version = 0;

  constructor(
    private readonly nats: NatsConnection,
    private readonly rpc: RpcClient,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.nats.connect();
    this.nats.onReconnect(() => void this.load().catch(() => undefined));
    void this.all().catch(() => undefined);
  }

  @EventHandler(ResultsEvents.runRecorded)
  onRunRecorded(event: RunRecordedEvent): void {
    if (event.numberOfRuns > (this.counts.get(event.model) ?? 0)) {
      this.counts.set(event.model, event.numberOfRuns);
      this.version += 1;
    }
  }

  /** Counts for every model; waits for the first load (results may start after the gateway). */
  async all(): Promise<ReadonlyMap<string, number>> {
    this.loaded ??= this.load().catch((error: unknown) => {
      this.loaded = undefined;
      throw error;
    });
    await this.loaded;
    return this.counts;
  }

  private async load(): Promise<void> {
    try {
      const { counts } = await this.rpc.call(ResultsRpc.runCounts, {}, { timeoutMs: 5000 });
      for (const [model, numberOfRuns] of Object.entries(counts)) this.onRunRecorded({ model, numberOfRuns });
    } catch (error) {
      this.logger.warn(`could not load run counters: ${(error as Error).message}`);
      throw error;
    }
  }
}
