import { Inject, Injectable } from '@nestjs/common';
import { JobName, QueueName, type InferenceJobData, type ModelsRunResponse } from '#qdc/contracts';
import type { QdcConfig } from '../config/config.js';
import { QDC_CONFIG } from '../config/config.module.js';
import { NatsService, PAYLOAD_OBJECT_TTL_MS } from '../nats/nats.service.js';
import { JobProducer } from './job-producer.js';

/** Room between a result's payload expiring and a replay still answering from it. */
const ANSWER_TTL_MARGIN_MS = 10 * 60 * 1000;

/**
 * The inference queue's producer: adds run jobs to Redis (BullMQ) and hears their outcome (see JobProducer). Used by
 * the gateway (uploads) and lab-streams (instrument frames); the processor runs in the inference workers.
 */
@Injectable()
export class InferenceProducer extends JobProducer<InferenceJobData, ModelsRunResponse> {
  constructor(@Inject(QDC_CONFIG) config: QdcConfig, nats: NatsService) {
    super(config, nats, {
      queue: QueueName.Inference,
      job: JobName.RunModel,
      timeoutMs: config.QDC_INFERENCE_TIMEOUT_MS,
      what: 'inference',
      answerTtlMs: PAYLOAD_OBJECT_TTL_MS - ANSWER_TTL_MARGIN_MS,
    });
  }
}
