import { Injectable } from '@nestjs/common';
import type pg from 'pg';
import { PrismaService } from '#qdc/platform';
import { QpuJobStatus, type QpuCompiledStats } from '#qdc/contracts';
import { canTransition, isTerminal } from './job-state.js';
import type { JobCharge, SubmissionContext, SubmissionDecision } from './submission-decision.js';

/** A qpu_jobs row as the service reads it. */
export interface QpuJobRow {
  id: string;
  ownerId: string;
  deviceId: string;
  status: QpuJobStatus;
  source: string;
  sourceFramework: string;
  shots: number;
  compiled: unknown;
  compiledStats: QpuCompiledStats;
  estimatedCostCents: number;
  /** How the estimate was paid at submission (the submit answer's credits_applied and overage_cents). */
  charge: JobCharge;
  costCents: number | null;
  counts: Record<string, number> | null;
  error: string | null;
  backendJobId: string | null;
  submittedAt: Date;
  startedAt: Date | null;
  completedAt: Date | null;
}

export interface NewQpuJob {
  id: string;
  ownerId: string;
  deviceId: string;
  source: string;
  sourceFramework: string;
  shots: number;
  compiled: unknown;
  compiledStats: QpuCompiledStats;
  initialLayout: number[];
  finalLayout: number[];
  estimatedCostCents: number;
}

export interface TransitionPatch {
  counts?: Record<string, number>;
  error?: string;
  backendJobId?: string;
}

export interface TransitionResult {
  applied: boolean;
  from: QpuJobStatus | null;
  job: QpuJobRow | null;
}

export interface BudgetRow {
  budgetCents: number | null;
  spentCents: number;
  reservedCents: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isJobId = (id: string): boolean => UUID.test(id);

const JOB_COLUMNS = `id, owner_id, device_id, status, source, source_framework, shots, compiled, compiled_stats, estimated_cost_cents,
  credits_applied_cents, overage_cents, cost_cents, counts, error, backend_job_id, submitted_at, started_at, completed_at`;

/**
 * The webhook outbox (docs/webhooks.md): one `qpu.job.status` delivery per subscribed webhook of the job's owner, written
 * by the statement that writes the state change and its event, so a committed change always has its deliveries.
 * `job`, `from`, `to` and `reason` are the statement's own names for them; `event` is its qpu_job_events insert.
 */
const webhookOutbox = (
  job: string,
  from: string,
  to: string,
  reason: string,
) => `INSERT INTO webhook_deliveries (id, webhook_id, event_type, event_key, data, created_at, next_attempt_at)
  SELECT gen_random_uuid(), w.id, 'qpu.job.status', 'qpu.job.status:' || event.id,
    json_build_object('job_id', ${job}.id, 'status', ${to}::text, 'from', ${from}::text, 'backend', ${job}.device_id, 'reason', ${reason}::text,
      'at', to_char(event.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'error', ${job}.error, 'cost_cents', ${job}.cost_cents)::text,
    event.at, event.at
  FROM ${job} JOIN event ON true JOIN webhooks w ON w.owner_id = ${job}.owner_id AND 'qpu.job.status' = ANY(w.events)`;

function toRow(r: Record<string, unknown>): QpuJobRow {
  return {
    id: r.id as string,
    ownerId: r.owner_id as string,
    deviceId: r.device_id as string,
    status: r.status as QpuJobStatus,
    source: r.source as string,
    sourceFramework: r.source_framework as string,
    shots: r.shots as number,
    compiled: r.compiled,
    compiledStats: r.compiled_stats as QpuCompiledStats,
    estimatedCostCents: r.estimated_cost_cents as number,
    charge: { creditsAppliedCents: r.credits_applied_cents as number, overageCents: r.overage_cents as number },
    costCents: (r.cost_cents as number | null) ?? null,
    counts: (r.counts as Record<string, number> | null) ?? null,
    error: (r.error as string | null) ?? null,
    backendJobId: (r.backend_job_id as string | null) ?? null,
    submittedAt: r.submitted_at as Date,
    startedAt: (r.started_at as Date | null) ?? null,
    completedAt: (r.completed_at as Date | null) ?? null,
  };
}

/**
 * Postgres access for QPU jobs, their events, idempotency keys and budgets (tables owned by the broker).
 * Every state change is one transaction: the row (locked), its event, and the owner's spending.
 */
@Injectable()
export class QpuJobsRepository {
  constructor(private readonly prisma: PrismaService) {}

