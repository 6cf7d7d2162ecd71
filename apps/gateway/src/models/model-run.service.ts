import { Injectable } from '@nestjs/common';
import { MODEL_CATALOGUE, findModel, type ModelSpec } from '#qdc/characterization';
import { RpcError, type InferenceJobData, type InputRef, type ModelsRunResponse } from '#qdc/contracts';
import { InferenceProducer, currentRequestId, jobIdFrom } from '#qdc/platform';
import { RunBatcher } from './run-batcher.js';

const BATCH_MODELS = MODEL_CATALOGUE.filter((m) => m.batch).map((m) => m.id);

/** Largest input a run may have to be grouped with others (RunBatcher): small runs are the ones whose hops dominate. */
export const GROUPED_RUN_MAX_INPUT_BYTES = 64 * 1024;

/** One model run as every caller asks for it (HTTP uploads, instrument frames). */
export interface ModelRunRequest {
  ownerId: string;
  /** A catalogue id; unknown → `not_found`, a batch of a model that does not batch → `invalid_input`. */
  model: string;
  /** The array file (.npy or .pt): inline, in the input store (`InputBlobStore.receive`) or a payload; and its SHA-256. */
  input: InputRef;
  inputSha256: string;
  inputFileName: string;
  inputFileSize: number;
  flags: { batch: boolean; plot: boolean; darkMode: boolean };
  /** Default: the current request's (async-local). Same request id + same run = same job: a retry never runs twice. */
  requestId?: string;
  /** The request id was made by the gateway (the client sent none): no earlier job can have it (JobProducer.run). */
  freshRequestId?: boolean;
  /** Propagated context (trace headers) carried in the job. */
  meta?: Record<string, string>;
}

/**
 * Runs a model: resolves the model id (here, once), adds the job to the inference queue and waits for the worker's
 * outcome. The answer is `{resultId, result}`: the stored result as JSON bytes (BinaryRef) to send unchanged. Errors
 * are RpcErrors: `invalid_input` (the worker rejected the file), `not_found`, `unavailable` (queue or results down:
 * retry), `timeout`, `internal`.
 *
 * A small run (inline input ≤ 64 KiB, no plot, not a batch) whose request id the gateway made goes through the
 * RunBatcher: concurrent ones share one job and one insert. A run whose client sent `X-Request-Id` (it may retry and
 * must find its job) goes alone, as does every other run.
 */
@Injectable()
export class ModelRunService {
  constructor(
    private readonly producer: InferenceProducer,
    private readonly batcher: RunBatcher,
  ) {}

  /** The catalogue entry of `model`, or the error a caller gets for it. */
  resolveModel(model: string, batch: boolean): ModelSpec {
    const spec = findModel(model);
    if (!spec) throw new RpcError('not_found', 'Model not found');
    if (batch && !spec.batch) {
      throw new RpcError('invalid_input', `model ${model} does not support batch runs; models that batch: ${BATCH_MODELS.join(', ')}`, {
        loc: ['body', 'model'],
        type: 'value_error.batch',
      });
    }
    return spec;
  }

  async run(request: ModelRunRequest): Promise<ModelsRunResponse> {
    const { batch, darkMode } = request.flags;
    this.resolveModel(request.model, batch);
    const requestId = request.requestId ?? currentRequestId() ?? crypto.randomUUID();
    const data: InferenceJobData = {
      ownerId: request.ownerId,
      model: request.model,
      batch,
      plot: batch ? false : request.flags.plot,
      darkMode,
      inputFileName: request.inputFileName,
      inputFileSize: request.inputFileSize,
      input: request.input,
      inputSha256: request.inputSha256,
      requestId,
      ...(request.meta ? { meta: request.meta } : {}),
    };
    const jobId = jobIdFor(data);
    const input = data.input;
    if (
      this.batcher.enabled &&
      request.freshRequestId &&
      !batch &&
      !data.plot &&
      !data.meta &&
      'inline' in input &&
      data.inputFileSize <= GROUPED_RUN_MAX_INPUT_BYTES
    ) {
      const { ownerId, model, inputFileName, inputFileSize, inputSha256 } = data;
      return this.batcher.run(ownerId, { jobId, requestId, model, inputFileName, inputFileSize, input, inputSha256 });
    }
    return this.producer.run(data, jobId, { fresh: request.freshRequestId ?? false });
  }

  isQueueReady(): Promise<boolean> {
    return this.producer.isRedisReady();
  }
}

/**
 * The job id derives from the request id plus what was asked (so a reused request id with a different upload is a
 * different job): a retried request finds its job instead of running twice.
 */
export function jobIdFor(data: InferenceJobData): string {
  return jobIdFrom('run', [data.ownerId, data.requestId, data.model, data.batch, data.plot, data.darkMode, data.inputSha256]);
}
