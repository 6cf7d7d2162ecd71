import { Inject, Injectable } from '@nestjs/common';
import { InferenceJobs } from '#qdc/contracts';
import type { QdcConfig } from '../config/config.js';
import { QDC_CONFIG } from '../config/config.module.js';
import { EventBus } from '../nats/event-bus.js';
import { JobProducer } from './job-producer.js';

/**
 * The producer of `InferenceJobs.analyseFrame` (lab-streams): one job on the inference queue per frame (or batch of
 * frames), for all of its stream's models; the inference workers run them beside the uploads' `run-model` jobs.
 * A frame's results are small and used at once, so a finished job is answered from its return value within the
 * inference timeout only (a later redelivery runs it again: the stored rows are found by their job ids).
 */
@Injectable()
export class FrameAnalysisProducer extends JobProducer<typeof InferenceJobs.analyseFrame> {
  constructor(@Inject(QDC_CONFIG) config: QdcConfig, events: EventBus) {
    super(config, events, InferenceJobs.analyseFrame, {
      timeoutMs: config.QDC_INFERENCE_TIMEOUT_MS,
      what: 'frame analysis',
      answerTtlMs: config.QDC_INFERENCE_TIMEOUT_MS,
    });
  }
}