  private async inTransaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.prisma.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * Locks the owner's budget row (an upsert creates it on first use and locks it in one statement), then
   * reads — in a new statement, so after any concurrent submission of the same owner has committed — what
   * its queued and running jobs reserve, the earlier job under the idempotency key, and the time.
   */
  private async lockBudget(client: pg.PoolClient, ownerId: string, key: string | null) {
    const budget = await client.query<{ budget_cents: number | null; spent_cents: number }>(
      `INSERT INTO qpu_owner_budgets (owner_id) VALUES ($1) ON CONFLICT (owner_id) DO UPDATE SET owner_id = EXCLUDED.owner_id RETURNING budget_cents, spent_cents`,
      [ownerId],
    );
    const rest = await client.query<{ reserved: number; job_id: string | null; body_hash: string | null; created_at: Date | null; now: Date }>(
      `SELECT (SELECT COALESCE(SUM(estimated_cost_cents), 0)::int FROM qpu_jobs WHERE owner_id = $1 AND status IN ('queued', 'running')) AS reserved,
              k.job_id, k.body_hash, k.created_at, now() AS now
       FROM (SELECT 1) one LEFT JOIN qpu_idempotency_keys k ON k.owner_id = $1 AND k.key = $2`,
      [ownerId, key],
    );
    const r = rest.rows[0]!;
    return {
      budget: { budgetCents: budget.rows[0]!.budget_cents, spentCents: budget.rows[0]!.spent_cents, reservedCents: r.reserved } satisfies BudgetRow,
      existing: r.job_id ? { jobId: r.job_id, bodyHash: r.body_hash!, createdAt: r.created_at! } : null,
      now: r.now,
    };
  }

  /**
   * Submission, atomically: with the owner's budget row locked (so an owner's submissions are serialised),
   * `decide` sees the earlier job under the same idempotency key and the budget; on `create` the job, its
   * first event and the key are written in the same transaction.
   */
  async submit(
    job: NewQpuJob,
    idempotency: { key: string; bodyHash: string } | null,
    acceptOverage: boolean,
    reason: string,
    decide: (ctx: SubmissionContext) => SubmissionDecision,
  ): Promise<{ decision: SubmissionDecision; job: QpuJobRow | null }> {
    return this.inTransaction(async (client) => {
      const { budget, existing, now } = await this.lockBudget(client, job.ownerId, idempotency?.key ?? null);
      const decision = decide({ existing, bodyHash: idempotency?.bodyHash ?? '', now, budget, estimateCents: job.estimatedCostCents, acceptOverage });
      if (decision.kind !== 'create') return { decision, job: null };
      // The job, its first event and the key in one statement.
      const inserted = await client.query(
        `WITH job AS (
           INSERT INTO qpu_jobs (id, owner_id, device_id, status, source, source_framework, shots, compiled, compiled_stats, initial_layout, final_layout, estimated_cost_cents,
             credits_applied_cents, overage_cents)
           VALUES ($1, $2, $3, 'queued', $4, $5, $6, $7::json, $8::jsonb, $9, $10, $11, $15, $16) RETURNING ${JOB_COLUMNS}),
         event AS (INSERT INTO qpu_job_events (job_id, from_status, to_status, reason) SELECT id, NULL, 'queued', $12 FROM job RETURNING id, at),
         hooks AS (${webhookOutbox('job', 'NULL', "'queued'", '$12')}),
         idem AS (
           INSERT INTO qpu_idempotency_keys (owner_id, key, body_hash, job_id) SELECT owner_id, $13, $14, id FROM job WHERE $13::text IS NOT NULL
           ON CONFLICT (owner_id, key) DO UPDATE SET body_hash = EXCLUDED.body_hash, job_id = EXCLUDED.job_id, created_at = now())
         SELECT * FROM job`,
        [
          job.id,
          job.ownerId,
          job.deviceId,
          job.source,
          job.sourceFramework,
          job.shots,
          JSON.stringify(job.compiled),
          JSON.stringify(job.compiledStats),
          job.initialLayout,
          job.finalLayout,
          job.estimatedCostCents,
          reason,
          idempotency?.key ?? null,
          idempotency?.bodyHash ?? null,
          decision.charge.creditsAppliedCents,
          decision.charge.overageCents,
        ],
      );
      return { decision, job: toRow(inserted.rows[0]) };
    });
  }

