import { Injectable } from '@nestjs/common';
import { PrismaService } from '#qdc/platform';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface NewResult {
  id: string;
  ownerId: string;
  jobId: string;
  model: string;
  inputFileName: string;
  inputFileSize: number;
  batchSize: number | null;
  /** The output as JSON text (stored as is in a `json` column). */
  outputJson: string;
  /**
   * The input file: its bytes (small inputs), a reference to it in the input store, or null when it was staged for
   * this job already (then it is linked, not sent again).
   */
  input: StoredInput | null;
}

/** An input file as a row holds it: the bytes themselves, or the key, size and SHA-256 of its object in the input store. */
export type StoredInput = { bytes: Uint8Array } | { blobKey: string; sha256: string };

/** Staged input files not linked to a result after this long belong to failed jobs and are deleted. */
export const STAGED_INPUT_TTL_MS = 60 * 60 * 1000;

/** The staged input file of a job disappeared between the check and the link (swept): store it again. */
export class StagedInputMissing extends Error {
  constructor(readonly jobId: string) {
    super(`no staged input file for job ${jobId}`);
  }
}

/** Prisma access for results, input files, votes and run counters. Nothing else. */
@Injectable()
export class ResultsRepository {
  constructor(private readonly prisma: PrismaService) {}

  findByJobId(jobId: string) {
    return this.prisma.modelResult.findUnique({ where: { jobId }, select: { id: true, ownerId: true, model: true, createdAt: true } });
  }

  /** The owner's vote on a result, if any. */
  async voteOf(resultId: string, ownerId: string): Promise<number | null> {
    const row = await this.prisma.vote.findUnique({ where: { resultId_ownerId: { resultId, ownerId } }, select: { vote: true } });
    return row?.vote ?? null;
  }

