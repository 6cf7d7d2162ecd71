import { Global, Module } from '@nestjs/common';
import { InferenceProducer, RunGroupProducer } from '#qdc/platform';

/** The gateway adds inference jobs itself (BullMQ `inference`, Redis): one producer per job kind for the process. */
@Global()
@Module({ providers: [InferenceProducer, RunGroupProducer], exports: [InferenceProducer, RunGroupProducer] })
export class InferenceQueueModule {}
