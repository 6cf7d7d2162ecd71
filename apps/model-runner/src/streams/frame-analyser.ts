import { Injectable } from '@nestjs/common';
import { RpcError, type LabStreamModelOutcome, type ModelsRunResponse } from '#qdc/contracts';
import { InferenceProducer, NatsService, jobIdFrom } from '#qdc/platform';
import type { DecodedFrame } from './frame-decoder.js';

/** What the analysis of one frame needs to know about its stream. */
export interface FrameStreamRef {
  lab: string;
  name: string;
  ownerId: string;
  models: readonly string[];
}

/**
 * The one place a frame joins the `POST /models` path: for every model of the stream, the same BullMQ inference job
 * (InferenceJobData, queue `inference`) an upload makes, owned by the lab's owner; the worker validates the input,
 * runs the model and stores the result before the job completes. The job id derives from the stream, the frame id,
 * the model and the bytes' SHA-256, so a redelivered or re-sent frame finds its job (and its stored row) instead of
 * running twice. Models whose input check refuses the frame answer an `error` entry (nothing stored for them).
 */
@Injectable()
export class FrameAnalyser {
  constructor(
    private readonly nats: NatsService,
    private readonly inference: InferenceProducer,
  ) {}

  async analyse(stream: FrameStreamRef, frame: DecodedFrame): Promise<LabStreamModelOutcome[]> {
    const { ref, sha256 } = await this.nats.toBinaryRefWithDigest(frame.bytes);
    const requestId = `stream:${stream.lab}/${stream.name}/${frame.frameId}`;
    return Promise.all(
      stream.models.map(async (model): Promise<LabStreamModelOutcome> => {
        const jobId = jobIdFrom('stream', [stream.ownerId, stream.lab, stream.name, frame.frameId, model, sha256]);
        let response: ModelsRunResponse;
        try {
          response = await this.inference.run(
            {
              ownerId: stream.ownerId,
              model,
              batch: false,
              plot: false,
              darkMode: false,
              inputFileName: frame.fileName,
              inputFileSize: frame.bytes.length,
              input: ref,
              inputSha256: sha256,
              requestId,
            },
            jobId,
          );
        } catch (error) {
          // A refused input is this frame's answer; anything else (timeout, lost Redis) is retried by the caller.
          if (error instanceof RpcError && error.code === 'invalid_input') return { model, error: { code: error.code, message: error.message } };
          throw error;
        }
        const result = JSON.parse(Buffer.from(await this.nats.fromBinaryRef(response.result)).toString('utf8')) as { output: Record<string, unknown> };
        return { model, result_id: response.resultId, output: result.output };
      }),
    );
  }
}
