import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { AckPolicy, DeliverPolicy, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import { LabStreamEvent, labEventStream, labStreamsBucket, type LabStreamDto } from '#qdc/contracts';
import { NatsConnection, QDC_CONFIG, replicatedKv, type QdcConfig } from '#qdc/platform';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import { WebhooksRepository } from './webhooks.repository.js';

/** The broker's durable consumer on every lab stream's event stream (shared by the broker replicas). */
export const LAB_EVENTS_WEBHOOK_CONSUMER = 'webhooks';
/** A stream event not turned into deliveries (database down) comes again after this long. */
const RETRY_EVENT_MS = 5_000;
/** A consumer that could not be made or stopped (the event stream is being recreated, NATS away) is tried again after this. */
const RETRY_CONSUMER_MS = 5_000;

interface Consuming {
  dto: LabStreamDto;
  messages?: ConsumerMessages;
  stopped: boolean;
}

/**
 * `lab_stream.result` deliveries: every event of a lab stream (one per frame, as published on its results subject)
 * becomes one delivery per subscribed webhook of the stream's owner. The source is each stream's JetStream event
 * stream, read by a durable consumer that is acknowledged only after the deliveries are committed, so a broker that
 * restarts (or a database that is away) resumes from the first unacknowledged event. Streams are found by watching
 * the definitions bucket, as the lab-streams service does. An event is kept by its stream for
 * QDC_STREAM_DEDUP_WINDOW_MS (10 min): a broker down longer than that misses the older events.
 */
@Injectable()
export class LabStreamWebhookSource implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(LabStreamWebhookSource.name);
  private readonly consuming = new Map<string, Consuming>();
  private closing = false;
  private stopWatch?: () => void;

  constructor(
    private readonly nats: NatsConnection,
    private readonly webhooks: WebhooksRepository,
    private readonly dispatcher: WebhookDispatcher,
    @Inject(QDC_CONFIG) private readonly config: QdcConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.nats.connect();
    const kv = await replicatedKv(this.nats.raw, this.config, labStreamsBucket(this.config.QDC_NAMESPACE), { history: 1 });
    const watch = await kv.watch();
    this.stopWatch = () => watch.stop();
    void (async () => {
      for await (const entry of watch) {
        if (this.closing) break;
        if (entry.operation === 'PUT') this.start(entry.key, entry.json<LabStreamDto>());
        else this.stop(entry.key);
      }
    })();
  }

  onModuleDestroy(): void {
    this.closing = true;
    this.stopWatch?.();
    for (const key of [...this.consuming.keys()]) this.stop(key);
  }

  private start(key: string, dto: LabStreamDto): void {
    const current = this.consuming.get(key);
    if (current) {
      current.dto = dto; // a redefinition: same event stream, perhaps another owner
      return;
    }
    const consuming: Consuming = { dto, stopped: false };
    this.consuming.set(key, consuming);
    void this.consume(consuming);
  }

  private stop(key: string): void {
    const consuming = this.consuming.get(key);
    if (!consuming) return;
    consuming.stopped = true;
    consuming.messages?.stop();
    this.consuming.delete(key);
  }

  private async consume(consuming: Consuming): Promise<void> {
    const stream = labEventStream(this.config.QDC_NAMESPACE, consuming.dto.lab, consuming.dto.name);
    while (!consuming.stopped && !this.closing) {
      try {
        const jsm = await this.nats.jetstreamManager();
        await jsm.consumers.info(stream, LAB_EVENTS_WEBHOOK_CONSUMER).catch(() =>
          jsm.consumers.add(stream, {
            durable_name: LAB_EVENTS_WEBHOOK_CONSUMER,
            ack_policy: AckPolicy.Explicit,
            // Everything the stream still holds: an event older than a webhook is skipped by the insert itself.
            deliver_policy: DeliverPolicy.All,
            ack_wait: nanos(30_000),
          }),
        );
        const consumer = await this.nats.jetstream().consumers.get(stream, LAB_EVENTS_WEBHOOK_CONSUMER);
        consuming.messages = await consumer.consume({ max_messages: 64 });
        for await (const msg of consuming.messages) {
          if (consuming.stopped) break;
          await this.handle(consuming.dto, msg);
        }
      } catch (error) {
        if (consuming.stopped || this.closing) break;
        this.logger.warn(`lab stream ${consuming.dto.lab}/${consuming.dto.name}: webhook consumer stopped (${(error as Error).message}); retrying`);
      }
      consuming.messages?.stop();
      if (!consuming.stopped && !this.closing) await new Promise((r) => setTimeout(r, RETRY_CONSUMER_MS));
    }
  }

  private async handle(dto: LabStreamDto, msg: JsMsg): Promise<void> {
    const text = msg.string();
    const parsed = LabStreamEvent.safeParse(JSON.parse(text));
    if (!parsed.success) {
      this.logger.warn(`lab stream ${dto.lab}/${dto.name}: event ${msg.seq} is not a LabStreamEvent; skipped`);
      msg.ack();
      return;
    }
    const event = parsed.data;
    const at = msg.time;
    try {
      const added = await this.webhooks.enqueue(
        dto.owner_id,
        'lab_stream.result',
        `lab_stream.result:${dto.lab}/${dto.name}:${event.frame_id}@${event.seq}`,
        text,
        at,
      );
      msg.ack();
      if (added) this.dispatcher.wake();
    } catch (error) {
      this.logger.warn(
        `lab stream ${dto.lab}/${dto.name}: event ${event.seq} not queued for webhooks (${(error as Error).message}); again in ${RETRY_EVENT_MS} ms`,
      );
      msg.nak(RETRY_EVENT_MS);
    }
  }
}
