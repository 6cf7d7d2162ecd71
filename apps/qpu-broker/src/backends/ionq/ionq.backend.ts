import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { DelayedError, Queue } from 'bullmq';
import { CircuitError } from '#qdc/circuits';
import { QpuExecutionJobs, type IonqPollJobData } from '#qdc/contracts';
import { JobWorkerHost, QDC_CONFIG, countQueue, queueOptions, type JobRun, type QdcConfig } from '#qdc/platform';
import type { DeviceFile } from '../../devices/device-file.js';
import { DeviceCatalogue } from '../../devices/device-catalogue.js';
import { circuitFromJson } from '../../devices/device-toolchain.js';
import { isTerminal } from '../../jobs/job-state.js';
import { QpuJobsRepository, type QpuJobRow } from '../../jobs/qpu-jobs.repository.js';
import { QpuJobsService } from '../../jobs/qpu-jobs.service.js';
import { QPU_CONFIG, type QpuConfig } from '../../qpu.config.js';
import type { BackendCapabilities, BackendPoll, QpuBackend } from '../qpu-backend.js';
import { countsFromHistogram, toIonqInput } from './ionq-circuit.js';
import { IonqClient, IonqHttpError } from './ionq.client.js';

export const IONQ_PROVIDER = 'ionq';

const runJobId = (jobId: string): string => `ionq-${jobId}`;

/**
 * IonQ's cloud (v0.3 jobs API), enabled only when QDC_IONQ_API_KEY is set. One BullMQ job per QPU job
 * (id from the QPU job id) creates the IonQ job once (its id is stored before anything else happens),
 * then polls its status by re-delaying itself with exponential backoff (QDC_QPU_POLL_INITIAL_MS doubling
 * up to QDC_QPU_POLL_MAX_INTERVAL_MS). A job without a final status after QDC_QPU_POLL_MAX_AGE_MS is
 * failed (dead letter) and cancelled at IonQ; a BullMQ job that keeps throwing ends in BullMQ's failed set,
 * which the recovery sweep turns into a failed QPU job. Tested against a local server speaking the
 * documented shapes only (README).
 */
@Injectable()
export class IonqBackend implements QpuBackend, OnModuleDestroy {
  private readonly logger = new Logger(IonqBackend.name);
  readonly enabled: boolean;
  private readonly client?: IonqClient;
  private queue?: Queue<IonqPollJobData>;

  readonly capabilities: BackendCapabilities = { kind: 'cloud', provider: IONQ_PROVIDER, status: (device) => device.status };

  constructor(
    @Inject(QDC_CONFIG) config: QdcConfig,
    @Inject(QPU_CONFIG) private readonly qpu: QpuConfig,
    private readonly jobs: QpuJobsRepository,
    private readonly catalogue: DeviceCatalogue,
    private readonly modules: ModuleRef,
    host: JobWorkerHost,
  ) {
    this.enabled = !!qpu.QDC_IONQ_API_KEY;
    if (!this.enabled) return;
    this.client = new IonqClient(qpu.QDC_IONQ_BASE_URL, qpu.QDC_IONQ_API_KEY!);
    this.queue = new Queue(QpuExecutionJobs.pollCloud.queue, queueOptions(config));
    countQueue(this.queue);
    host.register(QpuExecutionJobs.pollCloud, {
      what: 'IonQ job',
      concurrency: 8,
      run: async (data, job) => ({ ok: true, response: await this.process(data, job) }),
    });
    this.logger.log(`IonQ backend enabled (${qpu.QDC_IONQ_BASE_URL})`);
  }

  /** Transitions go through the job service (persisted with their event, then published); resolved lazily (it depends on the backends). */
  private get service(): QpuJobsService {
    return this.modules.get(QpuJobsService, { strict: false });
  }

  async submit(job: QpuJobRow): Promise<void> {
    await this.queue!.add(
      QpuExecutionJobs.pollCloud.name,
      { jobId: job.id, polls: 0 },
      {
        jobId: runJobId(job.id),
        attempts: 5,
        backoff: { type: 'exponential', delay: 2000 },
        removeOnComplete: { age: 24 * 3600 },
        removeOnFail: { age: 7 * 24 * 3600 },
      },
    );
  }

  async poll(job: QpuJobRow): Promise<BackendPoll> {
    const queued = await this.queue!.getJob(runJobId(job.id));
    if (!queued) return { state: 'lost' };
    const state = await queued.getState();
    if (state === 'failed')
      return { state: 'failed', error: `IonQ job handling failed after ${queued.attemptsMade} attempt(s): ${queued.failedReason ?? 'unknown error'}` };
    if (state === 'completed') return { state: 'failed', error: 'IonQ job handling ended without a final status' };
    return { state: 'pending' };
  }

