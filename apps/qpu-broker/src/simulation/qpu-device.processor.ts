import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Worker, type Job } from 'bullmq';
import {
  Events,
  JobName,
  QpuJobStatusChangedEvent,
  QpuSimulationJobData,
  RpcError,
  Subjects,
  qpuDeviceQueueName,
  type QpuExecutionAck,
  type QpuExecutionStartResponse,
} from '#qdc/contracts';
import { CircuitError } from '#qdc/circuits';
import { NatsService, QDC_CONFIG, requireRedisReady, timeJob, waitForDependencies, workerOptions, type QdcConfig } from '#qdc/platform';
import { SIMULATED_PROVIDER } from '../backends/simulated.backend.js';
import { DeviceCatalogue } from '../devices/device-catalogue.js';
import { DeviceToolchain } from '../devices/device-toolchain.js';
import { QPU_CONFIG, type QpuConfig } from '../qpu.config.js';

/** Longest single wait while emulating device time (a cancellation is noticed within it). */
const TIME_SLICE_MS = 100;

export type QpuExecutionOutcome = { ran: true; status: string } | { ran: false; status: string };

/**
 * Executes simulated-device QPU jobs in a simulation worker process: takes the job through the broker
 * (queued → running), spends the device's time (shots × shot_time_us × QDC_QPU_TIME_SCALE), simulates
 * with the device's noise, and hands the counts to the broker, which persists them, before the BullMQ
 * job completes. A worker that dies mid-job leaves the job to BullMQ's stalled-job recovery; the re-run
 * is seeded by the job id, and the broker stores one result (completion is a guarded transition).
 */
@Injectable()
export class QpuDeviceProcessor implements OnModuleDestroy {
  private readonly logger = new Logger(QpuDeviceProcessor.name);
  readonly workers: Worker<QpuSimulationJobData, QpuExecutionOutcome>[] = [];
  private readonly cancelled = new Set<string>();

  constructor(
    private readonly nats: NatsService,
    private readonly catalogue: DeviceCatalogue,
    private readonly toolchain: DeviceToolchain,
    @Inject(QDC_CONFIG) config: QdcConfig,
    @Inject(QPU_CONFIG) private readonly qpu: QpuConfig,
  ) {
    for (const device of catalogue.all().filter((d) => d.provider === SIMULATED_PROVIDER)) {
      const queue = qpuDeviceQueueName(device.id);
      // Timed (qdc_job_duration_seconds) and, with tracing on, a span that continues the submitting request's trace.
      const worker = new Worker<QpuSimulationJobData, QpuExecutionOutcome>(
        queue,
        (job) => timeJob(queue, JobName.RunQpuJob, () => this.process(job), job.data),
        { ...workerOptions(config), concurrency: 1 },
      );
      worker.on('failed', (job, error: Error) => this.logger.error(`QPU job ${job?.data.jobId} attempt ${job?.attemptsMade} failed: ${error.message}`));
      worker.on('error', (error: Error) => this.logger.error(`worker error: ${error.message}`));
      this.workers.push(worker);
    }
  }

  async start(): Promise<void> {
    if (this.workers.length === 0) return;
    await this.nats.connect();
    // A cancellation reaches a running execution as an event; its result would be discarded anyway.
    this.nats.subscribe(Events.QpuJobStatusChanged, async ({ payload }) => {
      const event = QpuJobStatusChangedEvent.safeParse(payload);
      if (event.success && event.data.to === 'cancelled') {
        this.cancelled.add(event.data.jobId);
        if (this.cancelled.size > 10_000) this.cancelled.clear();
      }
    });
    await waitForDependencies(() => requireRedisReady(this.workers[0]!.getBackend().client), this.logger);
    for (const worker of this.workers) void worker.run();
    this.logger.log(`QPU device workers running for ${this.workers.map((w) => w.name).join(', ')}`);
  }

  async process(job: Job<QpuSimulationJobData, QpuExecutionOutcome>): Promise<QpuExecutionOutcome> {
    const data = QpuSimulationJobData.parse(job.data);
    const device = this.catalogue.get(data.deviceId);
    if (!device) throw new Error(`device ${data.deviceId} is not in this worker's device files`);
    const start = await this.callBroker<QpuExecutionStartResponse>(Subjects.QpuExecutionStart, { jobId: data.jobId, attempt: job.attemptsMade });
    if (!start.run) return { ran: false, status: start.status };
    const started = performance.now();
    const deviceTimeMs = (start.shots * device.shot_time_us * this.qpu.QDC_QPU_TIME_SCALE) / 1000;
    for (let spent = 0; spent < deviceTimeMs; spent += TIME_SLICE_MS) {
      if (this.cancelled.has(data.jobId)) return { ran: false, status: 'cancelled' };
      await new Promise((resolve) => setTimeout(resolve, Math.min(TIME_SLICE_MS, deviceTimeMs - spent)));
    }
    if (this.cancelled.has(data.jobId)) return { ran: false, status: 'cancelled' };
    let result: { counts: Record<string, number>; method: string };
    try {
      result = this.toolchain.execute(start.compiled, device, { shots: start.shots, seed: start.seed });
    } catch (error) {
      // The circuit itself cannot run (e.g. memory): a final answer, not a reason to retry.
      if (error instanceof CircuitError) {
        const ack = await this.callBroker<QpuExecutionAck>(Subjects.QpuExecutionFail, { jobId: data.jobId, error: error.message });
        return { ran: false, status: ack.status };
      }
      throw error;
    }
    const ack = await this.callBroker<QpuExecutionAck>(Subjects.QpuExecutionComplete, {
      jobId: data.jobId,
      counts: result.counts,
      method: result.method,
      elapsedMs: performance.now() - started,
    });
    return { ran: true, status: ack.status };
  }

  /** A broker request, retried while the broker is away (restarting), up to QDC_QPU_REPORT_TIMEOUT_MS. */
  private async callBroker<T>(subject: string, payload: unknown): Promise<T> {
    const deadline = Date.now() + this.qpu.QDC_QPU_REPORT_TIMEOUT_MS;
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.nats.request<T>(subject, payload, { timeoutMs: 10_000 });
      } catch (error) {
        const retriable = error instanceof RpcError && (error.code === 'unavailable' || error.code === 'timeout');
        if (!retriable || Date.now() > deadline) throw error;
        if (attempt % 10 === 0) this.logger.warn(`${subject}: ${(error as Error).message}; retrying`);
        await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 100 * 2 ** attempt)));
      }
    }
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
  }
}