  /**
   * Creates the result with its input file and counts the run, atomically. Returns the new counter.
   * Straight through the pg pool under Prisma: Prisma's parameter serialisation costs ~4× the
   * database's own time for a 10 MB bytea and a 1 MB json output (measured for bench:perf (c)).
   */
  async createWithRun(result: NewResult): Promise<{ createdAt: Date; numberOfRuns: number }> {
    if (result.input) return this.createWithInputAndRun(result, result.input);
    const client = await this.prisma.pool.connect();
    try {
      await client.query('BEGIN');
      const row = await client.query<{ created_at: Date }>(
        `INSERT INTO model_results (id, owner_id, job_id, model, input_file_name, input_file_size, batch_size, output)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::json) RETURNING created_at`,
        [result.id, result.ownerId, result.jobId, result.model, result.inputFileName, result.inputFileSize, result.batchSize, result.outputJson],
      );
      // The input file was staged while the model ran: link it (see ResultsStageInputRequest).
      const linked = await client.query('UPDATE input_files SET result_id = $1 WHERE job_id = $2 AND result_id IS NULL', [result.id, result.jobId]);
      if (linked.rowCount !== 1) throw new StagedInputMissing(result.jobId);
      const counter = await client.query<{ runs: number }>(
        `INSERT INTO model_run_counters (model_id, runs) VALUES ($1, 1)
         ON CONFLICT (model_id) DO UPDATE SET runs = model_run_counters.runs + 1 RETURNING runs`,
        [result.model],
      );
      await client.query('COMMIT');
      return { createdAt: row.rows[0]!.created_at, numberOfRuns: Number(counter.rows[0]!.runs) };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * The common case (a small input that travelled with the result) in one statement, so one round trip: the data-
   * modifying CTEs run in the statement's single transaction, all or nothing, like the explicit transaction above.
   */
  private async createWithInputAndRun(result: NewResult, input: StoredInput): Promise<{ createdAt: Date; numberOfRuns: number }> {
    const bytes = 'bytes' in input ? Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength) : null;
    const row = await this.prisma.pool.query<{ created_at: Date; runs: number }>({
      // Named: prepared once per connection, so Postgres plans the four-table statement once, not at every run.
      name: 'results.create-with-input',
      text: `WITH created AS (
         INSERT INTO model_results (id, owner_id, job_id, model, input_file_name, input_file_size, batch_size, output)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::json) RETURNING created_at
       ), stored AS (
         INSERT INTO input_files (job_id, result_id, name, size, bytes, blob_key, sha256) VALUES ($3, $1, $5, $6, $9, $10, $11)
         ON CONFLICT (job_id) DO UPDATE SET result_id = EXCLUDED.result_id
       ), counted AS (
         INSERT INTO model_run_counters (model_id, runs) VALUES ($4, 1)
         ON CONFLICT (model_id) DO UPDATE SET runs = model_run_counters.runs + 1 RETURNING runs
       )
       SELECT created.created_at, counted.runs FROM created, counted`,
      values: [
        result.id,
        result.ownerId,
        result.jobId,
        result.model,
        result.inputFileName,
        result.inputFileSize,
        result.batchSize,
        result.outputJson,
        bytes,
        'blobKey' in input ? input.blobKey : null,
        'blobKey' in input ? input.sha256 : null,
      ],
    });
    return { createdAt: row.rows[0]!.created_at, numberOfRuns: Number(row.rows[0]!.runs) };
  }

  /**
   * The results of instrument frames (several models each) in one statement, so one round trip and one transaction:
   * every new row with its copy of its frame's input file, and the run counters. Items whose job id is stored already
   * (a redelivered frame) are skipped by ON CONFLICT and neither stored nor counted again; the caller finds them with
   * findManyByJobId. Answers the rows created now, with each model's new counter.
   */
  async createManyWithRuns(
    ownerId: string,
    items: readonly { id: string; jobId: string; model: string; outputJson: string; inputFileName: string; inputFileSize: number; inputBytes: Uint8Array }[],
  ): Promise<{ jobId: string; id: string; model: string; createdAt: Date; runs: number }[]> {
    const { rows } = await this.prisma.pool.query<{ id: string; job_id: string; model: string; created_at: Date; runs: number }>({
      name: 'results.create-many',
      text: `WITH item AS (
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $6::text[], $7::int[], $8::bytea[])
           AS t(id, job_id, model, output, input_file_name, input_file_size, bytes)
       ), created AS (
         INSERT INTO model_results (id, owner_id, job_id, model, input_file_name, input_file_size, batch_size, output)
         SELECT id, $5, job_id, model, input_file_name, input_file_size, NULL, output::json FROM item
         ON CONFLICT (job_id) DO NOTHING
         RETURNING id, job_id, model, created_at
       ), stored AS (
         INSERT INTO input_files (job_id, result_id, name, size, bytes)
         SELECT created.job_id, created.id, item.input_file_name, item.input_file_size, item.bytes FROM created JOIN item ON item.job_id = created.job_id
         ON CONFLICT (job_id) DO UPDATE SET result_id = EXCLUDED.result_id
       ), counted AS (
         INSERT INTO model_run_counters (model_id, runs) SELECT model, count(*) FROM created GROUP BY model
         ON CONFLICT (model_id) DO UPDATE SET runs = model_run_counters.runs + EXCLUDED.runs RETURNING model_id, runs
       )
       SELECT created.id, created.job_id, created.model, created.created_at, counted.runs FROM created JOIN counted ON counted.model_id = created.model`,
      values: [
        items.map((i) => i.id),
        items.map((i) => i.jobId),
        items.map((i) => i.model),
        items.map((i) => i.outputJson),
        ownerId,
        items.map((i) => i.inputFileName),
        items.map((i) => i.inputFileSize),
        items.map((i) => Buffer.from(i.inputBytes.buffer, i.inputBytes.byteOffset, i.inputBytes.byteLength)),
      ],
    });
    return rows.map((r) => ({ jobId: r.job_id, id: r.id, model: r.model, createdAt: r.created_at, runs: Number(r.runs) }));
  }

  /** Stored results by job id (the items of a redelivered frame that were stored before). */
  async findManyByJobId(jobIds: readonly string[]): Promise<{ jobId: string; id: string; createdAt: Date }[]> {
    if (jobIds.length === 0) return [];
    const { rows } = await this.prisma.pool.query<{ id: string; job_id: string; created_at: Date }>(
      'SELECT id, job_id, created_at FROM model_results WHERE job_id = ANY($1::text[])',
      [jobIds],
    );
    return rows.map((r) => ({ jobId: r.job_id, id: r.id, createdAt: r.created_at }));
  }

  /** Whether the input file of `jobId` is stored and not yet linked to a result. */
  async hasStagedInput(jobId: string): Promise<boolean> {
    const row = await this.prisma.pool.query('SELECT 1 FROM input_files WHERE job_id = $1 AND result_id IS NULL', [jobId]);
    return (row.rowCount ?? 0) > 0;
  }

  /** Stores a job's input file before its result exists; a second call for the same job does nothing. */
  async stageInput(jobId: string, name: string, size: number, bytes: Uint8Array): Promise<void> {
    await this.prisma.pool.query('INSERT INTO input_files (job_id, name, size, bytes) VALUES ($1, $2, $3, $4) ON CONFLICT (job_id) DO NOTHING', [
      jobId,
      name,
      size,
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    ]);
  }

  /** Deletes staged input files older than `ttlMs` that never got a result (their job failed). */
  async sweepStagedInputs(ttlMs: number): Promise<number> {
    const swept = await this.prisma.pool.query(`DELETE FROM input_files WHERE result_id IS NULL AND staged_at < now() - make_interval(secs => $1)`, [
      ttlMs / 1000,
    ]);
    return swept.rowCount ?? 0;
  }

  async runCounts(): Promise<Record<string, number>> {
    const rows = await this.prisma.modelRunCounter.findMany();
    return Object.fromEntries(rows.map((r) => [r.modelId, r.runs]));
  }

  async findOwned(ownerId: string, id: string) {
    if (!UUID.test(id)) return null;
    return this.prisma.modelResult.findFirst({
      where: { id, ownerId },
      include: { votes: { where: { ownerId }, select: { vote: true } } },
    });
  }

  list(ownerId: string, query: { skip: number; limit: number; model?: string; from?: Date; to?: Date }) {
    return this.prisma.modelResult.findMany({
      where: {
        ownerId,
        ...(query.model ? { model: query.model } : {}),
        ...(query.from || query.to ? { createdAt: { ...(query.from ? { gte: query.from } : {}), ...(query.to ? { lte: query.to } : {}) } } : {}),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: query.skip,
      take: query.limit,
      select: { id: true, model: true, createdAt: true, output: true },
    });
  }

  /**
   * Deletes the result; votes and the input file's row go with it (ON DELETE CASCADE). Answers whether it existed and,
   * when its input was in the input store and no other row names that object, the object's key (for the caller to remove).
   */
  async deleteOwned(ownerId: string, id: string): Promise<{ deleted: boolean; unreferencedBlob: string | null }> {
    if (!UUID.test(id)) return { deleted: false, unreferencedBlob: null };
    const { rows } = await this.prisma.pool.query<{ blob_key: string | null }>(
      `WITH gone AS (DELETE FROM model_results WHERE id = $1 AND owner_id = $2 RETURNING id)
       SELECT (SELECT blob_key FROM input_files WHERE result_id = gone.id) AS blob_key FROM gone`,
      [id, ownerId],
    );
    if (rows.length === 0) return { deleted: false, unreferencedBlob: null };
    const key = rows[0]!.blob_key;
    // The cascade has run once the statement is done: another row naming the key now is another result's input.
    if (!key || (await this.blobReferences([key])).size > 0) return { deleted: true, unreferencedBlob: null };
    return { deleted: true, unreferencedBlob: key };
  }

  /** Which of these input-store keys some input file row names. */
  async blobReferences(keys: readonly string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const { rows } = await this.prisma.pool.query<{ blob_key: string }>('SELECT DISTINCT blob_key FROM input_files WHERE blob_key = ANY($1::text[])', [keys]);
    return new Set(rows.map((r) => r.blob_key));
  }

  /** The result's input file: its name and either its bytes (small or older rows) or its input-store reference. */
  inputFile(resultId: string) {
    return this.prisma.inputFile.findUnique({ where: { resultId }, select: { name: true, size: true, bytes: true, blobKey: true, sha256: true } });
  }

  upsertVote(resultId: string, ownerId: string, vote: number, feedback: string | null) {
    return this.prisma.vote.upsert({
      where: { resultId_ownerId: { resultId, ownerId } },
      create: { resultId, ownerId, vote, feedback },
      update: { vote, feedback },
    });
  }

  async deleteVote(resultId: string, ownerId: string): Promise<boolean> {
    const { count } = await this.prisma.vote.deleteMany({ where: { resultId, ownerId } });
    return count > 0;
  }
}
