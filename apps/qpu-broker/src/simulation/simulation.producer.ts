import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Queue, QueueEvents } from 'bullmq';
import { createHash } from 'node:crypto';
import { JobName, QueueName, RpcError, simulationJobId, type CircuitsSimulateResponse, type SimulationJobData } from '#qdc/contracts';
import { QDC_CONFIG, logConnectionErrors, queueOptions, type QdcConfig } from '#qdc/platform';
import { SIMULATION_CONFIG, type SimulationConfig } from './simulation.config.js';
import type { SimulationOutcome } from './simulation-outcome.js';

/** Enqueues large simulations on the `simulation` queue and waits for a worker's outcome. */
@Injectable()
export class SimulationProducer implements OnModuleDestroy {
  readonly queue: Queue;
  private readonly events: QueueEvents;

  constructor(
    @Inject(QDC_CONFIG) config: QdcConfig,
    @Inject(SIMULATION_CONFIG) private readonly sim: SimulationConfig,
  ) {
    const options = queueOptions(config);
    this.queue = new Queue(QueueName.Simulation, options);
    this.events = new QueueEvents(QueueName.Simulation, { connection: options.connection, prefix: options.prefix });
    const logger = new Logger(`${QueueName.Simulation} queue`);
    logConnectionErrors(this.queue, logger, 'Redis');
    logConnectionErrors(this.events, logger, 'Redis');
  }

  /** Same request id and same question → same job: a retried request finds its job. */
  jobIdFor(data: SimulationJobData): string {
    const digest = createHash('sha256').update(JSON.stringify([data.requestId, data.code, data.method, data.shots, data.seed ?? null])).digest('hex').slice(0, 32);
    return simulationJobId(digest);
  }

  async run(data: SimulationJobData): Promise<CircuitsSimulateResponse> {
    const job = await this.queue.add(JobName.Simulate, data, { jobId: this.jobIdFor(data) });
    let outcome: SimulationOutcome;
    try {
      outcome = (await job.waitUntilFinished(this.events, this.sim.QDC_SIM_TIMEOUT_MS)) as SimulationOutcome;
    } catch (error) {
      const message = (error as Error).message ?? String(error);
      if (/timed out/i.test(message)) throw new RpcError('timeout', `the simulation did not finish within ${this.sim.QDC_SIM_TIMEOUT_MS} ms`);
      throw new RpcError('internal', `simulation job ${job.id} failed: ${message}`);
    }
    if (!outcome.ok) throw new RpcError(outcome.error.code, outcome.error.message, outcome.error.details);
    return outcome.response;
  }

  /** Whether any simulation worker is connected to the queue (BullMQ names worker connections). */
  async hasWorkers(): Promise<boolean> {
    try {
      return (await this.queue.getWorkersCount()) > 0;
    } catch {
      return false;
    }
  }

  async isRedisReady(): Promise<boolean> {
    try {
      return (await this.queue.getBackend().client).status === 'ready';
    } catch {
      return false;
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.events.close();
    await this.queue.close();
  }
}
