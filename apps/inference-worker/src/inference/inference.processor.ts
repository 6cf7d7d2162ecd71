import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { ArrayDecodeError, decodeArray, type NdArray } from '#qdc/arrays';
import { ModelInputError, inputDecodeLimits, renderPlot, runModel, runModelBatch } from '#qdc/characterization';
import {
  InferenceJobs,
  ResultsRpc,
  healthRpc,
  resultJsonText,
  type BinaryRef,
  type GroupedRun,
  type GroupedRunOutcome,
  type InferenceJobData,
  type ResultsCreateManyRequest,
  type ResultsCreateRequest,
  type ResultsCreateResponse,
  type ResultsStageInputRequest,
  type RpcErrorBody,
  type RunGroupJobData,
  type RunGroupResponse,
} from '#qdc/contracts';
import {
  InputBlobStore,
  JobWorkerHost,
  PayloadStore,
  QDC_CONFIG,
  RpcClient,
  releaseJobMemory,
  withRequestId,
  type JobOutcome,
  type QdcConfig,
} from '#qdc/platform';
import { MIN_THREADED_BATCH_SAMPLES, MIN_THREADED_RUN_ELEMENTS, ModelThreadPool, defaultModelThreads } from './model-thread-pool.js';
import type { InferenceOutcome } from './inference-outcome.js';
import { ResultsWriter } from './results-writer.js';

/** Rows of a batch run between two yields to the event loop (≈ 256k samples, tens of ms). */
const BATCH_SLICE_SAMPLES = 1 << 18;
/** Longest a run group holds the event loop between two yields, ms. */
const GROUP_SLICE_MS = 50;

const invalidBody = (message: string, type: string): RpcErrorBody => ({ code: 'invalid_input', message, details: { type } });
const invalid = (message: string, type: string): InferenceOutcome => ({ ok: false, error: invalidBody(message, type) });

/**
 * The handler of `InferenceJobs.runModel` in the inference worker: decode the upload, run the model, persist the
 * result through apps/results, and only then complete the job (JobWorkerHost publishes the outcome to the waiting
 * gateway first). If this process dies mid-job, BullMQ hands the job to another worker (stalled-job recovery);
 * persisting is idempotent by job id.
 */
@Injectable()
export class InferenceProcessor implements OnApplicationShutdown {
  private readonly logger = new Logger(InferenceProcessor.name);
  /**
   * Threads for large single runs (always: they keep the event loop free) and for the slices of large batches (only
   * with two or more: one thread would only add copies).
   */
  private readonly threads: ModelThreadPool;

  constructor(
    private readonly payloads: PayloadStore,
    private readonly inputs: InputBlobStore,
    private readonly results: ResultsWriter,
    private readonly rpc: RpcClient,
    host: JobWorkerHost,
    @Inject(QDC_CONFIG) private readonly config: QdcConfig,
  ) {
    this.threads = new ModelThreadPool(config.QDC_INFERENCE_THREADS ?? defaultModelThreads());
    host.register(InferenceJobs.runModel, {
      what: 'inference',
      run: (data, job) => this.process(data, job.id),
      metricName: (data) => data.model,
      // Workers take jobs only once the results service (where every job ends) answers.
      ready: () => this.rpc.call(healthRpc('results'), {}, { timeoutMs: 2000 }).then(() => undefined),
      // After the caller has its answer: a large job's buffers (upload, decoded array, outputs) go back to the system.
      after: (data) => this.releaseMemory(data),
    });
    host.register(InferenceJobs.runGroup, {
      what: 'inference',
      // Its own queue and concurrency: more than one group at once lets one compute while another's results are stored.
      concurrency: config.QDC_RUN_GROUP_CONCURRENCY,
      run: (data) => this.processGroup(data),
      metricName: (data) => (data.runs.every((r) => r.model === data.runs[0]!.model) ? data.runs[0]!.model : 'run-group'),
      ready: () => this.rpc.call(healthRpc('results'), {}, { timeoutMs: 2000 }).then(() => undefined),
    });
  }

  /**
   * Decode, run, persist, answer. The input is validated once, here: decoding rejects unreadable files, the model
   * rejects a wrong shape or non-finite values. The output is encoded once (its JSON text) and the answer is the
   * result's JSON bytes around it, which nobody parses again before the client.
   */
  process(data: InferenceJobData, jobId: string): Promise<InferenceOutcome> {
    return withRequestId(data.requestId, () => this.run(jobId, data));
  }

