import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { ConsumerMessages, JsMsg } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { labStreamEventsSubject, labStreamLeasesBucket, type LabStreamDto, type LabStreamEvent } from '#qdc/contracts';
import { NatsConnection, QDC_CONFIG, replicatedKv, type QdcConfig } from '#qdc/platform';
import { FrameJobBatcher } from './frame-job-batcher.js';
import { StreamFrameHandler, type FrameMessage } from './stream-frame-handler.js';
import { LabStreamRegistry } from './lab-stream-registry.js';
import { countFrameEvent, meterStreamBacklogs, streamLabel } from './lab-stream.metrics.js';
import { StreamLease } from './stream-lease.js';
import { STREAMS_CONFIG, type StreamsConfig } from './streams.config.js';

interface Running {
  definition: string;
  dto: LabStreamDto;
  lease: StreamLease;
  messages?: ConsumerMessages;
  handler?: StreamFrameHandler;
  stopped: boolean;
}

export function toFrameMessage(msg: JsMsg): FrameMessage {
  return {
    seq: msg.seq,
    data: msg.data,
    header: (name) => msg.headers?.get(name) || undefined,
    storedAtMs: msg.info.timestampNanos / 1e6,
    ack: () => msg.ack(),
    working: () => msg.working(),
  };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Runs the live streams (definitions watched in the KV bucket, so `stream create`/`delete` take effect at once) on
 * any number of replicas: each stream is consumed by the one replica holding its lease (StreamLease, bucket
 * `<ns>-lab-stream-leases`), which answers its frames in frame order. A replica taking a stream over (the holder
 * stopped, crashed or was cut off) starts a fresh consumer, so the unacknowledged frames come again from the first,
 * in order; their events are stored once (labEventStream deduplicates `<frame id>@<seq>`), so a frame the previous
 * holder answered but did not ack is not published twice. Replicas share the streams; the analysis scales with
 * the inference workers.
 */
@Injectable()
export class LabStreamConsumers implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(LabStreamConsumers.name);
  private readonly running = new Map<string, Running>();
  private readonly encoder = new TextEncoder();
  private readonly holder = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  private leases?: Promise<KV>;
  private closing = false;

  constructor(
    private readonly nats: NatsConnection,
    private readonly registry: LabStreamRegistry,
    private readonly batcher: FrameJobBatcher,
    @Inject(QDC_CONFIG) private readonly config: QdcConfig,
    @Inject(STREAMS_CONFIG) private readonly streams: StreamsConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const kv = await this.registry.kv();
    this.leases = replicatedKv(this.nats.raw, this.config, labStreamLeasesBucket(this.config.QDC_NAMESPACE), {
      history: 1,
      ttl: this.streams.QDC_STREAM_LEASE_MS,
    });
    await this.leases;
    meterStreamBacklogs(() => this.backlogs());
    const watch = await kv.watch();
    void (async () => {
      for await (const entry of watch) {
        if (this.closing) break;
        if (entry.operation === 'PUT') this.start(entry.key, entry.string());
        else void this.stop(entry.key);
      }
    })();
  }

  /** Streams this replica knows (for logs and tests). */
  get streamKeys(): string[] {
    return [...this.running.keys()];
  }

  /** Streams this replica consumes now (holds the lease of). */
  get heldStreamKeys(): string[] {
    return [...this.running.entries()].filter(([, r]) => r.lease.holds()).map(([key]) => key);
  }

  /** The unanswered frames of each stream this replica consumes, from its JetStream consumer (for the metrics). */
  private async backlogs(): Promise<{ stream: string; pending: number }[]> {
    const jsm = await this.nats.jetstreamManager();
    const held = [...this.running.values()].filter((r) => r.lease.holds());
    const read = await Promise.all(
      held.map(({ dto }) =>
        jsm.consumers.info(dto.jetstream.stream, dto.jetstream.consumer).then(
          (info) => ({ stream: streamLabel(dto.lab, dto.name), pending: info.num_pending + info.num_ack_pending }),
          () => undefined, // the consumer is being recreated (a takeover): no reading this time
        ),
      ),
    );
    return read.filter((b) => b !== undefined);
  }

  private start(key: string, definition: string): void {
    const current = this.running.get(key);
    if (current?.definition === definition) return;
    void (async () => {
      if (current) await this.stop(key);
      const dto = JSON.parse(definition) as LabStreamDto;
      const lease = new StreamLease(await this.leases!, key, this.holder, this.streams.QDC_STREAM_LEASE_MS);
      const running: Running = { definition, dto, lease, stopped: false };
      this.running.set(key, running);
      await this.hold(running);
    })().catch((error: Error) => this.logger.error(`stream ${key}: ${error.message}`));
  }

  /** Waits for the stream's lease; while holding it, renews it and consumes the stream; after losing it, waits again. */
  private async hold(running: Running): Promise<void> {
    const { dto, lease } = running;
    const every = Math.max(200, Math.floor(lease.ttlMs / 3));
    while (!running.stopped && !this.closing) {
      if (!(await lease.acquire())) {
        await sleep(every);
        continue;
      }
      this.logger.log(`holding stream ${dto.lab}/${dto.name} (replica ${this.holder})`);
      const renewal = setInterval(() => {
        void lease.renew().then((held) => {
          if (held || running.stopped) return;
          this.logger.warn(`stream ${dto.lab}/${dto.name}: lease lost; another replica takes the stream over`);
          running.messages?.stop();
        });
      }, every);
      try {
        await this.consume(running);
      } finally {
        clearInterval(renewal);
      }
      // Frames still in analysis are not answered by a replica without the lease (StreamFrameHandler.emit).
      await running.handler?.pipeline.idle();
    }
  }

  /** Pulls frames (at most the window ahead) and admits them in order while the lease is held; reconnects after a lost consumer. */
  private async consume(running: Running): Promise<void> {
    const { dto, lease } = running;
    const js = this.nats.jetstream();
    const eventsSubject = labStreamEventsSubject(this.config.QDC_NAMESPACE, dto.lab, dto.name);
    const handler = new StreamFrameHandler(
      dto,
      {
        analyse: (stream, frame) => this.batcher.analyse(stream, frame),
        publishEvent: async (event: LabStreamEvent, msgId: string) => {
          const { duplicate } = await js.publish(eventsSubject, JSON.stringify(event), { msgID: msgId });
          if (!duplicate) countFrameEvent(event);
          return { duplicate };
        },
        reply: (subject, event: LabStreamEvent) => this.nats.raw.publish(subject, this.encoder.encode(JSON.stringify(event))),
        holds: () => lease.holds(),
        now: () => Date.now(),
        sleep,
        warn: (message) => this.logger.warn(message),
      },
      { attempts: this.streams.QDC_STREAM_ANALYSIS_ATTEMPTS, workingEveryMs: Math.max(100, Math.floor(this.streams.QDC_STREAM_ACK_WAIT_MS / 3)) },
    );
    running.handler = handler;
    let fresh = true;
    while (!running.stopped && !this.closing && lease.holds()) {
      try {
        // Taking the stream over: a fresh consumer (the unacked frames again, in order). After a lost connection the
        // definition recreates what a NATS server without persistence may have lost.
        if (fresh) await this.registry.resetConsumer(dto);
        else await this.registry.ensureFrameStream(dto);
        fresh = false;
        const consumer = await js.consumers.get(dto.jetstream.stream, dto.jetstream.consumer);
        running.messages = await consumer.consume({ max_messages: dto.max_in_flight });
        this.logger.log(`consuming stream ${dto.lab}/${dto.name} (${dto.models.join(', ')}; ${dto.max_in_flight} in flight)`);
        for await (const msg of running.messages) {
          if (running.stopped || !lease.holds()) break;
          await handler.admit(toFrameMessage(msg));
        }
      } catch (error) {
        if (running.stopped || this.closing) break;
        this.logger.warn(`stream ${dto.lab}/${dto.name}: consumer stopped (${(error as Error).message}); retrying`);
      }
      running.messages?.stop();
      if (!running.stopped && !this.closing && lease.holds()) await sleep(1000);
    }
  }

  private async stop(key: string): Promise<void> {
    const running = this.running.get(key);
    if (!running) return;
    running.stopped = true;
    this.running.delete(key);
    running.messages?.stop();
    await running.handler?.pipeline.idle();
    // Another replica may take the stream over at once (the definition still exists: a shutdown).
    await running.lease.release();
    this.logger.log(`stopped stream ${key}`);
  }

  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.running.keys()].map((key) => this.stop(key)));
  }
}
