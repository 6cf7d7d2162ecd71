import type { INestApplicationContext } from '@nestjs/common';
import { JobWorkerHost, NatsConnection, bootstrapService } from '#qdc/platform';
import { SimulationWorkerModule } from './simulation-worker.module.js';

/** A simulation worker: large simulations and simulated devices from the simulation queue. */
export async function startSimulationWorker(): Promise<INestApplicationContext> {
  const app = await bootstrapService('simulation-worker', SimulationWorkerModule, {
    defaultProbePort: 9121,
    readiness: (app) => async () => ({
      nats: app.get(NatsConnection).isConnected,
      redis: await app.get(JobWorkerHost).isRedisReady(),
    }),
  });
  await app.get(JobWorkerHost).start();
  return app;
}
