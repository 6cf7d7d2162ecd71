import 'reflect-metadata';
import { JobWorkerHost, NatsConnection, bootstrapService, exitOnStartupError } from '#qdc/platform';
import { SimulationWorkerModule } from './simulation-worker.module.js';

bootstrapService('simulation-worker', SimulationWorkerModule, {
  defaultProbePort: 9121,
  readiness: (app) => async () => ({
    nats: app.get(NatsConnection).isConnected,
    redis: await app.get(JobWorkerHost).isRedisReady(),
  }),
})
  .then((app) => app.get(JobWorkerHost).start())
  .catch(exitOnStartupError('simulation-worker'));
