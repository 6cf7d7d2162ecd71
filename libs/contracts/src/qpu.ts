import { z } from 'zod';

/**
 * QPU devices and jobs (gateway ⇄ qpu-broker ⇄ simulation workers). The broker answers in the
 * SPEC §4/§6 wire shape (snake_case) so the gateway passes replies through; requests are camelCase.
 */
export const QpuJobStatus = z
  .enum(['queued', 'running', 'completed', 'failed', 'cancelled'])
  .meta({ description: "queued → running → completed | failed, as the vendor documents; `cancelled` is QDC's own (POST /qpus/cancel)" });
export type QpuJobStatus = z.infer<typeof QpuJobStatus>;

/** Shots of a QPU job as the vendor documents them (SPEC §4): an integer 10–10000, 100 when not given. */
export const QPU_SHOTS = { min: 10, max: 10_000, default: 100 } as const;
/** Field bounds of a job spec; the gateway's body check uses the same numbers so nothing it accepts is refused here. */
export const QPU_JOB_LIMITS = { codeChars: 1024 * 1024, sourceFrameworkChars: 64, backendChars: 200, braketExecutionModeHintChars: 64 } as const;
const Code = z.string().min(1).max(QPU_JOB_LIMITS.codeChars);
const OwnerScoped = z.object({ ownerId: z.string().uuid() });

/** What a job asks for (the body of submit and estimate-cost). */
export const QpuJobSpec = z.object({
  code: Code,
  sourceFramework: z.string().max(QPU_JOB_LIMITS.sourceFrameworkChars).optional(),
  backend: z.string().min(1).max(QPU_JOB_LIMITS.backendChars),
  shots: z.number().int().min(QPU_SHOTS.min).max(QPU_SHOTS.max),
  braketExecutionModeHint: z.string().max(QPU_JOB_LIMITS.braketExecutionModeHintChars).optional(),
  /** `entry_point`: the Python function whose returned circuit is meant. */
  entryPoint: z.string().min(1).max(200).optional(),
});
export type QpuJobSpec = z.infer<typeof QpuJobSpec>;

export const QpuSubmitRequest = OwnerScoped.extend({
  job: QpuJobSpec,
  acceptOverage: z.boolean(),
  /** `Idempotency-Key` header: same key + same body within 24 h → the first job. */
  idempotencyKey: z.string().min(1).max(255).optional(),
});
export type QpuSubmitRequest = z.infer<typeof QpuSubmitRequest>;

export const QpuEstimateRequest = OwnerScoped.extend({ job: QpuJobSpec });
export type QpuEstimateRequest = z.infer<typeof QpuEstimateRequest>;

export const QpuJobRef = OwnerScoped.extend({ jobId: z.string().min(1).max(200) });
export type QpuJobRef = z.infer<typeof QpuJobRef>;

export const QpuJobsListRequest = OwnerScoped.extend({
  skip: z.number().int().nonnegative(),
  limit: z.number().int().min(1).max(1000),
  status: QpuJobStatus.optional(),
  device: z.string().optional(),
});
export type QpuJobsListRequest = z.infer<typeof QpuJobsListRequest>;

export const QpuPricing = z.object({ per_task_cents: z.number().nonnegative(), per_shot_cents: z.number().nonnegative() });
export type QpuPricing = z.infer<typeof QpuPricing>;

/** Device as GET /qpus lists it (SPEC §6). */
export const QpuDeviceDto = z.object({
  id: z.string(),
  name: z.string(),
  provider: z.string(),
  num_qubits: z.number().int(),
  native_gates: z.array(z.string()),
  coupling_map: z.array(z.tuple([z.number().int(), z.number().int()])).nullable(),
  status: z.enum(['online', 'offline', 'maintenance']),
  queue_depth: z.number().int(),
  pricing: QpuPricing,
  noise: z.record(z.string(), z.unknown()).optional(),
  max_shots: z.number().int(),
  shot_time_us: z.number(),
});
export type QpuDeviceDto = z.infer<typeof QpuDeviceDto>;

export const QpuCompiledStats = z.object({
  native_gate_count: z.number().int(),
  two_qubit_gate_count: z.number().int(),
  swap_count: z.number().int(),
  depth: z.number().int(),
});
export type QpuCompiledStats = z.infer<typeof QpuCompiledStats>;

/** A job as status and the job list answer it (SPEC §4/§6). */
export const QpuJobDto = z.object({
  job_id: z.string(),
  status: QpuJobStatus,
  device: z.string(),
  shots: z.number().int(),
  source_framework: z.string(),
  compiled: QpuCompiledStats,
  estimated_cost_cents: z.number(),
  cost_cents: z.number().nullable(),
  /** The measurement `{bitstring: count}` once completed (the vendor's field name). */
  results: z.record(z.string(), z.number().int()).optional().meta({ description: 'the measurement {bitstring: count} once completed (bit 0 rightmost)' }),
  /** Deprecated alias of `results` (QDC answered `counts` before 2026-11-28). */
  counts: z.record(z.string(), z.number().int()).optional().meta({ deprecated: true, description: 'deprecated alias of `results` (read `results`)' }),
  error: z.string().optional(),
  queue_position: z.number().int().optional(),
  submitted_at: z.string(),
  started_at: z.string().optional(),
  completed_at: z.string().optional(),
});
export type QpuJobDto = z.infer<typeof QpuJobDto>;

