import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { AckPolicy, RetentionPolicy, StorageType, jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import { nanos } from '@nats-io/transport-node';
import { CircuitError, validateDeviceSpec } from '#qdc/circuits';
import {
  LAB_ID_PATTERN,
  QpuEvents,
  RpcError,
  labDeviceConsumer,
  labJobStream,
  labSubjects,
  type LabJobMessage,
  type LabRegisterResponse,
} from '#qdc/contracts';
import { EventBus, NatsConnection, PrismaService, QDC_CONFIG, matchReplicas, replicatedKv, streamReplicas, type QdcConfig } from '#qdc/platform';
import { DeviceCatalogue } from '../devices/device-catalogue.js';
import { DeviceFile } from '../devices/device-file.js';
import { circuitFromJson } from '../devices/device-toolchain.js';
import type { QpuJobRow } from '../jobs/qpu-jobs.repository.js';
import { seedOfJob } from '../jobs/qpu-jobs.service.js';
import { toNativeGateIR } from '#qdc/lab';
import { QPU_CONFIG, type QpuConfig } from '../qpu.config.js';
import type { BackendCapabilities, BackendPoll, QpuBackend } from './qpu-backend.js';

export const LAB_PROVIDER = 'lab';

/**
 * The contract a lab-node backend fulfils (SPEC §6 "Lab nodes"). A node registers its device file,
 * heartbeats (QDC_LAB_OFFLINE_AFTER_MS without one → `offline`; its jobs stay `queued`), takes jobs for its
 * own device as NativeGateIR and reports counts over NATS; the broker persists a job before offering it
 * and the node acknowledges it only after the broker stored its report.
 */
export interface LabNodeBackend extends QpuBackend {
  readonly capabilities: BackendCapabilities & { kind: 'lab' };
  /** A node announced (or re-announced) its device; throws an RpcError saying why it was refused. */
  register(lab: string, nodeId: string, device: unknown): Promise<LabRegisterResponse>;
  /** A heartbeat from a node; updates its device's online status (ignored unless the node owns the device). */
  heartbeat(lab: string, nodeId: string, deviceId: string, at: number): boolean;
}

export interface LabDeviceEntry {
  device: DeviceFile;
  lab: string;
  nodeId: string;
}

/** The JetStream KV bucket of lab device liveness (key = device id, value = `{"at": epoch ms}` of the last heartbeat). */
export const labLivenessBucket = (namespace: string): string => `${namespace}-lab-liveness`;

/**
 * Lab devices: registrations in Postgres (`lab_devices`, the first lab to register an id owns it), liveness
 * from heartbeats (the replica that takes a heartbeat writes it to the KV bucket `<ns>-lab-liveness`; every replica
 * watches the bucket, so all replicas, including one started later, agree on online/offline), jobs on the lab's JetStream work-queue stream (one subject per
 * device and job, Nats-Msg-Id = job id, so a re-publication within the duplicate window is dropped) read by
 * the device's durable pull consumer (explicit acks, ack wait, max deliver, one job in flight).
 */
@Injectable()
export class LabNodeBackendService implements LabNodeBackend, OnModuleInit {
  private readonly logger = new Logger(LabNodeBackendService.name);
  private readonly entries = new Map<string, LabDeviceEntry>();
  private readonly lastSeen = new Map<string, number>();
  private readonly preparedStreams = new Set<string>();
  private jsm?: JetStreamManager;
  private liveness?: KV;

  readonly capabilities: BackendCapabilities & { kind: 'lab' } = {
    kind: 'lab',
    provider: LAB_PROVIDER,
    status: (device) => (this.isOnline(device.id) ? 'online' : 'offline'),
  };

  constructor(
    private readonly nats: NatsConnection,
    private readonly events: EventBus,
    private readonly prisma: PrismaService,
    private readonly catalogue: DeviceCatalogue,
    @Inject(QDC_CONFIG) private readonly config: QdcConfig,
    @Inject(QPU_CONFIG) private readonly qpu: QpuConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.reload();
    await this.watchLiveness();
  }

  /** Every replica's view of liveness follows the bucket (its current values first, then every heartbeat). */
  private async watchLiveness(): Promise<void> {
    await this.nats.connect();
    const kv = await replicatedKv(this.nats.raw, this.config, labLivenessBucket(this.config.QDC_NAMESPACE), { history: 1 });
    this.liveness = kv;
    const watch = await kv.watch();
    void (async () => {
      for await (const entry of watch) {
        if (entry.operation !== 'PUT') {
          this.lastSeen.delete(entry.key);
          continue;
        }
        const at = Number(entry.json<{ at: number }>().at);
        if (Number.isFinite(at) && at > (this.lastSeen.get(entry.key) ?? 0)) this.lastSeen.set(entry.key, at);
      }
    })().catch((error: Error) => this.logger.warn(`liveness watch ended: ${error.message}`));
  }

  private recordSeen(deviceId: string, at: number): void {
    this.lastSeen.set(deviceId, Math.max(at, this.lastSeen.get(deviceId) ?? 0));
    void this.liveness
      ?.put(deviceId, JSON.stringify({ at }))
      .catch((error: Error) => this.logger.warn(`could not record the heartbeat of ${deviceId}: ${error.message}`));
  }

  /** Reads every registration (at boot, and when another replica says one changed or was removed). */
  async reload(): Promise<void> {
    const { rows } = await this.prisma.pool.query<{ id: string; lab: string; node_id: string; device: unknown }>(
      'SELECT id, lab, node_id, device FROM lab_devices',
    );
    const present = new Set(rows.map((r) => r.id));
    for (const id of [...this.entries.keys()]) if (!present.has(id)) this.forget(id);
    for (const row of rows) {
      const parsed = DeviceFile.safeParse(row.device);
      if (parsed.success) this.entries.set(row.id, { device: parsed.data, lab: row.lab, nodeId: row.node_id });
    }
  }

  /**
   * `qdc lab remove`: deletes the lab's registrations (lab_devices) and their liveness, here and — through
   * QpuEvents.labDeviceChanged, on which every replica reloads — on every replica, so the devices leave `GET /qpus` and
   * jobs still queued for them are failed by the recovery sweep ("not configured on this broker any more").
   */
  async removeLab(lab: string): Promise<string[]> {
    const { rows } = await this.prisma.pool.query<{ id: string }>('DELETE FROM lab_devices WHERE lab = $1 RETURNING id', [lab]);
    const ids = rows.map((r) => r.id).sort();
    for (const id of ids) {
      this.forget(id);
      await this.liveness?.delete(id).catch(() => undefined);
    }
    for (const key of [...this.preparedStreams]) if (key.startsWith(`${lab}/`)) this.preparedStreams.delete(key);
    void this.events.publish(QpuEvents.labDeviceChanged, { lab, removed: ids }).catch(() => undefined);
    this.logger.log(`lab ${lab}: removed device(s) ${ids.join(', ') || '(none)'}`);
    return ids;
  }

  private forget(deviceId: string): void {
    this.entries.delete(deviceId);
    this.lastSeen.delete(deviceId);
  }

  /** Lab devices as device files (listed by the backend registry beside the file-configured ones). */
  listDevices(): DeviceFile[] {
    return [...this.entries.values()].map((e) => e.device);
  }

  entry(deviceId: string): LabDeviceEntry | undefined {
    return this.entries.get(deviceId);
  }

  isOnline(deviceId: string, now = Date.now()): boolean {
    const seen = this.lastSeen.get(deviceId);
    return seen !== undefined && now - seen < this.qpu.QDC_LAB_OFFLINE_AFTER_MS;
  }

  async register(lab: string, nodeId: string, raw: unknown): Promise<LabRegisterResponse> {
    if (!LAB_ID_PATTERN.test(lab)) throw new RpcError('invalid_input', `lab '${lab}' is not a valid lab id`);
    const parsed = DeviceFile.safeParse({ ...(raw as object), provider: LAB_PROVIDER });
    if (!parsed.success) throw new RpcError('invalid_input', `device file: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    const { executor: _executor, lab: _lab, ...device } = parsed.data as DeviceFile & { executor?: unknown; lab?: unknown };
    if (!LAB_ID_PATTERN.test(device.id))
      throw new RpcError('invalid_input', `device id '${device.id}' must be a single subject token: lower-case letters, digits, dashes and underscores`);
    try {
      validateDeviceSpec(device);
    } catch (error) {
      throw new RpcError('invalid_input', `device file: ${(error as Error).message}`);
    }
    if (this.catalogue.get(device.id)) throw new RpcError('conflict', `device id '${device.id}' is a device of this deployment; choose another id`);
    // The first lab to register an id owns it; the same lab may re-register (a restarted or replaced node).
    const { rows } = await this.prisma.pool.query<{ lab: string }>(
      `INSERT INTO lab_devices (id, lab, node_id, device) VALUES ($1, $2, $3, $4)
       ON CONFLICT (id) DO UPDATE SET node_id = EXCLUDED.node_id, device = EXCLUDED.device, updated_at = now() WHERE lab_devices.lab = EXCLUDED.lab
       RETURNING lab`,
      [device.id, lab, nodeId, JSON.stringify(device)],
    );
    if (rows.length === 0) {
      this.logger.warn(`refused registration of device ${device.id} by lab ${lab} (node ${nodeId}): the device belongs to another lab`);
      throw new RpcError('forbidden', `device '${device.id}' is registered by another lab`);
    }
    this.entries.set(device.id, { device: device as DeviceFile, lab, nodeId });
    this.recordSeen(device.id, Date.now());
    await this.ensureStream(lab, device.id);
    void this.events.publish(QpuEvents.labDeviceChanged, { deviceId: device.id }).catch(() => undefined);
    this.logger.log(`lab ${lab}: node ${nodeId} registered device ${device.id}`);
    return {
      device_id: device.id,
      stream: labJobStream(this.config.QDC_NAMESPACE, lab),
      consumer: labDeviceConsumer(device.id),
      heartbeat_ms: Math.max(100, Math.floor(this.qpu.QDC_LAB_OFFLINE_AFTER_MS / 3)),
      ack_wait_ms: this.qpu.QDC_LAB_ACK_WAIT_MS,
    };
  }

  heartbeat(lab: string, nodeId: string, deviceId: string, at: number): boolean {
    const entry = this.entries.get(deviceId);
    if (!entry || entry.lab !== lab || entry.nodeId !== nodeId) return false;
    this.recordSeen(deviceId, at);
    return true;
  }

  private async manager(): Promise<JetStreamManager> {
    if (!this.jsm) this.jsm = await jetstreamManager(this.nats.raw);
    return this.jsm;
  }

  /** The lab's work-queue stream and the device's durable pull consumer (idempotent). */
  private async ensureStream(lab: string, deviceId: string): Promise<void> {
    const key = `${lab}/${deviceId}`;
    if (this.preparedStreams.has(key)) return;
    const jsm = await this.manager();
    const stream = labJobStream(this.config.QDC_NAMESPACE, lab);
    const subjects = labSubjects(this.config.QDC_NAMESPACE, lab);
    await jsm.streams.info(stream).then(
      (info) => matchReplicas(jsm, info, this.config),
      () =>
        jsm.streams.add({
          name: stream,
          subjects: [`${subjects.jobs}.>`],
          retention: RetentionPolicy.Workqueue,
          storage: StorageType.File,
          duplicate_window: nanos(2 * 60_000),
          ...streamReplicas(this.config),
        }),
    );
    const consumer = {
      durable_name: labDeviceConsumer(deviceId),
      filter_subject: subjects.deviceJobs(deviceId),
      ack_policy: AckPolicy.Explicit,
      ack_wait: nanos(this.qpu.QDC_LAB_ACK_WAIT_MS),
      max_deliver: this.qpu.QDC_LAB_MAX_DELIVER,
      // A device runs one job at a time, however many nodes serve it.
      max_ack_pending: 1,
    };
    await jsm.consumers.info(stream, consumer.durable_name).then(
      () => jsm.consumers.update(stream, consumer.durable_name, { ack_wait: consumer.ack_wait, max_deliver: consumer.max_deliver }),
      () => jsm.consumers.add(stream, consumer),
    );
    this.preparedStreams.add(key);
  }

  /** Refuses, at submission, circuits a lab device cannot take (NativeGateIR has terminal measurements only). */
  refuseUnsupported(compiled: unknown): void {
    toNativeGateIR(circuitFromJson(compiled), 1);
  }

  async submit(job: QpuJobRow, device: DeviceFile): Promise<void> {
    const entry = this.entries.get(device.id);
    if (!entry) throw new Error(`lab device ${device.id} is not registered`);
    await this.ensureStream(entry.lab, device.id);
    let circuit: LabJobMessage['circuit'];
    try {
      circuit = toNativeGateIR(circuitFromJson(job.compiled), job.shots);
    } catch (error) {
      if (error instanceof CircuitError) throw new Error(`job ${job.id} cannot run on a lab device: ${error.message}`);
      throw error;
    }
    const message: LabJobMessage = { job_id: job.id, device_id: device.id, seed: seedOfJob(job.id), circuit };
    try {
      await jetstream(this.nats.raw).publish(labSubjects(this.config.QDC_NAMESPACE, entry.lab).job(device.id, job.id), JSON.stringify(message), {
        msgID: job.id,
      });
    } catch (error) {
      // The stream may be gone (a NATS server without persistence restarted): create it again next time.
      this.preparedStreams.delete(`${entry.lab}/${device.id}`);
      throw error;
    }
  }

  private async storedMessage(job: QpuJobRow, device: DeviceFile) {
    const entry = this.entries.get(device.id);
    if (!entry) return null;
    const jsm = await this.manager();
    return jsm.streams
      .getMessage(labJobStream(this.config.QDC_NAMESPACE, entry.lab), {
        last_by_subj: labSubjects(this.config.QDC_NAMESPACE, entry.lab).job(device.id, job.id),
      })
      .catch(() => null);
  }

  /** A job is pending while its message is in the stream; gone (never published, or a lost stream) → `lost`. */
  async poll(job: QpuJobRow, device: DeviceFile): Promise<BackendPoll> {
    return (await this.storedMessage(job, device)) ? { state: 'pending' } : { state: 'lost' };
  }

  /** A queued job's message is removed; a running one is answered `run: false` / its result discarded. */
  async cancel(job: QpuJobRow, device: DeviceFile): Promise<void> {
    const entry = this.entries.get(device.id);
    const stored = await this.storedMessage(job, device);
    if (!entry || !stored || job.status !== 'cancelled') return;
    await (await this.manager()).streams.deleteMessage(labJobStream(this.config.QDC_NAMESPACE, entry.lab), stored.seq, false).catch(() => false);
  }

  /** Removes a job's message from the stream (after it was failed for exhausting its deliveries). */
  async discard(lab: string, seq: number): Promise<void> {
    await (await this.manager()).streams.deleteMessage(labJobStream(this.config.QDC_NAMESPACE, lab), seq, false).catch(() => false);
  }

  async messageAt(lab: string, seq: number): Promise<LabJobMessage | undefined> {
    const stored = await (await this.manager()).streams.getMessage(labJobStream(this.config.QDC_NAMESPACE, lab), { seq }).catch(() => null);
    if (!stored) return undefined;
    try {
      return stored.json<LabJobMessage>();
    } catch {
      return undefined;
    }
  }
}
