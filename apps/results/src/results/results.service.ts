import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  ResultsEvents,
  RpcError,
  type MaskedResultDto,
  type ModelBatchResultDto,
  type ModelResultDto,
  type ResultsCreateRequest,
  type ResultsCreateResponse,
  type ResultsCreateManyRequest,
  type ResultsCreateManyResponse,
  type ResultsStageInputRequest,
  type ResultsDownloadResponse,
  type ResultsListRequest,
  type VoteDto,
  type VotesPutRequest,
  toResultDto,
} from '#qdc/contracts';
import { EventBus, InputBlobStore, PayloadStore } from '#qdc/platform';
import { ResultsRepository, STAGED_INPUT_TTL_MS, StagedInputMissing, type StoredInput } from './results.repository.js';

type ResultRow = {
  id: string;
  model: string;
  createdAt: Date;
  inputFileName: string;
  inputFileSize: number;
  batchSize: number | null;
  output: unknown;
  votes?: { vote: number }[];
};

const notFound = (): RpcError => new RpcError('not_found', 'Model result not found');

/** A unique violation (here: the job id), from pg (23505) or from Prisma (P2002). */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string })?.code;
  return code === '23505' || code === 'P2002';
}

const STAGED_INPUT_SWEEP_INTERVAL_MS = 10 * 60 * 1000;

