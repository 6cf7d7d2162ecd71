import { Module } from '@nestjs/common';
import { ConfigModule, JobWorkerHost, NatsModule } from '#qdc/platform';
import { FrameJobProcessor } from './inference/frame-job.processor.js';
import { InferenceProcessor } from './inference/inference.processor.js';
import { ResultsWriter } from './inference/results-writer.js';

/**
 * An inference worker process (scale these out: separate Deployment in deploy/): the `inference` queue's two job
 * kinds, uploads' runs (InferenceProcessor) and instrument frames (FrameJobProcessor), on one JobWorkerHost.
 */
@Module({
  imports: [ConfigModule.forService('inference-worker'), NatsModule],
  providers: [JobWorkerHost, ResultsWriter, InferenceProcessor, FrameJobProcessor],
})
export class WorkerModule {}
