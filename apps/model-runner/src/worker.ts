import 'reflect-metadata';
import { JobWorkerHost, NatsConnection, bootstrapService, exitOnStartupError } from '#qdc/platform';
import { WorkerModule } from './worker.module.js';

bootstrapService('inference-worker', WorkerModule, {
  defaultProbePort: 9111,
  readiness: (app) => async () => ({
    nats: app.get(NatsConnection).isConnected,
    redis: await app.get(JobWorkerHost).isRedisReady(),
  }),
})
  .then((app) => app.get(JobWorkerHost).start())
  .catch(exitOnStartupError('inference-worker'));
