import 'reflect-metadata';
import { NatsService, bootstrapService, exitOnStartupError } from '#qdc/platform';
import { QpuBrokerModule } from './qpu-broker.module.js';
import { SimulationProducer } from './simulation/simulation.producer.js';

/** QPU broker: serves the circuit tools over NATS; large simulations go to simulation-worker processes. */
bootstrapService('qpu-broker', QpuBrokerModule, {
  defaultProbePort: 9103,
  readiness: (app) => async () => ({
    nats: app.get(NatsService).isConnected,
    redis: await app.get(SimulationProducer).isRedisReady(),
  }),
}).catch(exitOnStartupError('qpu-broker'));
