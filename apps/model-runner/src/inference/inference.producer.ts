import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Queue, QueueEvents } from 'bullmq';
import { createHash } from 'node:crypto';
import { JobName, QueueName, RpcError, inferenceJobId, type InferenceJobData, type ModelsRunRequest } from '#qdc/contracts';
import { QDC_CONFIG, logConnectionErrors, queueOptions, type QdcConfig } from '#qdc/platform';
import type { InferenceOutcome } from './inference-outcome.js';

/** Enqueues inference jobs and waits for their outcome. */
@Injectable()
export class InferenceProducer implements OnModuleDestroy {
  readonly queue: Queue;
  private readonly events: QueueEvents;

  constructor(@Inject(QDC_CONFIG) private readonly config: QdcConfig) {
    const options = queueOptions(config);
    this.queue = new Queue(QueueName.Inference, options);
    this.events = new QueueEvents(QueueName.Inference, { connection: options.connection, prefix: options.prefix });
    const logger = new Logger(`${QueueName.Inference} queue`);
    logConnectionErrors(this.queue, logger, 'Redis');
    logConnectionErrors(this.events, logger, 'Redis');
  }

  /**
   * The job id derives from the request id (plus what was asked, so a reused request id with a
   * different upload is a different job): a retried request finds its job instead of running twice.
   */
  jobIdFor(request: ModelsRunRequest, requestId: string): string {
    const digest = createHash('sha256')
      .update(JSON.stringify([request.ownerId, requestId, request.model, request.batch, request.plot, request.darkMode, request.inputSha256]))
      .digest('hex')
      .slice(0, 32);
    return inferenceJobId(digest);
  }

  async run(data: InferenceJobData, jobId: string): Promise<InferenceOutcome> {
    const job = await this.queue.add(JobName.RunModel, data, { jobId });
    try {
      return (await job.waitUntilFinished(this.events, this.config.QDC_INFERENCE_TIMEOUT_MS)) as InferenceOutcome;
    } catch (error) {
      const message = (error as Error).message ?? String(error);
      if (/timed out/i.test(message)) throw new RpcError('timeout', `inference did not finish within ${this.config.QDC_INFERENCE_TIMEOUT_MS} ms`);
      throw new RpcError('internal', `inference job ${jobId} failed: ${message}`);
    }
  }

  async isRedisReady(): Promise<boolean> {
    try {
      return (await this.queue.getBackend().client).status === 'ready';
    } catch {
      return false;
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.events.close();
    await this.queue.close();
  }
}
