import { Inject, Injectable, Logger } from '@nestjs/common';
import { ArrayDecodeError, decodeArray, type NdArray } from '#qdc/arrays';
import { ModelInputError, inputDecodeLimits, runModel } from '#qdc/characterization';
import {
  InferenceJobs,
  ResultsRpc,
  healthRpc,
  type FrameJobData,
  type FrameJobModelOutcome,
  type FrameJobResponse,
  type ResultsCreateManyRequest,
} from '#qdc/contracts';
import { JobWorkerHost, PayloadStore, QDC_CONFIG, RpcClient, withRequestId, type JobOutcome, type QdcConfig } from '#qdc/platform';
import { ResultsWriter } from './results-writer.js';

export type FrameJobOutcome = JobOutcome<FrameJobResponse>;

type Ran = { model: string; resultJobId: string; output: Record<string, unknown>; outputJson: string; input: number };

/**
 * Instrument frames' analysis (job `analyse-frame`, see FrameJobData): each frame of the job is fetched once and
 * decoded once per distinct input limit of the stream's models (the same checks as an upload of that model), every
 * model runs on it, and the results of all the frames' models that accepted them are stored in ONE
 * `results.result.create-many.v1` insert before the job completes. A model that refuses a frame (ModelInputError, an
 * unreadable array) answers an error entry for it; nothing is stored for it. Idempotent: each model's result of each
 * frame is keyed by its own job id.
 */
@Injectable()
export class FrameJobProcessor {
  private readonly logger = new Logger(FrameJobProcessor.name);

  constructor(
    private readonly payloads: PayloadStore,
    private readonly results: ResultsWriter,
    rpc: RpcClient,
    host: JobWorkerHost,
    @Inject(QDC_CONFIG) private readonly config: QdcConfig,
  ) {
    host.register(InferenceJobs.analyseFrame, {
      what: 'frame analysis',
      run: (data) => this.process(data),
      ready: () => rpc.call(healthRpc('results'), {}, { timeoutMs: 2000 }).then(() => undefined),
    });
  }

  /** The handler of `InferenceJobs.analyseFrame` (JobWorkerHost parses the data and publishes the outcome). */
  process(data: FrameJobData): Promise<FrameJobOutcome> {
    return withRequestId(data.requestId, () => this.analyse(data));
  }

  private async analyse(data: FrameJobData): Promise<FrameJobOutcome> {
    const perFrame: (FrameJobModelOutcome | Ran)[][] = [];
    for (const [index, frame] of data.frames.entries()) perFrame.push(this.runFrame(await this.payloads.fromBinaryRef(frame.input), frame.models, index));
    const ran = perFrame.flat().filter((o): o is Ran => 'outputJson' in o);
    const stored = new Map<string, string>();
    if (ran.length) {
      const request: ResultsCreateManyRequest = {
        ownerId: data.ownerId,
        inputs: data.frames.map((f) => ({ inputFileName: f.inputFileName, inputFileSize: f.inputFileSize, input: f.input })),
        items: await Promise.all(
          ran.map(async (o) => ({ jobId: o.resultJobId, model: o.model, input: o.input, output: await this.payloads.toBinaryRef(Buffer.from(o.outputJson)) })),
        ),
      };
      const response = await this.results.store(ResultsRpc.createMany, request, data.deadline ?? Date.now() + this.config.QDC_INFERENCE_TIMEOUT_MS);
      for (const r of response.results) stored.set(r.jobId, r.id);
    }
    const results: FrameJobModelOutcome[][] = perFrame.map((outcomes) =>
      outcomes.map((o) => ('outputJson' in o ? { model: o.model, resultId: stored.get(o.resultJobId)!, output: o.output } : o)),
    );
    this.logger.debug(`${data.frames.length} frame(s): ${ran.length} result(s) stored in one insert`);
    return { ok: true, response: { results: await this.payloads.toBinaryRef(Buffer.from(JSON.stringify(results))) }, finishedAt: Date.now() };
  }

  /** Every model on one frame (decoded once per distinct input limit). */
  private runFrame(bytes: Uint8Array, models: FrameJobData['frames'][number]['models'], input: number): (FrameJobModelOutcome | Ran)[] {
    const decoded = new Map<string, NdArray | ArrayDecodeError>();
    return models.map(({ model, resultJobId }) => {
      const limits = inputDecodeLimits(model, this.config.QDC_UPLOAD_LIMIT_BYTES);
      const key = `${limits.maxElements}/${limits.maxInflatedBytes}`;
      let array = decoded.get(key);
      if (!array) {
        try {
          array = decodeArray(bytes, limits);
        } catch (error) {
          if (!(error instanceof ArrayDecodeError)) throw error;
          array = error;
        }
        decoded.set(key, array);
      }
      if (array instanceof ArrayDecodeError) return { model, error: { code: 'invalid_input', message: array.message } };
      try {
        const output = runModel(model, array);
        return { model, resultJobId, output, outputJson: JSON.stringify(output), input };
      } catch (error) {
        if (error instanceof ModelInputError) return { model, error: { code: 'invalid_input', message: error.message } };
        throw error;
      }
    });
  }
}
