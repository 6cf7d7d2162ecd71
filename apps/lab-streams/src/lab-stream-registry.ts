import { Inject, Injectable, Logger } from '@nestjs/common';
import { AckPolicy, DeliverPolicy, DiscardPolicy, RetentionPolicy, StorageType, type JetStreamManager } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import { nanos } from '@nats-io/transport-node';
import { findModel } from '#qdc/characterization';
import {
  KeysRpc,
  LAB_FRAME_CONSUMER,
  LabStreamsRpc,
  RpcError,
  type LabStreamCreateRequest,
  type LabStreamDeleteRequest,
  type LabStreamListRequest,
  labEventStream,
  labEventStreamPrefix,
  labFrameStream,
  labFrameStreamPrefix,
  labStreamEventsSubject,
  labStreamSubjects,
  labStreamsBucket,
  type LabStreamDeleteResponse,
  type LabStreamDto,
} from '#qdc/contracts';
import { NatsConnection, QDC_CONFIG, RpcClient, RpcHandler, replicatedKv, streamReplicas, type QdcConfig } from '#qdc/platform';
import { STREAMS_CONFIG, type StreamsConfig } from './streams.config.js';

/**
 * Stream definitions (what `qdc stream create` and `/v0/admin/lab-streams` declare) live in the JetStream KV bucket
 * `<ns>-lab-streams` (key `<lab>.<name>`), so every lab-streams process sees them and their changes (watch). Creating
 * a stream also creates its frame stream (work queue, bounded backlog, refuse-new when full, duplicate window) and
 * its durable consumer, and its event stream (labEventStream); deleting removes them.
 */
@Injectable()
export class LabStreamRegistry {
  private readonly logger = new Logger(LabStreamRegistry.name);
  private kvPromise?: Promise<KV>;

  constructor(
    private readonly nats: NatsConnection,
    private readonly rpc: RpcClient,
    @Inject(QDC_CONFIG) private readonly config: QdcConfig,
    @Inject(STREAMS_CONFIG) private readonly streams: StreamsConfig,
  ) {}

  kv(): Promise<KV> {
    this.kvPromise ??= this.nats.connect().then(() => replicatedKv(this.nats.raw, this.config, labStreamsBucket(this.config.QDC_NAMESPACE), { history: 1 }));
    return this.kvPromise;
  }

  @RpcHandler(LabStreamsRpc.create)
  async create(request: LabStreamCreateRequest): Promise<LabStreamDto> {
    const unknown = request.models.filter((id) => !findModel(id));
    if (unknown.length)
      throw new RpcError('invalid_input', `unknown model(s) ${unknown.join(', ')}; GET /v0/models lists the models`, {
        loc: ['body', 'models'],
        type: 'value_error',
      });
    const ns = this.config.QDC_NAMESPACE;
    // The results of a lab's stream belong to the owner named as the lab (its keys: `qdc keys create --owner <lab>`).
    const owner = await this.rpc.call(KeysRpc.ensureOwner, { name: request.lab });
    const kv = await this.kv();
    const key = `${request.lab}.${request.name}`;
    const previous = await kv.get(key);
    const createdAt = previous?.operation === 'PUT' ? (previous.json<LabStreamDto>().created_at ?? new Date().toISOString()) : new Date().toISOString();
    const dto: LabStreamDto = {
      lab: request.lab,
      name: request.name,
      owner_id: owner.id,
      models: [...new Set(request.models)],
      max_in_flight: request.max_in_flight ?? this.streams.QDC_STREAM_MAX_IN_FLIGHT,
      max_lag_ms: request.max_lag_ms ?? null,
      created_at: createdAt,
      subjects: labStreamSubjects(ns, request.lab, request.name),
      jetstream: { stream: labFrameStream(ns, request.lab, request.name), consumer: LAB_FRAME_CONSUMER },
    };
    await this.ensureFrameStream(dto);
    await kv.put(key, JSON.stringify(dto));
    this.logger.log(`lab ${dto.lab}: stream ${dto.name} → ${dto.models.join(', ')}`);
    return dto;
  }

  @RpcHandler(LabStreamsRpc.list)
  async list(request: LabStreamListRequest): Promise<LabStreamDto[]> {
    const kv = await this.kv();
    const out: LabStreamDto[] = [];
    for await (const key of await kv.keys(request.lab ? `${request.lab}.*` : '>')) {
      const entry = await kv.get(key);
      if (entry?.operation === 'PUT') out.push(entry.json<LabStreamDto>());
    }
    return out.sort((a, b) => `${a.lab}.${a.name}`.localeCompare(`${b.lab}.${b.name}`));
  }

