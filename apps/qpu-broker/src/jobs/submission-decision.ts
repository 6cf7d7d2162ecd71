import { createHash } from 'node:crypto';
import type { QpuJobSpec } from '#qdc/contracts';
import { remainingCents } from './job-cost.js';

/** Idempotency keys are honoured for 24 h (SPEC §6). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

/** SHA-256 of the normalised body (defaults applied, fixed key order): what "same body" means. */
export function submissionBodyHash(job: QpuJobSpec, acceptOverage: boolean): string {
  // entry_point joins the hash only when given, so hashes of bodies without it are unchanged.
  const canonical = [
    job.code,
    job.sourceFramework ?? null,
    job.backend,
    job.shots,
    job.braketExecutionModeHint ?? null,
    acceptOverage,
    ...(job.entryPoint ? [job.entryPoint] : []),
  ];
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

export interface SubmissionContext {
  /** The owner's earlier submission under the same Idempotency-Key, if any. */
  existing: { jobId: string; bodyHash: string; createdAt: Date } | null;
  bodyHash: string;
  now: Date;
  budget: { budgetCents: number | null; spentCents: number; reservedCents: number };
  estimateCents: number;
  acceptOverage: boolean;
}

export type SubmissionDecision =
  | { kind: 'replay'; jobId: string }
  | { kind: 'conflict'; message: string }
  | { kind: 'over-budget'; message: string; remainingCents: number }
  | { kind: 'create'; replacesExpiredKey: boolean; charge: JobCharge };

/** How a new job's estimate is paid: from the owner's remaining budget (credits), the rest as overage. */
export interface JobCharge {
  creditsAppliedCents: number;
  overageCents: number;
}

/**
 * Decides a submission inside the transaction that holds the owner's budget row: an earlier job
 * under the same key (within 24 h) is returned again — no new job, no new charge — unless the body
 * differs (conflict); otherwise the estimate must fit in what is left unless overage is accepted, and
 * what does not fit is the job's overage.
 */
export function decideSubmission(ctx: SubmissionContext): SubmissionDecision {
  const live = ctx.existing && ctx.now.getTime() - ctx.existing.createdAt.getTime() < IDEMPOTENCY_WINDOW_MS ? ctx.existing : null;
  if (live) {
    if (live.bodyHash === ctx.bodyHash) return { kind: 'replay', jobId: live.jobId };
    return {
      kind: 'conflict',
      message: `Idempotency-Key was already used within 24 h for a different request (job ${live.jobId}); use a new key for a new job`,
    };
  }
  const remaining = remainingCents(ctx.budget);
  if (remaining !== null && ctx.estimateCents > remaining && !ctx.acceptOverage) {
    return {
      kind: 'over-budget',
      remainingCents: remaining,
      message: `this job is estimated at ${ctx.estimateCents} cents but the budget has ${Math.max(0, remaining)} cents left (budget ${ctx.budget.budgetCents}, spent ${ctx.budget.spentCents}, reserved by queued and running jobs ${ctx.budget.reservedCents}); send accept_overage: true to submit anyway`,
    };
  }
  const creditsAppliedCents = remaining === null ? ctx.estimateCents : Math.min(ctx.estimateCents, Math.max(0, remaining));
  return { kind: 'create', replacesExpiredKey: ctx.existing !== null, charge: { creditsAppliedCents, overageCents: ctx.estimateCents - creditsAppliedCents } };
}
