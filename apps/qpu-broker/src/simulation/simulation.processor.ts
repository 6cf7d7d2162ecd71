import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Worker, type Job } from 'bullmq';
import { QueueName, RpcError, SimulationJobData } from '#qdc/contracts';
import {
  NatsService,
  QDC_CONFIG,
  isRedisReady,
  publishJobOutcome,
  releaseJobMemory,
  timeJob,
  requireRedisReady,
  waitForDependencies,
  workerOptions,
  type QdcConfig,
} from '#qdc/platform';
import { runSimulationInThread } from './simulation-thread-runner.js';
import { SIMULATION_CONFIG, type SimulationConfig } from './simulation.config.js';
import type { SimulationOutcome } from './simulation-outcome.js';

/**
 * A simulation worker: runs one large simulation at a time (CPU-bound: scale processes), in a thread of its
 * own so the event loop keeps renewing the job lock; a worker that dies mid-job leaves the job to BullMQ's
 * stalled-job recovery, which retries it within QDC_JOB_LOCK_MS (+ the stalled-check interval).
 */
@Injectable()
export class SimulationProcessor implements OnModuleDestroy {
  private readonly logger = new Logger(SimulationProcessor.name);
  readonly worker: Worker<SimulationJobData, SimulationOutcome>;

  constructor(
    private readonly nats: NatsService,
    @Inject(QDC_CONFIG) config: QdcConfig,
    @Inject(SIMULATION_CONFIG) private readonly sim: SimulationConfig,
  ) {
    // The simulation runs in a thread (runSimulationInThread), so the normal job lock is renewed while it runs and a
    // killed worker's job is retried within QDC_JOB_LOCK_MS, not after the longest simulation could take.
    this.worker = new Worker(
      QueueName.Simulation,
      (job) =>
        timeJob(
          QueueName.Simulation,
          'simulate',
          () => publishJobOutcome(this.nats, QueueName.Simulation, job, 'the simulation', () => this.process(job)),
          job.data,
        ),
      workerOptions(config),
    );
    this.worker.on('failed', (job, error: Error) =>
      this.logger.error(`[${job?.data.requestId}] job ${job?.id} attempt ${job?.attemptsMade} failed: ${error.message}`),
    );
    this.worker.on('error', (error: Error) => this.logger.error(`worker error: ${error.message}`));
  }

  /** Starts taking jobs once NATS (health) and Redis answer. */
  async start(): Promise<void> {
    await this.nats.connect();
    await waitForDependencies(() => requireRedisReady(this.worker.getBackend().client), this.logger);
    void this.worker.run();
    this.logger.log('simulation worker running');
  }

  async process(job: Job<SimulationJobData, SimulationOutcome>): Promise<SimulationOutcome> {
    const data = SimulationJobData.parse(job.data);
    const deadline = (job.data as { deadline?: unknown }).deadline;
    try {
      const response = await runSimulationInThread(data, this.sim, typeof deadline === 'number' ? deadline : undefined);
      this.logger.debug(`[${data.requestId}] ${response.qubitCount} qubits, ${data.shots} shots: ${response.elapsedMs} ms`);
      return { ok: true, response };
    } catch (error) {
      if (error instanceof RpcError && error.code === 'invalid_input') return { ok: false, error: error.toBody() };
      throw error;
    } finally {
      // The state vector (up to QDC_SIM_MEMORY_LIMIT_BYTES) is garbage now; give it back rather than keep it while idle.
      if (releaseJobMemory()) this.logger.debug(`[${data.requestId}] released the simulation's memory`);
    }
  }

  isRedisReady(): Promise<boolean> {
    return isRedisReady(this.worker.getBackend().client);
  }

  /** SIGTERM: stop taking jobs, let the current one finish. */
  async onModuleDestroy(): Promise<void> {
    await this.worker.close();
  }
}