  /**
   * Moves a job to `to` if the state machine allows it, with its event, in one transaction. A terminal
   * state records the final cost once: the estimate when completed (added to the owner's spending), else 0.
   */
  async transition(jobId: string, to: QpuJobStatus, reason: string, patch: TransitionPatch = {}): Promise<TransitionResult> {
    if (!isJobId(jobId)) return { applied: false, from: null, job: null };
    const from = QpuJobStatus.options.filter((status) => canTransition(status, to));
    const terminal = isTerminal(to);
    // One statement (atomic on its own, one round trip): lock the row, update it if the state machine allows
    // `to` from its status, insert the event, add a completed job's cost to the owner's spending. The cost is
    // recorded once: the estimate when completed, 0 for the other terminal states.
    const r = await this.prisma.pool.query(
      `WITH cur AS (SELECT id, status, owner_id, estimated_cost_cents FROM qpu_jobs WHERE id = $1 FOR UPDATE),
       upd AS (
         UPDATE qpu_jobs j SET status = $2,
           started_at = CASE WHEN $2 = 'running' THEN now() ELSE j.started_at END,
           completed_at = CASE WHEN $4 THEN now() ELSE j.completed_at END,
           cost_cents = CASE WHEN $2 = 'completed' THEN cur.estimated_cost_cents WHEN $4 THEN 0 ELSE j.cost_cents END,
           counts = COALESCE($6::jsonb, j.counts),
           error = COALESCE($7, j.error),
           backend_job_id = COALESCE($8, j.backend_job_id)
         FROM cur WHERE j.id = cur.id AND cur.status = ANY($3::text[])
         RETURNING ${JOB_COLUMNS.split(',')
           .map((c) => `j.${c.trim()}`)
           .join(', ')}, cur.status AS from_status),
       event AS (INSERT INTO qpu_job_events (job_id, from_status, to_status, reason) SELECT id, from_status, $2, $5 FROM upd RETURNING id, at),
       hooks AS (${webhookOutbox('upd', 'upd.from_status', '$2', '$5')}),
       spend AS (
         INSERT INTO qpu_owner_budgets (owner_id, spent_cents) SELECT owner_id, cost_cents FROM upd WHERE $2 = 'completed' AND cost_cents > 0
         ON CONFLICT (owner_id) DO UPDATE SET spent_cents = qpu_owner_budgets.spent_cents + EXCLUDED.spent_cents, updated_at = now())
       SELECT true AS applied, upd.* FROM upd
       UNION ALL
       SELECT false, ${JOB_COLUMNS.split(',')
         .map((c) => (c.trim() === 'status' ? 'cur.status' : `j.${c.trim()}`))
         .join(', ')}, cur.status
       FROM qpu_jobs j JOIN cur ON cur.id = j.id WHERE NOT EXISTS (SELECT 1 FROM upd)`,
      [jobId, to, from, terminal, reason, patch.counts ? JSON.stringify(patch.counts) : null, patch.error ?? null, patch.backendJobId ?? null],
    );
    const row = r.rows[0];
    if (!row) return { applied: false, from: null, job: null };
    return { applied: row.applied === true, from: row.from_status as QpuJobStatus, job: toRow(row) };
  }

  async setBackendJobId(jobId: string, backendJobId: string): Promise<void> {
    await this.prisma.pool.query('UPDATE qpu_jobs SET backend_job_id = $2 WHERE id = $1', [jobId, backendJobId]);
  }

  async find(jobId: string): Promise<QpuJobRow | null> {
    if (!isJobId(jobId)) return null;
    const r = await this.prisma.pool.query(`SELECT ${JOB_COLUMNS} FROM qpu_jobs WHERE id = $1`, [jobId]);
    return r.rows[0] ? toRow(r.rows[0]) : null;
  }

