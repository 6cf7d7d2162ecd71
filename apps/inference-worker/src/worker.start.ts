import type { INestApplicationContext } from '@nestjs/common';
import { JobWorkerHost, NatsConnection, bootstrapService } from '#qdc/platform';
import { WorkerModule } from './worker.module.js';

/** An inference worker: model runs from the inference queue. */
export async function startInferenceWorker(): Promise<INestApplicationContext> {
  const app = await bootstrapService('inference-worker', WorkerModule, {
    defaultProbePort: 9111,
    readiness: (app) => async () => ({
      nats: app.get(NatsConnection).isConnected,
      redis: await app.get(JobWorkerHost).isRedisReady(),
    }),
  });
  await app.get(JobWorkerHost).start();
  return app;
}
