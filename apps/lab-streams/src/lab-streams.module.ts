import { Module } from '@nestjs/common';
import { ConfigModule, FrameAnalysisProducer, NatsModule } from '#qdc/platform';
import { FrameJobBatcher } from './frame-job-batcher.js';
import { LabStreamConsumers } from './lab-stream-consumers.js';
import { LabStreamRegistry } from './lab-stream-registry.js';
import { streamsConfigProvider } from './streams.config.js';

/** Live instrument streams: definitions (NATS handlers), one JetStream consumer per stream, frames → inference queue. */
@Module({
  imports: [ConfigModule.forService('lab-streams'), NatsModule],
  providers: [streamsConfigProvider, FrameAnalysisProducer, LabStreamRegistry, LabStreamConsumers, FrameJobBatcher],
})
export class LabStreamsModule {}