/**
 * Submit's answer as the vendor's API reference shows it: `status` is always `submitted` (the job's own
 * status is read with status); `credits_applied` are the cents of the estimate covered by the owner's
 * remaining budget (all of it when the budget is unlimited), `overage_cents` the rest (only possible
 * with `accept_overage: true`). A replay answers what the first submission answered.
 */
export const QpuSubmitResponse = z.object({
  job_id: z.string(),
  status: z.literal('submitted'),
  backend: z.string(),
  shots: z.number().int(),
  estimated_cost_cents: z.number(),
  credits_applied: z.number(),
  overage_cents: z.number(),
  /** True when an Idempotency-Key matched an earlier submission (no new job, no new charge). */
  idempotent_replay: z.boolean(),
});
export type QpuSubmitResponse = z.infer<typeof QpuSubmitResponse>;

export const QpuEstimateResponse = z.object({
  estimated_cost_cents: z.number(),
  device: z.string(),
  shots: z.number().int(),
  compiled: QpuCompiledStats,
  budget_cents: z.number().nullable(),
  remaining_cents: z.number().nullable(),
});
export type QpuEstimateResponse = z.infer<typeof QpuEstimateResponse>;

/** One persisted state change of a job; `seq` counts them from 1 (the SSE event id of GET /qpus/jobs/{id}/events). */
export const QpuJobTransition = z.object({ seq: z.number().int().positive(), from: QpuJobStatus.nullable(), to: QpuJobStatus, at: z.string() });
export type QpuJobTransition = z.infer<typeof QpuJobTransition>;
/** A job as status answers it, with every state change so far, in order. */
export const QpuJobHistoryResponse = z.object({ job: QpuJobDto, transitions: z.array(QpuJobTransition) });
export type QpuJobHistoryResponse = z.infer<typeof QpuJobHistoryResponse>;

export const QpuCancelResponse = z.object({ job_id: z.string(), status: QpuJobStatus });
export type QpuCancelResponse = z.infer<typeof QpuCancelResponse>;

/** Budgets (admin keys and the CLI). `budgetCents` null = unlimited. */
export const QpuBudgetSetRequest = z.object({ ownerName: z.string().min(1).max(200), budgetCents: z.number().int().nonnegative().nullable() });
export type QpuBudgetSetRequest = z.infer<typeof QpuBudgetSetRequest>;
export const QpuBudgetGetRequest = z.object({ ownerName: z.string().min(1).max(200) });
export type QpuBudgetGetRequest = z.infer<typeof QpuBudgetGetRequest>;
export const QpuBudgetDto = z.object({
  owner: z.string(),
  budget_cents: z.number().nullable(),
  spent_cents: z.number(),
  /** Estimates of the owner's queued and running jobs. */
  reserved_cents: z.number(),
  remaining_cents: z.number().nullable(),
});
export type QpuBudgetDto = z.infer<typeof QpuBudgetDto>;

/** simulation worker → broker: take a job (queued → running) and get what to execute. */
export const QpuExecutionStartRequest = z.object({ jobId: z.string().uuid(), attempt: z.number().int().nonnegative() });
export type QpuExecutionStartRequest = z.infer<typeof QpuExecutionStartRequest>;
export const QpuExecutionStartResponse = z.union([
  z.object({ run: z.literal(false), status: QpuJobStatus }),
  z.object({
    run: z.literal(true),
    deviceId: z.string(),
    shots: z.number().int(),
    seed: z.number().int().nonnegative(),
    /** The compiled native circuit (JSON, as stored). */
    compiled: z.unknown(),
  }),
]);
export type QpuExecutionStartResponse = z.infer<typeof QpuExecutionStartResponse>;

/** simulation worker → broker: the result (persisted before the worker completes its BullMQ job). */
export const QpuExecutionCompleteRequest = z.object({
  jobId: z.string().uuid(),
  counts: z.record(z.string(), z.number().int().nonnegative()),
  method: z.string(),
  elapsedMs: z.number().nonnegative(),
});
export type QpuExecutionCompleteRequest = z.infer<typeof QpuExecutionCompleteRequest>;
export const QpuExecutionFailRequest = z.object({ jobId: z.string().uuid(), error: z.string().max(4000) });
export type QpuExecutionFailRequest = z.infer<typeof QpuExecutionFailRequest>;
export const QpuExecutionAck = z.object({ status: QpuJobStatus, applied: z.boolean() });
export type QpuExecutionAck = z.infer<typeof QpuExecutionAck>;

/** Event: every persisted state change of a job. */
export const QpuJobStatusChangedEvent = z.object({
  jobId: z.string().uuid(),
  ownerId: z.string().uuid(),
  device: z.string(),
  from: QpuJobStatus.nullable(),
  to: QpuJobStatus,
  reason: z.string(),
  at: z.string(),
});
export type QpuJobStatusChangedEvent = z.infer<typeof QpuJobStatusChangedEvent>;

/** BullMQ job data of a simulated device's queue. */
export const QpuSimulationJobData = z.object({ jobId: z.string().uuid(), deviceId: z.string(), requestId: z.string() });
export type QpuSimulationJobData = z.infer<typeof QpuSimulationJobData>;
