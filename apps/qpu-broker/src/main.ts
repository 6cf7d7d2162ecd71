import 'reflect-metadata';
import { JobWorkerHost, NatsConnection, PrismaService, bootstrapService, exitOnStartupError } from '#qdc/platform';
import { QpuBrokerModule } from './qpu-broker.module.js';
import { SimulationProducer } from './simulation/simulation.producer.js';

/** QPU broker: circuit tools and QPU jobs over NATS; large simulations and simulated devices run on simulation-worker processes. */
bootstrapService('qpu-broker', QpuBrokerModule, {
  defaultProbePort: 9103,
  readiness: (app) => async () => ({
    nats: app.get(NatsConnection).isConnected,
    redis: await app.get(SimulationProducer).isRedisReady(),
    postgres: await app.get(PrismaService).$queryRaw`SELECT 1`.then(() => true).catch(() => false),
  }),
})
  // The broker's own queue worker: cloud QPU jobs' polls (only with QDC_IONQ_API_KEY).
  .then((app) => app.get(JobWorkerHost).start())
  .catch(exitOnStartupError('qpu-broker'));
