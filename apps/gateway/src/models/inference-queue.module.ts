import { Global, Module } from '@nestjs/common';
import { InferenceProducer } from '#qdc/platform';

/** The gateway adds inference jobs itself (BullMQ `inference`, Redis): one producer for the process. */
@Global()
@Module({ providers: [InferenceProducer], exports: [InferenceProducer] })
export class InferenceQueueModule {}
