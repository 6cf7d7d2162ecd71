import { Inject, Injectable, Logger } from '@nestjs/common';
import { RpcError, SimulationJobs, type SimulationJobData } from '#qdc/contracts';
import { JobWorkerHost, releaseJobMemory } from '#qdc/platform';
import { runSimulationInThread } from './simulation-thread-runner.js';
import { SIMULATION_CONFIG, type SimulationConfig } from './simulation.config.js';
import type { SimulationOutcome } from './simulation-outcome.js';

/**
 * A simulation worker: runs one large simulation at a time (CPU-bound: scale processes), in a thread of its
 * own so the event loop keeps renewing the job lock; a worker that dies mid-job leaves the job to BullMQ's
 * stalled-job recovery, which retries it within QDC_JOB_LOCK_MS (+ the stalled-check interval).
 */
@Injectable()
export class SimulationProcessor {
  private readonly logger = new Logger(SimulationProcessor.name);

  constructor(
    host: JobWorkerHost,
    @Inject(SIMULATION_CONFIG) private readonly sim: SimulationConfig,
  ) {
    // The simulation runs in a thread (runSimulationInThread), so the normal job lock is renewed while it runs and a
    // killed worker's job is retried within QDC_JOB_LOCK_MS, not after the longest simulation could take.
    host.register(SimulationJobs.simulate, { what: 'the simulation', run: (data) => this.process(data) });
  }

  /** The handler of `SimulationJobs.simulate` (JobWorkerHost parses the data and publishes the outcome). */
  async process(data: SimulationJobData): Promise<SimulationOutcome> {
    try {
      const response = await runSimulationInThread(data, this.sim, data.deadline);
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
}
