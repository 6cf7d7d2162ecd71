import { Injectable } from '@nestjs/common';
import type { FrameJobModelOutcome, LabStreamModelOutcome } from '#qdc/contracts';
import { FrameAnalysisProducer, NatsService, jobIdFrom } from '#qdc/platform';
import type { DecodedFrame } from './frame-decoder.js';

/** What the analysis of one frame needs to know about its stream. */
export interface FrameStreamRef {
  lab: string;
  name: string;
  ownerId: string;
  models: readonly string[];
}

/**
 * The one place a frame joins the `POST /models` path: ONE inference job for all of the stream's models
 * (`analyse-frame`, FrameJobData, queue `inference`), owned by the lab's owner; the worker decodes the frame, runs each
 * model on it with the same input checks as an upload, and stores the results in one insert before the job completes.
 * The job id derives from the stream, the frame id, the models and the bytes' SHA-256, and each model's result keeps
 * the job id it had when a frame cost one job per model, so a redelivered or re-sent frame finds its job or its
 * stored rows instead of storing twice. Models whose input check refuses the frame answer an `error` entry.
 */
@Injectable()
export class FrameAnalyser {
  constructor(
    private readonly nats: NatsService,
    private readonly frames: FrameAnalysisProducer,
  ) {}

  async analyse(stream: FrameStreamRef, frame: DecodedFrame): Promise<LabStreamModelOutcome[]> {
    const { ref, sha256 } = await this.nats.toBinaryRefWithDigest(frame.bytes);
    const requestId = `stream:${stream.lab}/${stream.name}/${frame.frameId}`;
    const models = stream.models.map((model) => ({ model, resultJobId: jobIdFrom('stream', [stream.ownerId, stream.lab, stream.name, frame.frameId, model, sha256]) }));
    const jobId = jobIdFrom('frame', [stream.ownerId, stream.lab, stream.name, frame.frameId, stream.models, sha256]);
    // A lost Redis or a timeout throws (retried by the caller); a refused input is an entry of the answer.
    const response = await this.frames.run(
      { ownerId: stream.ownerId, models, inputFileName: frame.fileName, inputFileSize: frame.bytes.length, input: ref, inputSha256: sha256, requestId },
      jobId,
    );
    const results = JSON.parse(Buffer.from(await this.nats.fromBinaryRef(response.results)).toString('utf8')) as FrameJobModelOutcome[];
    return results.map((r) => ('error' in r ? r : { model: r.model, result_id: r.resultId, output: r.output }));
  }
}
