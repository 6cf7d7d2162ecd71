import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { ConsumerMessages, JsMsg } from '@nats-io/jetstream';
import type { LabStreamDto, LabStreamEvent } from '#qdc/contracts';
import { NatsService } from '#qdc/platform';
import { FrameAnalyser } from './frame-analyser.js';
import { FrameProcessor, type FrameMessage } from './frame-processor.js';
import { LabStreamRegistry } from './lab-stream-registry.js';
import { STREAMS_CONFIG, type StreamsConfig } from './streams.config.js';

interface Running {
  definition: string;
  messages?: ConsumerMessages;
  processor: FrameProcessor;
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

/**
 * Runs one consumer per declared stream (definitions watched in the KV bucket, so `stream create`/`delete` take effect
 * at once). Results are in frame order per stream within one process: run this service as one replica; the analysis
 * itself scales with the inference workers.
 */
@Injectable()
export class LabStreamConsumers implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(LabStreamConsumers.name);
  private readonly running = new Map<string, Running>();
  private readonly encoder = new TextEncoder();
  private closing = false;

  constructor(
    private readonly nats: NatsService,
    private readonly registry: LabStreamRegistry,
    private readonly analyser: FrameAnalyser,
    @Inject(STREAMS_CONFIG) private readonly streams: StreamsConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const kv = await this.registry.kv();
    const watch = await kv.watch();
    void (async () => {
      for await (const entry of watch) {
        if (this.closing) break;
        if (entry.operation === 'PUT') this.start(entry.key, entry.string());
        else void this.stop(entry.key);
      }
    })();
  }

  /** Streams being consumed (for logs and tests). */
  get streamKeys(): string[] {
    return [...this.running.keys()];
  }

  private start(key: string, definition: string): void {
    const current = this.running.get(key);
    if (current?.definition === definition) return;
    void (async () => {
      if (current) await this.stop(key);
      const dto = JSON.parse(definition) as LabStreamDto;
      const processor = new FrameProcessor(
        dto,
        {
          analyse: (stream, frame) => this.analyser.analyse(stream, frame),
          publish: (subject, event: LabStreamEvent) => this.nats.rawConnection.publish(subject, this.encoder.encode(JSON.stringify(event))),
          now: () => Date.now(),
          sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
          warn: (message) => this.logger.warn(message),
        },
        { attempts: this.streams.QDC_STREAM_ANALYSIS_ATTEMPTS, workingEveryMs: Math.max(100, Math.floor(this.streams.QDC_STREAM_ACK_WAIT_MS / 3)) },
      );
      const running: Running = { definition, processor, stopped: false };
      this.running.set(key, running);
      await this.consume(dto, running);
    })().catch((error: Error) => this.logger.error(`stream ${key}: ${error.message}`));
  }

  /** Pulls frames (at most the window ahead) and admits them in order; reconnects after a lost consumer. */
  private async consume(dto: LabStreamDto, running: Running): Promise<void> {
    while (!running.stopped && !this.closing) {
      try {
        // A NATS server without persistence may have lost the frame stream: the definition recreates it.
        await this.registry.ensureFrameStream(dto);
        const consumer = await this.nats.jetstream().consumers.get(dto.jetstream.stream, dto.jetstream.consumer);
        running.messages = await consumer.consume({ max_messages: dto.max_in_flight });
        this.logger.log(`consuming stream ${dto.lab}/${dto.name} (${dto.models.join(', ')}; ${dto.max_in_flight} in flight)`);
        for await (const msg of running.messages) {
          await running.processor.admit(toFrameMessage(msg));
          if (running.stopped) break;
        }
      } catch (error) {
        if (running.stopped || this.closing) break;
        this.logger.warn(`stream ${dto.lab}/${dto.name}: consumer stopped (${(error as Error).message}); retrying`);
      }
      if (!running.stopped && !this.closing) await new Promise((r) => setTimeout(r, 1000));
    }
  }

  private async stop(key: string): Promise<void> {
    const running = this.running.get(key);
    if (!running) return;
    running.stopped = true;
    this.running.delete(key);
    running.messages?.stop();
    await running.processor.pipeline.idle();
    this.logger.log(`stopped stream ${key}`);
  }

  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.running.keys()].map((key) => this.stop(key)));
  }
}
