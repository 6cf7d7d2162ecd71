import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Worker, type Job } from 'bullmq';
import { ArrayDecodeError, decodeArray, type NdArray } from '#qdc/arrays';
import { ModelInputError, inputDecodeLimits, renderPlot, runModel, runModelBatch } from '#qdc/characterization';
import {
  JobName,
  QueueName,
  type FrameJobData,
  RpcError,
  Subjects,
  healthSubject,
  resultJsonText,
  InferenceJobData,
  type ResultsCreateRequest,
  type ResultsCreateResponse,
  type ResultsStageInputRequest,
} from '#qdc/contracts';
import {
  NatsService,
  QDC_CONFIG,
  withRequestId,
  isRedisReady,
  publishJobOutcome,
  releaseJobMemory,
  timeJob,
  requireRedisReady,
  waitForDependencies,
  workerOptions,
  type QdcConfig,
} from '#qdc/platform';
import { BatchThreadPool, MIN_THREADED_BATCH_SAMPLES, defaultBatchThreads } from './batch-thread-pool.js';
import type { InferenceOutcome } from './inference-outcome.js';
import { FrameJobProcessor, type FrameJobOutcome } from './frame-job.processor.js';

/** First and largest pause between two attempts to persist a result while results does not answer. */
const PERSIST_RETRY_FIRST_MS = 100;
const PERSIST_RETRY_MAX_MS = 2000;

/** Rows of a batch run between two yields to the event loop (≈ 256k samples, tens of ms). */
const BATCH_SLICE_SAMPLES = 1 << 18;

const invalid = (message: string, type: string): InferenceOutcome => ({ ok: false, error: { code: 'invalid_input', message, details: { type } } });

/**
 * The inference worker: decode the upload, run the model, persist the result through
 * apps/results, and only then complete the job. If this process dies mid-job, BullMQ hands
 * the job to another worker (stalled-job recovery); persisting is idempotent by job id.
 */
@Injectable()
export class InferenceProcessor implements OnModuleDestroy {
  private readonly logger = new Logger(InferenceProcessor.name);
  /** The BullMQ worker, made by start() (so constructing the processor opens no connection). */
  private worker?: Worker<InferenceJobData, InferenceOutcome>;
  /** Threads for large batches; none when the worker has one CPU (or QDC_INFERENCE_THREADS=1). */
  private readonly batchThreads?: BatchThreadPool;
  /** Instrument frames (job `analyse-frame`): every model of the stream on one decoded frame, one insert. */
  readonly frames: FrameJobProcessor;

  constructor(
    private readonly nats: NatsService,
    @Inject(QDC_CONFIG) private readonly config: QdcConfig,
  ) {
    this.frames = new FrameJobProcessor(nats, config, (subject, body, deadline) => this.store(subject, body, deadline));
    const threads = config.QDC_INFERENCE_THREADS ?? defaultBatchThreads();
    if (threads > 1) this.batchThreads = new BatchThreadPool(threads);
  }

  /** Workers start paused and take jobs only once NATS, Redis and the results service answer. */
  async start(): Promise<void> {
    const worker = new Worker<InferenceJobData, InferenceOutcome>(
      QueueName.Inference,
      (job) =>
        job.name === JobName.AnalyseFrame
          ? (this.frames.run(job as unknown as Job<FrameJobData, FrameJobOutcome>) as unknown as Promise<InferenceOutcome>)
          : // After the caller has its answer: a large job's buffers (upload, decoded array, outputs) go back to the system.
            timeJob(
              QueueName.Inference,
              job.data.model,
              () => publishJobOutcome(this.nats, QueueName.Inference, job, 'inference', () => this.process(job)),
              job.data,
            ).finally(() => this.releaseMemory(job.data)),
      workerOptions(this.config),
    );
    worker.on('failed', (job, error: Error) =>
      withRequestId(job?.data.requestId ?? '-', () => this.logger.error(`job ${job?.id} attempt ${job?.attemptsMade} failed: ${error.message}`)),
    );
    worker.on('error', (error: Error) => this.logger.error(`worker error: ${error.message}`));
    this.worker = worker;
    await this.nats.connect();
    await waitForDependencies(async () => {
      await this.nats.request(healthSubject('results'), {}, { timeoutMs: 2000 });
      await requireRedisReady(worker.getBackend().client);
    }, this.logger);
    void worker.run();
    this.logger.log('inference worker running');
  }

  /**
   * Decode, run, persist, answer. The input is validated once, here: decoding rejects unreadable files, the model
   * rejects a wrong shape or non-finite values. The output is encoded once (its JSON text) and the answer is the
   * result's JSON bytes around it, which nobody parses again before the client.
   */
  process(job: Pick<Job<InferenceJobData, InferenceOutcome>, 'id' | 'data'>): Promise<InferenceOutcome> {
    const data = InferenceJobData.parse(job.data);
    return withRequestId(data.requestId, () => this.run(String(job.id), data));
  }