  /** The owner's job; another owner's job is not found (SPEC §2: never leak existence). */
  async findForOwner(ownerId: string, jobId: string): Promise<QpuJobRow | null> {
    if (!isJobId(jobId)) return null;
    const r = await this.prisma.pool.query(`SELECT ${JOB_COLUMNS} FROM qpu_jobs WHERE id = $1 AND owner_id = $2`, [jobId, ownerId]);
    return r.rows[0] ? toRow(r.rows[0]) : null;
  }

  async list(ownerId: string, query: { skip: number; limit: number; status?: QpuJobStatus; device?: string }): Promise<QpuJobRow[]> {
    const r = await this.prisma.pool.query(
      `SELECT ${JOB_COLUMNS} FROM qpu_jobs WHERE owner_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR device_id = $3)
       ORDER BY submitted_at DESC, id DESC OFFSET $4 LIMIT $5`,
      [ownerId, query.status ?? null, query.device ?? null, query.skip, query.limit],
    );
    return r.rows.map(toRow);
  }

  /** 1 + queued jobs on the same device submitted before this one. */
  async queuePosition(job: QpuJobRow): Promise<number> {
    const r = await this.prisma.pool.query<{ ahead: number }>(
      `SELECT count(*)::int AS ahead FROM qpu_jobs WHERE device_id = $1 AND status = 'queued' AND (submitted_at, id) < ($2, $3)`,
      [job.deviceId, job.submittedAt, job.id],
    );
    return r.rows[0]!.ahead + 1;
  }

  /** Queued and running jobs per device. */
  async queueDepths(): Promise<Map<string, number>> {
    const r = await this.prisma.pool.query<{ device_id: string; n: number }>(
      `SELECT device_id, count(*)::int AS n FROM qpu_jobs WHERE status IN ('queued', 'running') GROUP BY device_id`,
    );
    return new Map(r.rows.map((row) => [row.device_id, row.n]));
  }

  /** Every queued or running job, oldest first (recovery after a restart). */
  async active(): Promise<QpuJobRow[]> {
    const r = await this.prisma.pool.query(`SELECT ${JOB_COLUMNS} FROM qpu_jobs WHERE status IN ('queued', 'running') ORDER BY submitted_at, id`);
    return r.rows.map(toRow);
  }

  async events(jobId: string): Promise<{ from: string | null; to: string; reason: string; at: Date }[]> {
    const r = await this.prisma.pool.query('SELECT from_status, to_status, reason, at FROM qpu_job_events WHERE job_id = $1 ORDER BY id', [jobId]);
    return r.rows.map((e) => ({ from: e.from_status, to: e.to_status, reason: e.reason, at: e.at }));
  }

  async budget(ownerId: string): Promise<BudgetRow> {
    const r = await this.prisma.pool.query<{ budget_cents: number | null; spent_cents: number | null; reserved: number }>(
      `SELECT b.budget_cents, b.spent_cents,
         (SELECT COALESCE(SUM(estimated_cost_cents), 0)::int FROM qpu_jobs WHERE owner_id = $1 AND status IN ('queued', 'running')) AS reserved
       FROM (SELECT $1::uuid AS owner_id) o LEFT JOIN qpu_owner_budgets b ON b.owner_id = o.owner_id`,
      [ownerId],
    );
    const row = r.rows[0]!;
    return { budgetCents: row.budget_cents ?? null, spentCents: row.spent_cents ?? 0, reservedCents: row.reserved };
  }

  async setBudget(ownerId: string, budgetCents: number | null): Promise<void> {
    await this.prisma.pool.query(
      `INSERT INTO qpu_owner_budgets (owner_id, budget_cents) VALUES ($1, $2)
       ON CONFLICT (owner_id) DO UPDATE SET budget_cents = EXCLUDED.budget_cents, updated_at = now()`,
      [ownerId, budgetCents],
    );
  }

  /** Owners are apps/results' table; the broker only reads names to ids. */
  async ownerIdByName(name: string): Promise<string | null> {
    const r = await this.prisma.pool.query<{ id: string }>('SELECT id FROM owners WHERE name = $1', [name]);
    return r.rows[0]?.id ?? null;
  }

  async deleteIdempotencyKeysBefore(before: Date): Promise<number> {
    const r = await this.prisma.pool.query('DELETE FROM qpu_idempotency_keys WHERE created_at < $1', [before]);
    return r.rowCount ?? 0;
  }
}
