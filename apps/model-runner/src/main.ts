import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NatsService, bootstrapService } from '#qdc/platform';
import { ModelRunnerModule } from './model-runner.module.js';
import { InferenceProducer } from './inference/inference.producer.js';

bootstrapService('model-runner', ModelRunnerModule, {
  defaultProbePort: 9101,
  readiness: (app) => async () => ({
    nats: app.get(NatsService).isConnected,
    redis: await app.get(InferenceProducer).isRedisReady(),
  }),
}).catch((error) => {
  new Logger('model-runner').error(error instanceof Error ? error.stack : String(error));
  process.exit(1);
});
