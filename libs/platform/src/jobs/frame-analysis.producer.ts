import { Inject, Injectable } from '@nestjs/common';
import { JobName, QueueName, type FrameJobData, type FrameJobResponse } from '#qdc/contracts';
import type { QdcConfig } from '../config/config.js';
import { QDC_CONFIG } from '../config/config.module.js';
import { NatsService } from '../nats/nats.service.js';
import { JobProducer } from './job-producer.js';

/**
 * The producer of instrument-frame jobs (lab-streams): one `analyse-frame` job on the inference queue per frame, for
 * all of its stream's models (FrameJobData); the inference workers run them beside the uploads' `run-model` jobs.
 * A frame's results are small and used at once, so a finished job is answered from its return value within the
 * inference timeout only (a later redelivery runs it again: the stored rows are found by their job ids).
 */
@Injectable()
export class FrameAnalysisProducer extends JobProducer<FrameJobData, FrameJobResponse> {
  constructor(@Inject(QDC_CONFIG) config: QdcConfig, nats: NatsService) {
    super(config, nats, {
      queue: QueueName.Inference,
      job: JobName.AnalyseFrame,
      timeoutMs: config.QDC_INFERENCE_TIMEOUT_MS,
      what: 'frame analysis',
      answerTtlMs: config.QDC_INFERENCE_TIMEOUT_MS,
    });
  }
}
