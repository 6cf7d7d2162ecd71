import { Module } from '@nestjs/common';
import { InferenceProducer } from './inference.producer.js';

/** The inference queue's producer side (the processor runs in worker.ts processes). */
@Module({ providers: [InferenceProducer], exports: [InferenceProducer] })
export class InferenceModule {}
