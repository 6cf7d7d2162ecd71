import { Inject, Injectable } from '@nestjs/common';
import { InferenceJobs } from '#qdc/contracts';
import type { QdcConfig } from '../config/config.js';
import { QDC_CONFIG } from '../config/config.module.js';
import { EventBus } from '../nats/event-bus.js';
import { PAYLOAD_OBJECT_TTL_MS } from '../nats/payload-store.js';
import { JobProducer, type JobProducerOptions } from './job-producer.js';

/** Room between a result's payload expiring and a replay still answering from it. */
const ANSWER_TTL_MARGIN_MS = 10 * 60 * 1000;

/** What single runs and run groups share: the deadline and how long a finished job's answer may be repeated. */
const inferenceOptions = (config: QdcConfig): JobProducerOptions => ({
  timeoutMs: config.QDC_INFERENCE_TIMEOUT_MS,
  what: 'inference',
  answerTtlMs: PAYLOAD_OBJECT_TTL_MS - ANSWER_TTL_MARGIN_MS,
});

/**
 * The producer of `InferenceJobs.runModel`: adds run jobs to Redis (BullMQ) and hears their outcome (see JobProducer).
 * Used by the gateway (uploads); the handler runs in the inference workers (InferenceProcessor).
 */
@Injectable()
export class InferenceProducer extends JobProducer<typeof InferenceJobs.runModel> {
  constructor(@Inject(QDC_CONFIG) config: QdcConfig, events: EventBus) {
    super(config, events, InferenceJobs.runModel, inferenceOptions(config));
  }
}

/**
 * The producer of `InferenceJobs.runGroup` (a group of concurrent small runs, formed by the gateway's RunBatcher), on
 * queue `inference-groups`, with the same deadline and answer lifetime as single runs.
 */
@Injectable()
export class RunGroupProducer extends JobProducer<typeof InferenceJobs.runGroup> {
  constructor(@Inject(QDC_CONFIG) config: QdcConfig, events: EventBus) {
    super(config, events, InferenceJobs.runGroup, inferenceOptions(config));
  }
}
