import { Inject, Injectable } from '@nestjs/common';
import { SimulationJobs, type CircuitsSimulateResponse, type SimulationJobData } from '#qdc/contracts';
import { EventBus, JobProducer, QDC_CONFIG, jobIdFrom, type QdcConfig } from '#qdc/platform';
import { SIMULATION_CONFIG, type SimulationConfig } from './simulation.config.js';

/** The producer of `SimulationJobs.simulate`: large simulations on the `simulation` queue, waiting for a worker's outcome. */
@Injectable()
export class SimulationProducer extends JobProducer<typeof SimulationJobs.simulate> {
  constructor(@Inject(QDC_CONFIG) config: QdcConfig, @Inject(SIMULATION_CONFIG) sim: SimulationConfig, events: EventBus) {
    super(config, events, SimulationJobs.simulate, { timeoutMs: sim.QDC_SIM_TIMEOUT_MS, what: 'the simulation' });
  }

  /** Same request id and same question → same job: a retried request finds its job. */
  jobIdFor(data: SimulationJobData): string {
    return jobIdFrom('sim', [
      data.requestId,
      data.code,
      data.method,
      data.shots,
      data.seed ?? null,
      ...(data.entryPoint ? [data.entryPoint] : []),
      ...(data.entryPointArgs === undefined ? [] : [JSON.stringify(data.entryPointArgs)]),
    ]);
  }

  simulate(data: SimulationJobData): Promise<CircuitsSimulateResponse> {
    return this.run(data, this.jobIdFor(data));
  }
}