  private async run(jobId: string, data: InferenceJobData): Promise<InferenceOutcome> {
    const started = performance.now();
    const bytes = await this.nats.fromBinaryRef(data.input);
    const fetched = performance.now();
    let array: NdArray;
    try {
      array = decodeArray(bytes, inputDecodeLimits(data.model, this.config.QDC_UPLOAD_LIMIT_BYTES));
    } catch (error: unknown) {
      if (error instanceof ArrayDecodeError) return invalid(error.message, error.type);
      throw error;
    }
    // An input that came through the object store (a large one) is stored by results while the model runs, so
    // persisting the result only links it; a small one travels with the result.
    const staging = 'objectKey' in data.input ? this.stageInput(jobId, data) : undefined;
    let outputJson: string;
    try {
      outputJson = data.batch ? `{"outputs":${await this.runBatchJson(data.model, array)}}` : JSON.stringify(this.runOne(data, array));
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
      output: await this.nats.toBinaryRef(Buffer.from(outputJson)),
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
    const result = await this.nats.toBinaryRef(Buffer.from(resultJsonText(row, outputJson)));
    const ms = (a: number, b: number) => (b - a).toFixed(1);
    this.logger.debug(`${data.model}: fetch ${ms(started, fetched)} ms, decode+run ${ms(fetched, ran)} ms, persist ${ms(ran, performance.now())} ms`);
    return { ok: true, response: { resultId: stored.id, result }, finishedAt: Date.now() };
  }

  /**
   * Stores the result through apps/results (idempotent by job id). While results does not answer (restarting, or its
   * reply timed out), tries again with backoff for QDC_RESULTS_RETRY_MS (8 s from the first attempt) or until the
   * job's deadline, whichever comes first; then throws `unavailable`: the caller answers 503 with Retry-After rather
   * than waiting out a long outage, and BullMQ retries the job later, so the result is stored once and a retry of the
   * request with the same X-Request-Id answers it.
   */
  private persist(create: ResultsCreateRequest, deadline: number): Promise<ResultsCreateResponse> {
    return this.store<ResultsCreateResponse>(Subjects.ResultsCreate, create, deadline);
  }

  /** persist's retry loop for any idempotent results request (also the frame jobs' one-insert `create-many`). */
  private async store<T>(subject: string, body: unknown, jobDeadline: number): Promise<T> {
    const started = Date.now();
    // The retry window starts with the first attempt: a results killed while it holds the request never replies, and
    // waiting for the NATS timeout (30 s) before retrying is what kept callers waiting half a minute.
    const deadline = Math.min(jobDeadline, started + this.config.QDC_RESULTS_RETRY_MS);
    for (let pause = PERSIST_RETRY_FIRST_MS; ; pause = Math.min(PERSIST_RETRY_MAX_MS, pause * 2)) {
      try {
        // A hung results must not hold the job past the window either (a late commit is found again by job id).
        const timeoutMs = Math.max(1000, Math.min(this.config.QDC_NATS_TIMEOUT_MS, deadline - Date.now()));
        return await this.nats.request<T>(subject, body, { timeoutMs });
      } catch (error) {
        const retryable = error instanceof RpcError && (error.code === 'unavailable' || error.code === 'timeout');
        if (!retryable) throw error;
        if (Date.now() + pause >= deadline) {
          throw new RpcError(
            'unavailable',
            `the results service did not store the result (tried for ${((Date.now() - started) / 1000).toFixed(1)} s: ${error.message}); retry`,
          );
        }
        this.logger.warn(`storing the result failed (${error.message}); trying again in ${pause} ms`);
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }

  private runOne(data: InferenceJobData, array: NdArray): Record<string, unknown> {
    const output = runModel(data.model, array);
    return data.plot ? { ...output, plot: renderPlot(data.model, array, output, { darkMode: data.darkMode }) } : output;
  }

  /** Hands the input to results (idempotent by job id); a failure only means results stores it with the result. */
  private async stageInput(jobId: string, data: InferenceJobData): Promise<void> {
    const stage: ResultsStageInputRequest = { jobId, inputFileName: data.inputFileName, inputFileSize: data.inputFileSize, input: data.input };
    const sent = this.nats.request(Subjects.ResultsStageInput, stage).then(
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

  async isRedisReady(): Promise<boolean> {
    return !!this.worker && isRedisReady(this.worker.getBackend().client);
  }

  /**
   * A batch's outputs as JSON text. Large ones are split across the thread pool after the model has checked the
   * shape on the first row here (so a bad shape answers with the model's own message); small ones run here.
   */
  private async runBatchJson(model: string, array: NdArray): Promise<string> {
    const [rows, length] = array.shape as [number, number];
    if (!this.batchThreads || array.shape.length !== 2 || rows * length < MIN_THREADED_BATCH_SAMPLES) {
      return JSON.stringify(await runBatchInSlices(model, array));
    }
    runModelBatch(model, { shape: [1, length], data: array.data.subarray(0, length) });
    return this.batchThreads.runJson(model, array.data, rows, length);
  }

  /** SIGTERM: stop taking jobs, let the current one finish, then exit. */
  async onModuleDestroy(): Promise<void> {
    await this.worker?.close();
    await this.batchThreads?.close();
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
