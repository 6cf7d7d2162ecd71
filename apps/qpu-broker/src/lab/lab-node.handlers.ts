import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Msg } from '@nats-io/transport-node';
import {
  LabHeartbeat,
  LabRegisterRequest,
  LabReport,
  QpuEvents,
  QpuRpc,
  RpcError,
  labOfSubject,
  labWildcards,
  type LabRemoveDevicesRequest,
  type LabRemoveDevicesResponse,
  type LabReportAck,
  type RpcReply,
} from '#qdc/contracts';
import { EventHandler, NatsConnection, QDC_CONFIG, RpcHandler, type QdcConfig } from '#qdc/platform';
import { LabNodeBackendService } from '../backends/lab-node.backend.js';
import { circuitFromJson } from '../devices/device-toolchain.js';
import { QpuJobsRepository } from '../jobs/qpu-jobs.repository.js';
import { QpuJobsService } from '../jobs/qpu-jobs.service.js';
import { QPU_CONFIG, type QpuConfig } from '../qpu.config.js';
import { countsForCircuit } from '#qdc/lab';

/** JetStream's advisory when a message exhausted its consumer's max_deliver. */
const MAX_DELIVERIES_ADVISORY = '$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.*.*';

/**
 * The broker's side of the lab-node protocol (SPEC §6): registrations, heartbeats and job reports from
 * `<namespace>.lab.<lab>.…` subjects. The lab comes from the subject (NATS permissions limit a lab's user
 * to its own subjects); every message must also name the node that registered the device, and a report
 * must be for a job of that device: anything else is refused and logged as a forged report. Reports are
 * deduplicated by job id (guarded transitions), so a redelivered job stores one result and one charge.
 */
@Injectable()
export class LabNodeHandlers implements OnApplicationBootstrap {
  private readonly logger = new Logger(LabNodeHandlers.name);
  private readonly encoder = new TextEncoder();
  private lastHeartbeatReload = 0;

  constructor(
    private readonly nats: NatsConnection,
    private readonly backend: LabNodeBackendService,
    private readonly jobs: QpuJobsService,
    private readonly repository: QpuJobsRepository,
    @Inject(QDC_CONFIG) private readonly config: QdcConfig,
    @Inject(QPU_CONFIG) private readonly qpu: QpuConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.nats.connect();
    const nc = this.nats.raw;
    const ns = this.config.QDC_NAMESPACE;
    const queue = `${ns}-qpu-broker`;
    const subjects = labWildcards(ns);
    nc.subscribe(subjects.register, { queue, callback: (_err, msg) => void this.rpc(msg, (lab, body) => this.register(lab, body)) });
    nc.subscribe(subjects.report, { queue, callback: (_err, msg) => void this.rpc(msg, (lab, body) => this.report(lab, body)) });
    // One replica takes each heartbeat and writes it to the liveness bucket, which every replica watches.
    nc.subscribe(subjects.heartbeat, { queue, callback: (_err, msg) => this.heartbeat(msg) });
    nc.subscribe(MAX_DELIVERIES_ADVISORY, { queue, callback: (_err, msg) => void this.maxDeliveries(msg) });
  }

  /** A lab device registered or removed on some replica: every replica reloads its lab devices. */
  @EventHandler(QpuEvents.labDeviceChanged)
  async onLabDeviceChanged(): Promise<void> {
    await this.backend.reload().catch((error: Error) => this.logger.warn(`could not reload lab devices: ${error.message}`));
  }

  /** `qdc lab remove`: the lab's devices leave lab_devices and the device list; their queued jobs are failed now. */
  @RpcHandler(QpuRpc.removeLabDevices)
  async removeDevices(request: LabRemoveDevicesRequest): Promise<LabRemoveDevicesResponse> {
    const devices = await this.backend.removeLab(request.lab);
    const { failed } = devices.length ? await this.jobs.recover() : { failed: 0 };
    return { devices, failedJobs: failed };
  }

  private async rpc(msg: Msg, handle: (lab: string, body: unknown) => Promise<unknown>): Promise<void> {
    let reply: RpcReply<unknown>;
    try {
      const lab = labOfSubject(this.config.QDC_NAMESPACE, msg.subject);
      if (!lab) throw new RpcError('invalid_input', `subject ${msg.subject} names no lab`);
      let body: unknown;
      try {
        body = JSON.parse(new TextDecoder().decode(msg.data));
      } catch {
        throw new RpcError('invalid_input', 'the message body is not JSON');
      }
      reply = { ok: true, data: await handle(lab, body) };
    } catch (error) {
      const rpc = error instanceof RpcError ? error : new RpcError('internal', (error as Error).message);
      if (!(error instanceof RpcError)) this.logger.error(`${msg.subject}: ${(error as Error).stack}`);
      reply = { ok: false, error: { code: rpc.code, message: rpc.message, ...(rpc.details ? { details: rpc.details } : {}) } } as RpcReply<unknown>;
    }
    if (msg.reply) msg.respond(this.encoder.encode(JSON.stringify(reply)));
  }