  private async run(jobId: string, data: InferenceJobData): Promise<InferenceOutcome> {
    const started = performance.now();
    // The one read of the input: inline in the job, or from the input store (results stores only its reference).
    const bytes = await this.inputs.read(data.input);
    const fetched = performance.now();
    let array: NdArray;
    try {
      array = decodeArray(bytes, inputDecodeLimits(data.model, this.config.QDC_UPLOAD_LIMIT_BYTES));
    } catch (error: unknown) {
      if (error instanceof ArrayDecodeError) return invalid(error.message, error.type);
      throw error;
    }
    // An input that came as a transient payload (a large instrument frame) is stored by results while the model runs,
    // so persisting the result only links it; a small one travels with the result, a stored one by its reference.
    const staging = 'objectKey' in data.input ? this.stageInput(jobId, data, data.input) : undefined;
    let outputJson: string;
    try {
      outputJson = data.batch ? `{"outputs":${await this.runBatchJson(data.model, array)}}` : await this.runOneJson(data, array);
    } catch (error) {
      await staging;
      if (error instanceof ModelInputError) return invalid(error.message, 'value_error');
      throw error;
    }
    const ran = performance.now();
    const batchSize = data.batch ? array.shape[0]! : null;
    const create: ResultsCreateRequest = {
      ownerId: data.ownerId,
      jobId,
      model: data.model,
      inputFileName: data.inputFileName,
      inputFileSize: data.inputFileSize,
      input: data.input,
      batchSize,
      output: await this.payloads.toBinaryRef(Buffer.from(outputJson)),
    };
    await staging;
    const stored = await this.persist(create, data.deadline ?? Date.now() + this.config.QDC_INFERENCE_TIMEOUT_MS);
    const row = {
      id: stored.id,
      model: data.model,
      createdAt: stored.createdAt,
      inputFileName: data.inputFileName,
      inputFileSize: data.inputFileSize,
      batchSize,
      userVote: stored.userVote,
    };
    const result = await this.payloads.toBinaryRef(Buffer.from(resultJsonText(row, outputJson)));
    const ms = (a: number, b: number) => (b - a).toFixed(1);
    this.logger.debug(`${data.model}: fetch ${ms(started, fetched)} ms, decode+run ${ms(fetched, ran)} ms, persist ${ms(ran, performance.now())} ms`);
    return { ok: true, response: { resultId: stored.id, result }, finishedAt: Date.now() };
  }

  /**
   * A group of small runs (the gateway's RunBatcher): each decoded and run here as a single run would be, the results
   * of those that ran stored in ONE `createMany` insert (idempotent by each run's own job id), then one outcome with
   * each run's answer or error. A run's bad input (or a fault of its model) is that run's error, not the group's.
   */
  async processGroup(data: RunGroupJobData): Promise<JobOutcome<RunGroupResponse>> {
    const computed: ({ outputJson: string } | { error: RpcErrorBody })[] = [];
    let sliceStarted = performance.now();
    for (const run of data.runs) {
      computed.push(withRequestId(run.requestId, () => this.runGrouped(run)));
      // Runs of 2-D models add up: the event loop (BullMQ's lock renewal) gets a turn every GROUP_SLICE_MS.
      if (performance.now() - sliceStarted > GROUP_SLICE_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        sliceStarted = performance.now();
      }
    }
    const ran = data.runs.flatMap((run, k) => {
      const done = computed[k]!;
      return 'outputJson' in done ? [{ run, outputJson: done.outputJson }] : [];
    });
    const stored = new Map<string, { id: string; createdAt: string }>();
    if (ran.length) {
      const request: ResultsCreateManyRequest = {
        ownerId: data.ownerId,
        inputs: ran.map(({ run }) => ({ inputFileName: run.inputFileName, inputFileSize: run.inputFileSize, input: run.input })),
        items: ran.map(({ run, outputJson }, k) => ({
          jobId: run.jobId,
          model: run.model,
          input: k,
          output: { inline: Buffer.from(outputJson).toString('base64') },
        })),
      };
      const response = await this.results.store(ResultsRpc.createMany, request, data.deadline ?? Date.now() + this.config.QDC_INFERENCE_TIMEOUT_MS);
      for (const r of response.results) stored.set(r.jobId, r);
    }
    const runs = await Promise.all(
      data.runs.map(async (run, k): Promise<GroupedRunOutcome> => {
        const done = computed[k]!;
        if (!('outputJson' in done)) return { ok: false, error: done.error };
        const row = stored.get(run.jobId);
        if (!row) return { ok: false, error: { code: 'internal', message: `the result of run ${run.jobId} was not stored` } };
        const result = {
          id: row.id,
          model: run.model,
          createdAt: row.createdAt,
          inputFileName: run.inputFileName,
          inputFileSize: run.inputFileSize,
          batchSize: null,
          userVote: null,
        };
        return { ok: true, response: { resultId: row.id, result: await this.payloads.toBinaryRef(Buffer.from(resultJsonText(result, done.outputJson))) } };
      }),
    );
    this.logger.debug(`run group of ${data.runs.length}: ${ran.length} result(s) stored in one insert`);
    return { ok: true, response: { runs }, finishedAt: Date.now() };
  }

