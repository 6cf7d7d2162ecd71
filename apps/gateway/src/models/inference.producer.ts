import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { JobName, QueueName, type InferenceJobData, type ModelsRunResponse } from '#qdc/contracts';
import { JobProducer, NatsService, PAYLOAD_OBJECT_TTL_MS, QDC_CONFIG, type QdcConfig } from '#qdc/platform';

/** Room between a result's payload expiring and a replay still answering from it. */
const ANSWER_TTL_MARGIN_MS = 10 * 60 * 1000;

/** The inference queue's producer: adds run jobs to Redis (BullMQ) and hears their outcome (see JobProducer). */
@Injectable()
export class InferenceProducer extends JobProducer<InferenceJobData, ModelsRunResponse> implements OnModuleDestroy {
  constructor(@Inject(QDC_CONFIG) config: QdcConfig, nats: NatsService) {
    super(config, nats, {
      queue: QueueName.Inference,
      job: JobName.RunModel,
      timeoutMs: config.QDC_INFERENCE_TIMEOUT_MS,
      what: 'inference',
      answerTtlMs: PAYLOAD_OBJECT_TTL_MS - ANSWER_TTL_MARGIN_MS,
    });
  }

  onModuleDestroy(): Promise<void> {
    return this.close();
  }
}