  private async register(lab: string, body: unknown) {
    const parsed = LabRegisterRequest.safeParse(body);
    if (!parsed.success) throw new RpcError('invalid_input', `registration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    return this.backend.register(lab, parsed.data.node_id, parsed.data.device);
  }

  private heartbeat(msg: Msg): void {
    const lab = labOfSubject(this.config.QDC_NAMESPACE, msg.subject);
    let parsed: ReturnType<typeof LabHeartbeat.safeParse> | undefined;
    try {
      parsed = LabHeartbeat.safeParse(JSON.parse(new TextDecoder().decode(msg.data)));
    } catch {
      parsed = undefined;
    }
    if (!lab || !parsed?.success) return;
    const beat = parsed.data;
    const at = Date.now();
    if (this.backend.heartbeat(lab, beat.node_id, beat.device_id, at)) return;
    // Heartbeats are queue-grouped: this replica may not have read a registration another replica just stored
    // (re-read at most once a second, so that a flood of unknown heartbeats costs no database load).
    const ignored = () =>
      this.logger.warn(`ignored heartbeat for device ${beat.device_id} from lab ${lab} node ${beat.node_id}: not the node that registered it`);
    if (at - this.lastHeartbeatReload < 1000) {
      ignored();
      return;
    }
    this.lastHeartbeatReload = at;
    void this.backend
      .reload()
      .then(() => {
        if (!this.backend.heartbeat(lab, beat.node_id, beat.device_id, at)) ignored();
      })
      .catch((error: Error) => this.logger.warn(`could not reload lab devices: ${error.message}`));
  }

  /** A node's report, checked against the device's registered lab and node and the job's device. */
  async report(lab: string, body: unknown): Promise<LabReportAck> {
    const parsed = LabReport.safeParse(body);
    if (!parsed.success) throw new RpcError('invalid_input', `report: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    const report = parsed.data;
    const entry = this.backend.entry(report.device_id);
    const job = await this.repository.find(report.job_id);
    const forged = !entry
      ? `device ${report.device_id} is not a registered lab device`
      : entry.lab !== lab
        ? `device ${report.device_id} belongs to lab ${entry.lab}`
        : entry.nodeId !== report.node_id
          ? `device ${report.device_id} is served by node ${entry.nodeId}`
          : !job || job.deviceId !== report.device_id
            ? `job ${report.job_id} is not a job of device ${report.device_id}`
            : undefined;
    if (forged) {
      this.logger.warn(`rejected ${report.type} report for job ${report.job_id} from lab ${lab} node ${report.node_id}: ${forged}`);
      throw new RpcError('forbidden', `report rejected: ${forged}`);
    }
    switch (report.type) {
      case 'running': {
        const result = await this.jobs.transition(report.job_id, 'running', `started on lab node ${report.node_id} (delivery ${report.delivery})`);
        const now = result.job!;
        if (!result.applied && now.status === 'running')
          this.logger.warn(`job ${now.id}: redelivered to node ${report.node_id} (delivery ${report.delivery}); the previous delivery did not report`);
        return { status: now.status, run: now.status === 'running' };
      }
      case 'completed': {
        let counts: Record<string, number>;
        try {
          counts = countsForCircuit(report.counts, circuitFromJson(job!.compiled), job!.shots);
        } catch (error) {
          throw new RpcError('invalid_input', `job ${report.job_id}: ${(error as Error).message}`);
        }
        const ack = await this.jobs.executionComplete({ jobId: report.job_id, counts, method: `lab node ${report.node_id}`, elapsedMs: report.elapsed_ms });
        return { status: ack.status, run: false };
      }
      case 'failed': {
        const ack = await this.jobs.executionFail({ jobId: report.job_id, error: `lab device ${report.device_id} (node ${report.node_id}): ${report.error}` });
        return { status: ack.status, run: false };
      }
    }
  }

  /** A job no node finished within max_deliver deliveries: failed with a clear error, its message removed. */
  private async maxDeliveries(msg: Msg): Promise<void> {
    try {
      const advisory = JSON.parse(new TextDecoder().decode(msg.data)) as { stream?: string; stream_seq?: number; deliveries?: number };
      const prefix = `${this.config.QDC_NAMESPACE}-lab-`;
      if (!advisory.stream?.startsWith(prefix) || !advisory.stream_seq) return;
      const lab = advisory.stream.slice(prefix.length);
      const message = await this.backend.messageAt(lab, advisory.stream_seq);
      if (!message) return;
      const error =
        `the lab node did not finish the job in ${advisory.deliveries ?? this.qpu.QDC_LAB_MAX_DELIVER} deliveries ` +
        `(each without progress for ${Math.round(this.qpu.QDC_LAB_ACK_WAIT_MS / 1000)} s: the node crashed or lost its connection)`;
      const result = await this.jobs.transition(message.job_id, 'failed', 'lab node: max deliveries exhausted', { error });
      if (result.applied) this.logger.warn(`job ${message.job_id} on ${message.device_id}: ${error}`);
      await this.backend.discard(lab, advisory.stream_seq);
    } catch (error) {
      this.logger.error(`max-deliveries advisory: ${(error as Error).message}`);
    }
  }
}