  /** One run of a group: its output's JSON text, or its error (never thrown: the other runs go on). */
  private runGrouped(run: GroupedRun): { outputJson: string } | { error: RpcErrorBody } {
    try {
      const array = decodeArray(Buffer.from(run.input.inline, 'base64'), inputDecodeLimits(run.model, this.config.QDC_UPLOAD_LIMIT_BYTES));
      return { outputJson: JSON.stringify(runModel(run.model, array)) };
    } catch (error) {
      if (error instanceof ArrayDecodeError) return { error: invalidBody(error.message, error.type) };
      if (error instanceof ModelInputError) return { error: invalidBody(error.message, 'value_error') };
      this.logger.error(`run ${run.jobId} of ${run.model} failed: ${(error as Error)?.stack ?? error}`);
      return { error: { code: 'internal', message: `inference of ${run.model} failed: ${(error as Error)?.message ?? error}` } };
    }
  }

  private persist(create: ResultsCreateRequest, deadline: number): Promise<ResultsCreateResponse> {
    return this.results.store(ResultsRpc.create, create, deadline);
  }

  /**
   * One run's output as JSON text (with its plot when asked). A large input runs on a model thread, so a model that
   * takes seconds (a decoder's syndrome tensor, an anticrossing map) does not hold this event loop; the array's
   * buffer moves there unless the plot still needs it here.
   */
  private async runOneJson(data: InferenceJobData, array: NdArray): Promise<string> {
    if (array.data.length < MIN_THREADED_RUN_ELEMENTS) {
      const output = runModel(data.model, array);
      return JSON.stringify(data.plot ? { ...output, plot: renderPlot(data.model, array, output, { darkMode: data.darkMode }) } : output);
    }
    const json = await this.threads.runOneJson(data.model, array.shape, array.data, !data.plot);
    if (!data.plot) return json;
    const output = JSON.parse(json) as Record<string, unknown>;
    return JSON.stringify({ ...output, plot: renderPlot(data.model, array, output, { darkMode: data.darkMode }) });
  }

  /** Hands the input to results (idempotent by job id); a failure only means results stores it with the result. */
  private async stageInput(jobId: string, data: InferenceJobData, input: BinaryRef): Promise<void> {
    const stage: ResultsStageInputRequest = { jobId, inputFileName: data.inputFileName, inputFileSize: data.inputFileSize, input };
    const sent = this.rpc.call(ResultsRpc.stageInput, stage).then(
      () => undefined,
      (error: Error) => this.logger.warn(`staging the input failed (results stores it with the result): ${error.message}`),
    );
    await new Promise<void>((resolve) => setImmediate(resolve)); // let the request leave before the model takes the CPU
    return sent;
  }

  /** A full collection after a job that left more than RELEASE_MEMORY_THRESHOLD_BYTES in array buffers (an idle worker would keep them). */
  private releaseMemory(data: InferenceJobData): void {
    if (releaseJobMemory())
      withRequestId(data.requestId, () => this.logger.debug(`released the memory of a ${data.inputFileSize}-byte ${data.batch ? 'batch' : 'run'}`));
  }

  /**
   * A batch's outputs as JSON text. Large ones are split across the thread pool after the model has checked the
   * shape on the first row here (so a bad shape answers with the model's own message); small ones run here.
   */
  private async runBatchJson(model: string, array: NdArray): Promise<string> {
    const [rows, length] = array.shape as [number, number];
    if (this.threads.size < 2 || array.shape.length !== 2 || rows * length < MIN_THREADED_BATCH_SAMPLES) {
      return JSON.stringify(await runBatchInSlices(model, array));
    }
    runModelBatch(model, { shape: [1, length], data: array.data.subarray(0, length) });
    return this.threads.runBatchJson(model, array.data, rows, length);
  }

  /** SIGTERM: the model threads go after JobWorkerHost's workers have finished their jobs (onModuleDestroy). */
  async onApplicationShutdown(): Promise<void> {
    await this.threads.close();
  }
}

/**
 * Runs a batch slice by slice, yielding to the event loop in between, so that a large batch
 * never blocks BullMQ's lock renewal for longer than one slice (a blocked worker loses its lock
 * and the job is wrongly taken for stalled).
 */
async function runBatchInSlices(model: string, array: NdArray): Promise<Record<string, unknown>[]> {
  if (array.shape.length !== 2) return runModelBatch(model, array); // rejects the shape with the model's message
  const [count, length] = array.shape as [number, number];
  const rowsPerSlice = Math.max(1, Math.floor(BATCH_SLICE_SAMPLES / Math.max(1, length)));
  const outputs: Record<string, unknown>[] = [];
  for (let start = 0; start < count || start === 0; start += rowsPerSlice) {
    const end = Math.min(count, start + rowsPerSlice);
    const slice = { ...array, shape: [end - start, length], data: array.data.subarray(start * length, end * length) };
    for (const row of runModelBatch(model, slice)) outputs.push(row);
    if (end < count) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return outputs;
}