  async cancel(job: QpuJobRow): Promise<void> {
    if (job.backendJobId) await this.client!.cancelJob(job.backendJobId);
  }

  /** The handler of `QpuExecutionJobs.pollCloud` (JobWorkerHost): create the IonQ job, or poll it and re-delay. */
  async process(data: IonqPollJobData, job: Pick<JobRun, 'bullJob' | 'token'>): Promise<string> {
    const row = await this.jobs.find(data.jobId);
    if (!row || isTerminal(row.status)) return row?.status ?? 'unknown';
    const delay = Math.min(this.qpu.QDC_QPU_POLL_INITIAL_MS * 2 ** data.polls, this.qpu.QDC_QPU_POLL_MAX_INTERVAL_MS);
    try {
      if (!row.backendJobId) await this.create(row);
      else if (await this.check(row)) return 'final';
    } catch (error) {
      if (error instanceof CircuitError || (error instanceof IonqHttpError && !error.retriable)) {
        await this.service.transition(row.id, 'failed', 'refused by IonQ', { error: error.message });
        return 'failed';
      }
      // Network trouble, 429 or 5xx: try again at the next poll.
      this.logger.warn(`job ${row.id}: ${(error as Error).message}; retrying in ${delay} ms`);
    }
    await job.bullJob.updateData({ ...data, polls: data.polls + 1 });
    await job.bullJob.moveToDelayed(Date.now() + delay, job.token);
    throw new DelayedError();
  }

  /** Creates the IonQ job and stores its id (a crash between the two would submit again: see README). */
  private async create(row: QpuJobRow): Promise<void> {
    const device = this.device(row);
    const { input } = toIonqInput(circuitFromJson(row.compiled));
    const created = await this.client!.createJob({
      target: device.ionq_target ?? 'simulator',
      shots: row.shots,
      name: `qdc-${row.id}`,
      metadata: { qdc_job_id: row.id },
      input,
    });
    await this.jobs.setBackendJobId(row.id, created.id);
    this.logger.log(`job ${row.id} → IonQ job ${created.id} (${created.status})`);
  }

  /** One status poll; true when the job reached a final state. */
  private async check(row: QpuJobRow): Promise<boolean> {
    const age = Date.now() - row.submittedAt.getTime();
    if (age > this.qpu.QDC_QPU_POLL_MAX_AGE_MS) {
      await this.service.transition(row.id, 'failed', 'dead letter: no final status from IonQ in time', {
        error: `IonQ job ${row.backendJobId} had no final status after ${Math.round(age / 1000)} s (limit ${Math.round(this.qpu.QDC_QPU_POLL_MAX_AGE_MS / 1000)} s); it was cancelled at IonQ`,
      });
      await this.client!.cancelJob(row.backendJobId!).catch((error: Error) => this.logger.warn(`job ${row.id}: cancel at IonQ failed: ${error.message}`));
      return true;
    }
    const remote = await this.client!.getJob(row.backendJobId!);
    switch (remote.status) {
      case 'ready':
      case 'submitted':
        return false;
      case 'running':
        if (row.status === 'queued') await this.service.transition(row.id, 'running', 'IonQ reports running');
        return false;
      case 'completed': {
        const circuit = circuitFromJson(row.compiled);
        const histogram = await this.client!.getResults(row.backendJobId!);
        const counts = countsFromHistogram(histogram, circuit, toIonqInput(circuit).measurements, row.shots);
        if (row.status === 'queued') await this.service.transition(row.id, 'running', 'IonQ reports completed');
        await this.service.transition(row.id, 'completed', `completed at IonQ (job ${remote.id})`, { counts });
        return true;
      }
      case 'failed':
        await this.service.transition(row.id, 'failed', 'IonQ reports failed', {
          error: `IonQ: ${remote.failure?.error ?? 'failed'}${remote.failure?.code ? ` (${remote.failure.code})` : ''}`,
        });
        return true;
      case 'canceled':
        await this.service.transition(row.id, 'cancelled', 'cancelled at IonQ');
        return true;
      default:
        this.logger.warn(`job ${row.id}: IonQ status '${String(remote.status)}' is not documented; polling on`);
        return false;
    }
  }

  private device(row: QpuJobRow): DeviceFile {
    const device = this.catalogue.get(row.deviceId);
    if (!device) throw new CircuitError('limit', `device ${row.deviceId} is not configured`);
    return device;
  }

  async onModuleDestroy(): Promise<void> {
    await this.queue?.close();
  }
}
