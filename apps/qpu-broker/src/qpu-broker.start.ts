import type { INestApplicationContext } from '@nestjs/common';
import { JobWorkerHost, NatsConnection, PrismaService, bootstrapService } from '#qdc/platform';
import { QpuBrokerModule } from './qpu-broker.module.js';
import { SimulationProducer } from './simulation/simulation.producer.js';

/** QPU broker: circuit tools and QPU jobs over NATS; large simulations and simulated devices run on simulation-worker processes. */
export async function startQpuBroker(): Promise<INestApplicationContext> {
  const app = await bootstrapService('qpu-broker', QpuBrokerModule, {
    defaultProbePort: 9103,
    readiness: (app) => async () => ({
      nats: app.get(NatsConnection).isConnected,
      redis: await app.get(SimulationProducer).isRedisReady(),
      postgres: await app.get(PrismaService).$queryRaw`SELECT 1`.then(() => true).catch(() => false),
    }),
  });
  // The broker's own queue worker: cloud QPU jobs' polls (only with QDC_IONQ_API_KEY).
  await app.get(JobWorkerHost).start();
  return app;
}
