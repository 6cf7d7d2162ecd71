import { Inject, Injectable } from '@nestjs/common';
import { JobName, QueueName, type CircuitsSimulateResponse, type SimulationJobData } from '#qdc/contracts';
import { JobProducer, NatsService, QDC_CONFIG, jobIdFrom, type QdcConfig } from '#qdc/platform';
import { SIMULATION_CONFIG, type SimulationConfig } from './simulation.config.js';

/** Enqueues large simulations on the `simulation` queue and waits for a worker's outcome. */
@Injectable()
export class SimulationProducer extends JobProducer<SimulationJobData, CircuitsSimulateResponse> {
  constructor(@Inject(QDC_CONFIG) config: QdcConfig, @Inject(SIMULATION_CONFIG) sim: SimulationConfig, nats: NatsService) {
    super(config, nats, { queue: QueueName.Simulation, job: JobName.Simulate, timeoutMs: sim.QDC_SIM_TIMEOUT_MS, what: 'the simulation' });
  }

  /** Same request id and same question → same job: a retried request finds its job. */
  jobIdFor(data: SimulationJobData): string {
    return jobIdFrom('sim', [data.requestId, data.code, data.method, data.shots, data.seed ?? null, ...(data.entryPoint ? [data.entryPoint] : [])]);
  }

  simulate(data: SimulationJobData): Promise<CircuitsSimulateResponse> {
    return this.run(data, this.jobIdFor(data));
  }
}
