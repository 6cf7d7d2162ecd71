import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NatsService, bootstrapService } from '#qdc/platform';
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
  .catch((error) => {
    new Logger('inference-worker').error(error instanceof Error ? error.stack : String(error));
    process.exit(1);
  });
