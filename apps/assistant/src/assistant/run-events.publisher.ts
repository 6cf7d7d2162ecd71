import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { headers as natsHeaders, nanos } from '@nats-io/transport-node';
import { StorageType, type PubAck } from '@nats-io/jetstream';
import { ASSISTANT_EVENT_INDEX_HEADER, ASSISTANT_OWNER_HEADER, assistantRunEventsSubject, assistantRunStream } from '#qdc/contracts';
import { NatsConnection, QDC_CONFIG, streamReplicas, type QdcConfig } from '#qdc/platform';

/** Creates (or updates) the run-events stream; the gateway calls the same on boot. */
export async function ensureRunStream(nats: NatsConnection, config: QdcConfig): Promise<void> {
  const jsm = await nats.jetstreamManager();
  const name = assistantRunStream(config.QDC_NAMESPACE);
  // Bounded by age only: a max_bytes limit would be reserved against the server's JetStream memory for every namespace.
  const wanted = {
    subjects: [nats.subject(assistantRunEventsSubject('*'))],
    max_age: nanos(config.QDC_ASSISTANT_RUN_RETENTION_MS),
    max_bytes: -1,
    ...streamReplicas(config),
  };
  try {
    await jsm.streams.info(name);
    await jsm.streams.update(name, wanted);
  } catch {
    await jsm.streams.add({ name, storage: StorageType.Memory, ...wanted }).catch(async (error: Error) => {
      // Another replica created it meanwhile.
      await jsm.streams.info(name).catch(() => Promise.reject(error));
    });
  }
}

/** One run's event sink: numbers events, publishes them in order (pipelined), and waits for all acks on flush. */
export class RunEventSink {
  private index = 0;
  private pending: Promise<PubAck | undefined>[] = [];
  /** The first failed publish since the last flush (a JetStream ack timeout under load); flush reports it. */
  private failure: Error | undefined;

  constructor(
    private readonly nats: NatsConnection,
    private readonly runId: string,
    private readonly ownerId: string,
  ) {}

  emit(event: { type: string } & Record<string, unknown>): void {
    const h = natsHeaders();
    h.set(ASSISTANT_OWNER_HEADER, this.ownerId);
    h.set(ASSISTANT_EVENT_INDEX_HEADER, String(++this.index));
    // Acks are awaited in flush; a rejection is caught here at once, so an ack timeout never becomes an unhandled
    // rejection (which would end the process) before the next flush.
    const published = this.nats.jetstream().publish(this.nats.subject(assistantRunEventsSubject(this.runId)), JSON.stringify(event), { headers: h });
    this.pending.push(
      published.catch((error: Error) => {
        this.failure ??= error;
        return undefined;
      }),
    );
    if (this.pending.length > 256) void this.drain(); // a failure stays recorded for the next flush
  }

  private async drain(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    await Promise.all(batch);
  }

  /** Waits for every pending ack; throws the first publish failure since the last flush. */
  async flush(): Promise<void> {
    await this.drain();
    const failure = this.failure;
    this.failure = undefined;
    if (failure) throw failure;
  }
}

@Injectable()
export class RunEventsPublisher implements OnApplicationBootstrap {
  private readonly logger = new Logger(RunEventsPublisher.name);
  constructor(
    private readonly nats: NatsConnection,
    @Inject(QDC_CONFIG) private readonly config: QdcConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.nats.connect();
    await ensureRunStream(this.nats, this.config);
    this.logger.log(`run events on stream ${assistantRunStream(this.config.QDC_NAMESPACE)} (kept ${this.config.QDC_ASSISTANT_RUN_RETENTION_MS} ms)`);
  }

  sink(runId: string, ownerId: string): RunEventSink {
    return new RunEventSink(this.nats, runId, ownerId);
  }
}
