import { Module } from '@nestjs/common';
import { ConfigModule, NatsModule } from '#qdc/platform';
import { InferenceModule } from './inference/inference.module.js';
import { ModelsHandlers } from './models/models.handlers.js';

/** NATS front of inference: validates the model, enqueues a job, answers with its outcome. */
@Module({
  imports: [ConfigModule.forService('model-runner'), NatsModule, InferenceModule],
  providers: [ModelsHandlers],
})
export class ModelRunnerModule {}
