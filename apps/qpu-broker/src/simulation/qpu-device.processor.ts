import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  QpuEvents,
  QpuExecutionJobs,
  QpuRpc,
  RpcError,
  qpuDeviceQueueName,
  type QpuExecutionOutcome,
  type QpuSimulationJobData,
  type RpcContract,
  type RpcRequestOf,
  type RpcResponseOf,
} from '#qdc/contracts';
import { CircuitError } from '#qdc/circuits';
import { EventBus, JobWorkerHost, RpcClient, type JobRun } from '#qdc/platform';
import { SIMULATED_PROVIDER } from '../backends/simulated.backend.js';
import { DeviceCatalogue } from '../devices/device-catalogue.js';
import { DeviceToolchain } from '../devices/device-toolchain.js';
import { QPU_CONFIG, type QpuConfig } from '../qpu.config.js';

/** Longest single wait while emulating device time (a cancellation is noticed within it). */
const TIME_SLICE_MS = 100;

/**
 * Executes simulated-device QPU jobs in a simulation worker process: takes the job through the broker
 * (queued → running), spends the device's time (shots × shot_time_us × QDC_QPU_TIME_SCALE), simulates
 * with the device's noise, and hands the counts to the broker, which persists them, before the BullMQ
 * job completes. A worker that dies mid-job leaves the job to BullMQ's stalled-job recovery; the re-run
 * is seeded by the job id, and the broker stores one result (completion is a guarded transition).
 */
@Injectable()
export class QpuDeviceProcessor {
  private readonly logger = new Logger(QpuDeviceProcessor.name);
  private readonly cancelled = new Set<string>();
  private listening = false;

  constructor(
    private readonly rpc: RpcClient,
    private readonly events: EventBus,
    private readonly catalogue: DeviceCatalogue,
    private readonly toolchain: DeviceToolchain,
    host: JobWorkerHost,
    @Inject(QPU_CONFIG) private readonly qpu: QpuConfig,
  ) {
    const queues = catalogue
      .all()
      .filter((d) => d.provider === SIMULATED_PROVIDER)
      .map((d) => qpuDeviceQueueName(d.id));
    if (queues.length === 0) return;
    // A device runs one job at a time (its queue's global concurrency is 1 as well).
    host.register(QpuExecutionJobs.runOnDevice, {
      what: 'QPU execution',
      queues,
      concurrency: 1,
      run: async (data, job) => ({ ok: true, response: await this.process(data, job) }),
      ready: async () => this.listenForCancellations(),
    });
  }

  /** A cancellation reaches a running execution as an event; its result would be discarded anyway. */
  private listenForCancellations(): void {
    if (this.listening) return;
    this.listening = true;
    this.events.listen(QpuEvents.jobStatusChanged, (event) => {
      if (event.to !== 'cancelled') return;
      this.cancelled.add(event.jobId);
      if (this.cancelled.size > 10_000) this.cancelled.clear();
    });
  }

  /** The handler of `QpuExecutionJobs.runOnDevice` (JobWorkerHost parses the data; nobody waits on its outcome). */
  async process(data: QpuSimulationJobData, job: Pick<JobRun, 'attemptsMade'>): Promise<QpuExecutionOutcome> {
    const device = this.catalogue.get(data.deviceId);
    if (!device) throw new Error(`device ${data.deviceId} is not in this worker's device files`);
    const start = await this.callBroker(QpuRpc.executionStart, { jobId: data.jobId, attempt: job.attemptsMade });
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
        const ack = await this.callBroker(QpuRpc.executionFail, { jobId: data.jobId, error: error.message });
        return { ran: false, status: ack.status };
      }
      throw error;
    }
    const ack = await this.callBroker(QpuRpc.executionComplete, {
      jobId: data.jobId,
      counts: result.counts,
      method: result.method,
      elapsedMs: performance.now() - started,
    });
    return { ran: true, status: ack.status };
  }

  /** A broker request, retried while the broker is away (restarting), up to QDC_QPU_REPORT_TIMEOUT_MS. */
  private async callBroker<C extends RpcContract>(contract: C, payload: RpcRequestOf<C>): Promise<RpcResponseOf<C>> {
    const deadline = Date.now() + this.qpu.QDC_QPU_REPORT_TIMEOUT_MS;
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.rpc.call(contract, payload, { timeoutMs: 10_000 });
      } catch (error) {
        const retriable = error instanceof RpcError && (error.code === 'unavailable' || error.code === 'timeout');
        if (!retriable || Date.now() > deadline) throw error;
        if (attempt % 10 === 0) this.logger.warn(`${contract.subject}: ${(error as Error).message}; retrying`);
        await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 100 * 2 ** attempt)));
      }
    }
  }
}