  /** One stream, or (no name) every stream of the lab — `qdc lab remove` — including frame streams left without a definition. */
  @RpcHandler(LabStreamsRpc.delete)
  async delete(request: LabStreamDeleteRequest): Promise<LabStreamDeleteResponse> {
    const ns = this.config.QDC_NAMESPACE;
    const kv = await this.kv();
    const jsm = await this.nats.jetstreamManager();
    const deleted: string[] = [];
    if (request.name) {
      const key = `${request.lab}.${request.name}`;
      const entry = await kv.get(key);
      if (entry?.operation !== 'PUT') throw new RpcError('not_found', `lab ${request.lab} has no stream ${request.name}`);
      await kv.delete(key);
      await jsm.streams.delete(labFrameStream(ns, request.lab, request.name)).catch(() => false);
      await jsm.streams.delete(labEventStream(ns, request.lab, request.name)).catch(() => false);
      deleted.push(request.name);
    } else {
      for (const dto of await this.list({ lab: request.lab })) {
        await kv.delete(`${dto.lab}.${dto.name}`);
        deleted.push(dto.name);
      }
      const prefix = labFrameStreamPrefix(ns, request.lab);
      const events = labEventStreamPrefix(ns, request.lab);
      for await (const name of jsm.streams.names()) {
        if (name.startsWith(events)) {
          await jsm.streams.delete(name).catch(() => false);
          continue;
        }
        if (!name.startsWith(prefix)) continue;
        await jsm.streams.delete(name).catch(() => false);
        const streamName = name.slice(prefix.length);
        if (!deleted.includes(streamName)) deleted.push(streamName);
      }
    }
    this.logger.log(`lab ${request.lab}: deleted stream(s) ${deleted.join(', ') || '(none)'}`);
    return { deleted };
  }

  /** The frame stream and its durable consumer (idempotent; settings follow the definition). */
  async ensureFrameStream(dto: LabStreamDto): Promise<void> {
    const jsm: JetStreamManager = await this.nats.jetstreamManager();
    const streamConfig = {
      name: dto.jetstream.stream,
      subjects: [dto.subjects.frames],
      retention: RetentionPolicy.Workqueue,
      storage: StorageType.File,
      max_msgs: this.streams.QDC_STREAM_MAX_BACKLOG,
      discard: DiscardPolicy.New,
      duplicate_window: nanos(this.streams.QDC_STREAM_DEDUP_WINDOW_MS),
      ...streamReplicas(this.config),
    };
    await jsm.streams.info(dto.jetstream.stream).then(
      () => jsm.streams.update(dto.jetstream.stream, streamConfig),
      () => jsm.streams.add(streamConfig),
    );
    const consumer = {
      durable_name: dto.jetstream.consumer,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(this.streams.QDC_STREAM_ACK_WAIT_MS),
      // The pull window: frames handed out but not yet answered (results are published in order).
      max_ack_pending: Math.max(2 * dto.max_in_flight, 2),
    };
    await jsm.consumers.info(dto.jetstream.stream, consumer.durable_name).then(
      () => jsm.consumers.update(dto.jetstream.stream, consumer.durable_name, { ack_wait: consumer.ack_wait, max_ack_pending: consumer.max_ack_pending }),
      () => jsm.consumers.add(dto.jetstream.stream, consumer),
    );
    await this.ensureEventStream(dto);
  }

  /**
   * The stream's events (labEventStream): stored once per `<frame id>@<seq>` within the duplicate window and
   * republished by the server on the results subject, so a frame answered twice is published once.
   */
  private async ensureEventStream(dto: LabStreamDto): Promise<void> {
    const jsm = await this.nats.jetstreamManager();
    const ns = this.config.QDC_NAMESPACE;
    const name = labEventStream(ns, dto.lab, dto.name);
    const subject = labStreamEventsSubject(ns, dto.lab, dto.name);
    const window = nanos(this.streams.QDC_STREAM_DEDUP_WINDOW_MS);
    const config = {
      name,
      subjects: [subject],
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      max_msgs: Math.max(this.streams.QDC_STREAM_MAX_BACKLOG, 10_000),
      max_age: window,
      duplicate_window: window,
      republish: { src: subject, dest: dto.subjects.results },
      ...streamReplicas(this.config),
    };
    await jsm.streams.info(name).then(
      () => jsm.streams.update(name, config),
      () => jsm.streams.add(config),
    );
  }

  /**
   * A replica taking a stream over starts a fresh consumer: the work queue keeps exactly the unacknowledged frames,
   * so they come again from the first, in order (the frames the previous holder had in flight included), and a
   * previous holder that was only paused pulls nothing more from its old consumer.
   */
  async resetConsumer(dto: LabStreamDto): Promise<void> {
    const jsm = await this.nats.jetstreamManager();
    await jsm.consumers.delete(dto.jetstream.stream, dto.jetstream.consumer).catch(() => false);
    await this.ensureFrameStream(dto);
  }
}
