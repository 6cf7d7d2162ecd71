import 'reflect-metadata';
import { NatsService, bootstrapService, exitOnStartupError } from '#qdc/platform';
import { ModelRunnerModule } from './model-runner.module.js';
import { InferenceProducer } from './inference/inference.producer.js';

bootstrapService('model-runner', ModelRunnerModule, {
  defaultProbePort: 9101,
  readiness: (app) => async () => ({
    nats: app.get(NatsService).isConnected,
    redis: await app.get(InferenceProducer).isRedisReady(),
  }),
}).catch(exitOnStartupError('model-runner'));