@Injectable()
export class ResultsService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ResultsService.name);
  private sweeper?: NodeJS.Timeout;

  constructor(
    private readonly repository: ResultsRepository,
    private readonly payloads: PayloadStore,
    private readonly events: EventBus,
    private readonly inputs: InputBlobStore,
  ) {}

  /**
   * Persists a finished inference job. Idempotent by job id: a retried job (its worker died after this call) gets the
   * stored row's id, time and vote back and the run is counted once.
   */
  async create(request: ResultsCreateRequest): Promise<ResultsCreateResponse> {
    const started = performance.now();
    let input: StoredInput | null;
    if ('inputBlob' in request.input) {
      // A large upload is in the input store already: its row holds the reference (nothing to fetch or copy here).
      input = { blobKey: request.input.inputBlob, sha256: request.input.sha256 };
    } else if ('inline' in request.input) {
      // A small input travels with the request and is never staged. A retried job's insert hits the unique job id
      // and is answered from the stored row below, so no lookup is needed first (one database round trip less).
      input = { bytes: await this.payloads.fromBinaryRef(request.input) };
    } else if (await this.repository.hasStagedInput(request.jobId)) {
      // The worker staged the input file while the model ran (staged means not yet linked: no result exists).
      input = null;
    } else {
      // Not staged: a retry of a job whose result exists (its staged file is linked), or staging failed. Look first,
      // so that a replay does not fetch an object-store input that may have expired.
      const existing = await this.repository.findByJobId(request.jobId);
      if (existing) return this.replay(existing);
      input = { bytes: await this.payloads.fromBinaryRef(request.input) };
    }
    // The output arrives as the worker's JSON bytes and is stored as that text: Postgres checks it is JSON.
    const outputJson = Buffer.from(await this.payloads.fromBinaryRef(request.output)).toString('utf8');
    const fetched = performance.now();
    const id = randomUUID();
    for (;;) {
      try {
        const { createdAt, numberOfRuns } = await this.repository.createWithRun({
          id,
          ownerId: request.ownerId,
          jobId: request.jobId,
          model: request.model,
          inputFileName: request.inputFileName,
          inputFileSize: request.inputFileSize,
          batchSize: request.batchSize,
          outputJson,
          input,
        });
        this.announceRuns([[request.model, numberOfRuns]]);
        const stored = !input ? 'staged input' : 'bytes' in input ? `${input.bytes.length} input bytes` : `input ${input.blobKey}`;
        this.logger.debug(
          `stored result ${id} (${stored}, ${outputJson.length} output characters): fetch ${(fetched - started).toFixed(1)} ms, insert ${(performance.now() - fetched).toFixed(1)} ms`,
        );
        return { id, createdAt: createdAt.toISOString(), userVote: null };
      } catch (error) {
        if (error instanceof StagedInputMissing && !input && !('inputBlob' in request.input)) {
          input = { bytes: await this.payloads.fromBinaryRef(request.input) };
          continue;
        }
        // A retried job whose result is stored, or two deliveries of one job that raced: answer from the stored row.
        if (isUniqueViolation(error)) {
          const stored = await this.repository.findByJobId(request.jobId);
          if (stored) return this.replay(stored);
        }
        throw error;
      }
    }
  }

  /**
   * Persists the results of one analyse-frame job (one or more frames, several models each) in one insert.
   * Idempotent by each item's job id: a redelivered frame gets the stored rows back and nothing is counted twice.
   */
  async createMany(request: ResultsCreateManyRequest): Promise<ResultsCreateManyResponse> {
    const [inputs, outputs] = await Promise.all([
      Promise.all(request.inputs.map((i) => this.payloads.fromBinaryRef(i.input))),
      Promise.all(request.items.map((i) => this.payloads.fromBinaryRef(i.output))),
    ]);
    const items = request.items.map((item, k) => {
      const input = request.inputs[item.input];
      if (!input) throw new RpcError('invalid_input', `item ${k} names input ${item.input}; the request has ${request.inputs.length}`);
      return {
        id: randomUUID(),
        jobId: item.jobId,
        model: item.model,
        outputJson: Buffer.from(outputs[k]!).toString('utf8'),
        inputFileName: input.inputFileName,
        inputFileSize: input.inputFileSize,
        inputBytes: inputs[item.input]!,
      };
    });
    const created = await this.repository.createManyWithRuns(request.ownerId, items);
    const counters = new Map(created.map((c) => [c.model, c.runs]));
    this.announceRuns(counters);
    const byJob = new Map<string, { id: string; createdAt: Date }>(created.map((c) => [c.jobId, c]));
    const missing = items.filter((i) => !byJob.has(i.jobId)).map((i) => i.jobId);
    if (missing.length) {
      for (const row of await this.repository.findManyByJobId(missing)) byJob.set(row.jobId, row);
      this.logger.log(`${missing.length} result(s) of a redelivered frame already stored; returning them`);
    }
    return {
      results: items.map((item) => {
        const row = byJob.get(item.jobId);
        // ON CONFLICT skipped it, so a row with its job id exists (results are only deleted by their owner: then it is gone).
        if (!row) throw new RpcError('conflict', `the result of job ${item.jobId} was stored and then deleted; not stored again`);
        return { jobId: item.jobId, id: row.id, createdAt: row.createdAt.toISOString() };
      }),
    };
  }

  /**
   * Tells the gateways a model's new run count (GET /models shows it) after the reply to the store has left: the
   * run's caller waits for that reply, nobody waits for the count.
   */
  private announceRuns(counters: Iterable<[string, number]>): void {
    setImmediate(() => {
      for (const [model, numberOfRuns] of counters) void this.events.publish(ResultsEvents.runRecorded, { model, numberOfRuns });
    });
  }

  /** Stores a job's input file while its model runs (see ResultsStageInputRequest); idempotent by job id. */
  async stageInput(request: ResultsStageInputRequest): Promise<Record<string, never>> {
    const started = performance.now();
    const bytes = await this.payloads.fromBinaryRef(request.input);
    await this.repository.stageInput(request.jobId, request.inputFileName, request.inputFileSize, bytes);
    this.logger.debug(`staged input of job ${request.jobId} (${bytes.length} bytes) in ${(performance.now() - started).toFixed(1)} ms`);
    return {};
  }

  /**
   * Deletes input files staged by jobs that never produced a result, and stored inputs that no row names an hour after
   * their upload (their run failed, or a retried request's job had finished already); at boot and then periodically.
   */
  onApplicationBootstrap(): void {
    const sweep = () =>
      Promise.all([
        this.repository.sweepStagedInputs(STAGED_INPUT_TTL_MS).then(
          (n) => n > 0 && this.logger.log(`swept ${n} staged input file(s) of failed jobs`),
          (error: Error) => this.logger.warn(`sweeping staged input files failed: ${error.message}`),
        ),
        this.sweepUnreferencedInputs(STAGED_INPUT_TTL_MS).then(
          (n) => n > 0 && this.logger.log(`removed ${n} stored input file(s) no result names`),
          (error: Error) => this.logger.warn(`sweeping the input store failed: ${error.message}`),
        ),
      ]);
    void sweep();
    this.sweeper = setInterval(sweep, STAGED_INPUT_SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  /** Removes stored inputs written more than `ageMs` ago that no input file row names; answers how many. */
  async sweepUnreferencedInputs(ageMs: number): Promise<number> {
    const candidates = await this.inputs.keysWrittenBefore(new Date(Date.now() - ageMs));
    const named = await this.repository.blobReferences(candidates);
    const orphans = candidates.filter((key) => !named.has(key));
    for (const key of orphans) await this.inputs.remove(key);
    return orphans.length;
  }

  onModuleDestroy(): void {
    if (this.sweeper) clearInterval(this.sweeper);
  }

  private async replay(row: { id: string; ownerId: string; model: string; createdAt: Date }): Promise<ResultsCreateResponse> {
    this.logger.log(`result for a retried job already stored (${row.id}); returning it`);
    const vote = await this.repository.voteOf(row.id, row.ownerId);
    return { id: row.id, createdAt: row.createdAt.toISOString(), userVote: vote === 1 || vote === -1 ? vote : null };
  }

  async list(request: ResultsListRequest): Promise<MaskedResultDto[]> {
    const rows = await this.repository.list(request.ownerId, {
      skip: request.skip,
      limit: request.limit,
      model: request.model,
      from: request.startDate ? new Date(request.startDate) : undefined,
      to: request.endDate ? new Date(request.endDate) : undefined,
    });
    return rows.map((r) => ({ id: r.id, model: r.model, created_at: r.createdAt.toISOString(), output: r.output as Record<string, unknown> }));
  }

  async get(ownerId: string, id: string): Promise<ModelResultDto | ModelBatchResultDto> {
    const row = await this.repository.findOwned(ownerId, id);
    if (!row) throw notFound();
    return this.toDto(row);
  }

  /** Deletes the result and its input file; a stored input goes from the store once no other row names it. */
  async delete(ownerId: string, id: string): Promise<void> {
    const { deleted, unreferencedBlob } = await this.repository.deleteOwned(ownerId, id);
    if (!deleted) throw notFound();
    // After the row: a failure here leaves an unnamed object for the sweep, never a row without its object.
    if (unreferencedBlob)
      await this.inputs
        .remove(unreferencedBlob)
        .catch((error: Error) => this.logger.warn(`removing input ${unreferencedBlob} failed (the sweep will): ${error.message}`));
  }

  async download(ownerId: string, id: string): Promise<ResultsDownloadResponse> {
    const row = await this.repository.findOwned(ownerId, id);
    if (!row) throw notFound();
    const file = await this.repository.inputFile(row.id);
    if (!file) throw new RpcError('internal', `result ${row.id} has no stored input file`);
    // A stored input is streamed to the client by the gateway, straight from the input store; older rows hold the bytes.
    const input = file.blobKey ? { inputBlob: file.blobKey, size: file.size, sha256: file.sha256! } : await this.payloads.toBinaryRef(file.bytes!);
    return { result: this.toDto(row), inputFileName: file.name, input };
  }

  async putVote(request: VotesPutRequest): Promise<VoteDto> {
    const row = await this.repository.findOwned(request.ownerId, request.id);
    if (!row) throw notFound();
    const vote = await this.repository.upsertVote(row.id, request.ownerId, request.vote, request.feedback);
    return { model_result_id: row.id, vote: vote.vote as 1 | -1, feedback: vote.feedback };
  }

  async deleteVote(ownerId: string, id: string): Promise<void> {
    const row = await this.repository.findOwned(ownerId, id);
    if (!row) throw notFound();
    if (!(await this.repository.deleteVote(row.id, ownerId))) throw new RpcError('not_found', 'Vote not found');
  }

  runCounts(): Promise<Record<string, number>> {
    return this.repository.runCounts();
  }

  private toDto(row: ResultRow): ModelResultDto | ModelBatchResultDto {
    return toResultDto({ ...row, createdAt: row.createdAt.toISOString(), userVote: row.votes?.[0]?.vote ?? null });
  }
}
