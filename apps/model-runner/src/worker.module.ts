import { Module } from '@nestjs/common';
import { ConfigModule, NatsService } from '#qdc/platform';
import { InferenceProcessor } from './inference/inference.processor.js';

/** An inference worker process: scale these out (separate Deployment in deploy/). */
@Module({
  imports: [ConfigModule.forService('inference-worker')],
  providers: [NatsService, InferenceProcessor],
})
export class WorkerModule {}
