import { Module } from '@nestjs/common';
import { ConfigModule, NatsService } from '#qdc/platform';
import { SimulationProcessor } from './simulation/simulation.processor.js';
import { simulationConfigProvider } from './simulation/simulation.config.js';

/** A simulation worker process: scale these out for large circuits. */
@Module({
  imports: [ConfigModule.forService('simulation-worker')],
  providers: [NatsService, simulationConfigProvider, SimulationProcessor],
})
export class SimulationWorkerModule {}
