import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Queue } from 'bullmq';
import { JobName, qpuDeviceQueueName, qpuRunJobId, type QpuSimulationJobData } from '#qdc/contracts';
import { QDC_CONFIG, SpanKind, countQueue, inSpan, queueOptions, withJobTrace, type QdcConfig } from '#qdc/platform';
import type { DeviceFile } from '../devices/device-file.js';
import type { QpuJobRow } from '../jobs/qpu-jobs.repository.js';
import { QPU_CONFIG, type QpuConfig } from '../qpu.config.js';
import type { BackendCapabilities, BackendPoll, QpuBackend } from './qpu-backend.js';

export const SIMULATED_PROVIDER = 'qdc-sim';

/**
 * Simulated devices: one BullMQ queue per device with a global concurrency of 1 (a device runs one job
 * at a time, whatever the number of simulation workers), executed by the simulation workers
 * (QpuDeviceProcessor). The BullMQ job id is derived from the QPU job id, so enqueueing a job again
 * (recovery after a restart) never makes a second execution.
 */
@Injectable()
export class SimulatedBackend implements QpuBackend, OnModuleDestroy {
  private readonly logger = new Logger(SimulatedBackend.name);
  private readonly queues = new Map<string, Queue>();
  private readonly prepared = new Set<string>();

  readonly capabilities: BackendCapabilities = { kind: 'simulated', provider: SIMULATED_PROVIDER, status: (device) => device.status };

  constructor(
    @Inject(QDC_CONFIG) private readonly config: QdcConfig,
    @Inject(QPU_CONFIG) private readonly qpu: QpuConfig,
  ) {}

  private async queue(device: DeviceFile): Promise<Queue> {
    let queue = this.queues.get(device.id);
    if (!queue) {
      queue = new Queue(qpuDeviceQueueName(device.id), queueOptions(this.config));
      this.queues.set(device.id, queue);
      countQueue(queue); // qdc_queue_jobs{queue="qpu-<device>"}
    }
    if (!this.prepared.has(device.id)) {
      await queue.setGlobalConcurrency(1);
      this.prepared.add(device.id);
    }
    return queue;
  }

  async submit(job: QpuJobRow, device: DeviceFile): Promise<void> {
    const queue = await this.queue(device);
    const attributes = { 'messaging.system': 'bullmq', 'messaging.destination.name': queue.name, 'messaging.message.id': qpuRunJobId(job.id) };
    await inSpan(`bullmq ${queue.name} ${JobName.RunQpuJob}`, { kind: SpanKind.PRODUCER, attributes }, async () => {
      // The simulation worker's span is a child of this one (trace context in the job data; tracing off = unchanged).
      const data: QpuSimulationJobData = withJobTrace({ jobId: job.id, deviceId: device.id, requestId: job.id });
      await queue.add(JobName.RunQpuJob, data, {
        jobId: qpuRunJobId(job.id),
        attempts: this.qpu.QDC_QPU_JOB_ATTEMPTS,
        backoff: { type: 'exponential', delay: 1000 },
        removeOnComplete: { age: 24 * 3600 },
        removeOnFail: { age: 7 * 24 * 3600 },
      });
    });
  }

  async poll(job: QpuJobRow, device: DeviceFile): Promise<BackendPoll> {
    const queued = await (await this.queue(device)).getJob(qpuRunJobId(job.id));
    if (!queued) return { state: 'lost' };
    const state = await queued.getState();
    if (state === 'failed')
      return { state: 'failed', error: `execution failed after ${queued.attemptsMade} attempt(s): ${queued.failedReason ?? 'unknown error'}` };
    // Completed in the queue but not in the database cannot happen (the worker reports before completing).
    if (state === 'completed') return { state: 'failed', error: 'the execution finished without reporting its result' };
    return { state: 'pending' };
  }

  async cancel(job: QpuJobRow, device: DeviceFile): Promise<void> {
    // A waiting job is removed; a running one finds its job cancelled and its result is discarded.
    const queued = await (await this.queue(device)).getJob(qpuRunJobId(job.id));
    if (!queued) return;
    const state = await queued.getState();
    if (state === 'waiting' || state === 'delayed' || state === 'prioritized') {
      await queued.remove().catch((error: Error) => this.logger.warn(`could not remove ${queued.id}: ${error.message}`));
    }
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}
