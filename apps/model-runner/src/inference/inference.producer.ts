import { Inject, Injectable } from '@nestjs/common';
import { JobName, QueueName, type InferenceJobData, type ModelsRunRequest, type ModelsRunResponse } from '#qdc/contracts';
import { JobProducer, PAYLOAD_OBJECT_TTL_MS, QDC_CONFIG, jobIdFrom, type QdcConfig } from '#qdc/platform';

/** Room between a result's payload expiring and a replay still answering from it. */
const ANSWER_TTL_MARGIN_MS = 10 * 60 * 1000;

/** Enqueues inference jobs and waits for their outcome. */
@Injectable()
export class InferenceProducer extends JobProducer<InferenceJobData, ModelsRunResponse> {
  constructor(@Inject(QDC_CONFIG) config: QdcConfig) {
    super(config, {
      queue: QueueName.Inference,
      job: JobName.RunModel,
      timeoutMs: config.QDC_INFERENCE_TIMEOUT_MS,
      what: 'inference',
      answerTtlMs: PAYLOAD_OBJECT_TTL_MS - ANSWER_TTL_MARGIN_MS,
    });
  }

  /**
   * The job id derives from the request id (plus what was asked, so a reused request id with a
   * different upload is a different job): a retried request finds its job instead of running twice.
   */
  jobIdFor(request: ModelsRunRequest, requestId: string): string {
    return jobIdFrom('run', [request.ownerId, requestId, request.model, request.batch, request.plot, request.darkMode, request.inputSha256]);
  }
}
