import { Module } from '@nestjs/common';
import { ConfigModule, NatsModule } from '#qdc/platform';
import { CircuitToolsHandlers } from './circuits/circuit-tools.handlers.js';
import { CircuitToolsService } from './circuits/circuit-tools.service.js';
import { SimulationProducer } from './simulation/simulation.producer.js';
import { simulationConfigProvider } from './simulation/simulation.config.js';

/** The QPU broker: circuit tools over NATS (devices and QPU jobs arrive with the broker issue). */
@Module({
  imports: [ConfigModule.forService('qpu-broker'), NatsModule],
  providers: [simulationConfigProvider, SimulationProducer, CircuitToolsService, CircuitToolsHandlers],
})
export class QpuBrokerModule {}
