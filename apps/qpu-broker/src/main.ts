import 'reflect-metadata';
import { NatsService, PrismaService, bootstrapService, exitOnStartupError } from '#qdc/platform';
import { QpuBrokerModule } from './qpu-broker.module.js';
import { SimulationProducer } from './simulation/simulation.producer.js';

/** QPU broker: circuit tools and QPU jobs over NATS; large simulations and simulated devices run on simulation-worker processes. */
bootstrapService('qpu-broker', QpuBrokerModule, {
  defaultProbePort: 9103,
  readiness: (app) => async () => ({
    nats: app.get(NatsService).isConnected,
    redis: await app.get(SimulationProducer).isRedisReady(),
    postgres: await app.get(PrismaService).$queryRaw`SELECT 1`.then(() => true).catch(() => false),
  }),
}).catch(exitOnStartupError('qpu-broker'));
