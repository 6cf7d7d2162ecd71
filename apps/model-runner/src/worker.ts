import 'reflect-metadata';
import { NatsService, bootstrapService, exitOnStartupError } from '#qdc/platform';
import { WorkerModule } from './worker.module.js';
import { InferenceProcessor } from './inference/inference.processor.js';

bootstrapService('inference-worker', WorkerModule, {
  defaultProbePort: 9111,
  readiness: (app) => async () => ({
    nats: app.get(NatsService).isConnected,
    redis: await app.get(InferenceProcessor).isRedisReady(),
  }),
})
  .then((app) => app.get(InferenceProcessor).start())
  .catch(exitOnStartupError('inference-worker'));
