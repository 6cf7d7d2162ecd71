import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import {
  QPU_SHOTS,
  QPU_JOB_LIMITS as L,
  QpuJobStatus,
  RpcError,
  Subjects,
  type Principal,
  type QpuBudgetDto,
  type QpuCancelResponse,
  type QpuDeviceDto,
  type QpuEstimateResponse,
  type QpuJobDto,
  type QpuJobSpec,
  type QpuSubmitResponse,
} from '#qdc/contracts';
import { NatsService } from '#qdc/platform';
import { entryPointField } from '../coda/coda-tools.service.js';
import { parseBody } from '../http/parse-body.js';

const JobBody = z.object({
  code: z
    .string({ error: 'code is required: circuit source (Qiskit or Cirq Python, OpenQASM 2 or 3)' })
    .trim()
    .min(1, 'code must not be empty')
    .max(L.codeChars, `code must be at most ${L.codeChars} characters`),
  source_framework: z
    .string({ error: 'source_framework must be a string (qiskit, cirq, openqasm2, openqasm3)' })
    .max(L.sourceFrameworkChars, `source_framework must be at most ${L.sourceFrameworkChars} characters (qiskit, cirq, openqasm2, openqasm3)`)
    .nullish(),
  backend: z
    .string({ error: 'backend is required: a device id from GET /qpus' })
    .trim()
    .min(1, 'backend must not be empty')
    .max(L.backendChars, `backend must be at most ${L.backendChars} characters (a device id from GET /qpus)`),
  shots: z
    .number({ error: `shots must be an integer from ${QPU_SHOTS.min} to ${QPU_SHOTS.max}` })
    .int(`shots must be an integer from ${QPU_SHOTS.min} to ${QPU_SHOTS.max}`)
    .min(QPU_SHOTS.min, `shots must be from ${QPU_SHOTS.min} to ${QPU_SHOTS.max}`)
    .max(QPU_SHOTS.max, `shots must be from ${QPU_SHOTS.min} to ${QPU_SHOTS.max}`)
    .default(QPU_SHOTS.default),
  braket_execution_mode_hint: z
    .string({ error: 'braket_execution_mode_hint must be a string' })
    .max(L.braketExecutionModeHintChars, `braket_execution_mode_hint must be at most ${L.braketExecutionModeHintChars} characters`)
    .nullish(),
  entry_point: entryPointField,
});
const SubmitBody = JobBody.extend({ accept_overage: z.boolean({ error: 'accept_overage must be true or false' }).default(false) });
const JobIdBody = z.object({
  job_id: z
    .string({ error: 'job_id is required: the id POST /qpus answered' })
    .trim()
    .min(1, 'job_id must not be empty')
    .max(200, 'job_id must be at most 200 characters (ids POST /qpus answers are UUIDs)'),
});
const BudgetBody = z.object({
  budget_cents: z.number({ error: 'budget_cents must be a non-negative integer or null (unlimited)' }).int().nonnegative().nullable(),
});

/** A QPU route's body: a JSON object, checked against its schema (422 naming the field otherwise). */
const parse = <T>(schema: z.ZodType<T>, body: unknown): T => parseBody(schema, body, { objectRequired: true });

const toSpec = (b: z.infer<typeof JobBody>): QpuJobSpec => ({
  code: b.code,
  backend: b.backend,
  shots: b.shots,
  ...(b.source_framework ? { sourceFramework: b.source_framework } : {}),
  ...(b.braket_execution_mode_hint ? { braketExecutionModeHint: b.braket_execution_mode_hint } : {}),
  ...(b.entry_point ? { entryPoint: b.entry_point } : {}),
});

/** `Idempotency-Key`: 1–255 visible ASCII characters. */
function idempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !/^[\x21-\x7e]{1,255}$/.test(value)) {
    throw new RpcError('invalid_input', `Idempotency-Key must be 1 to 255 visible ASCII characters; got '${String(value).slice(0, 40)}'`);
  }
  return value;
}

export interface JobsQuery {
  skip: number;
  limit: number;
  status?: string;
  device?: string;
}

/** Coda QPU routes: HTTP bodies (SPEC §4/§6 field names) ⇄ qpu-broker messages, the caller's owner id attached. */
@Injectable()
export class QpusService {
  constructor(private readonly nats: NatsService) {}

  async devices(requestId: string) {
    const devices = await this.nats.request<QpuDeviceDto[]>(Subjects.QpuDevices, {}, { requestId });
    return { success: true, devices };
  }

  async submit(caller: Principal, body: unknown, idempotencyHeader: string | string[] | undefined, requestId: string) {
    const b = parse(SubmitBody, body);
    const key = idempotencyKey(idempotencyHeader);
    const r = await this.nats.request<QpuSubmitResponse>(
      Subjects.QpuSubmit,
      { ownerId: caller.ownerId, job: toSpec(b), acceptOverage: b.accept_overage, ...(key ? { idempotencyKey: key } : {}) },
      { requestId },
    );
    return { success: true, ...r };
  }

  async estimate(caller: Principal, body: unknown, requestId: string) {
    const r = await this.nats.request<QpuEstimateResponse>(Subjects.QpuEstimate, { ownerId: caller.ownerId, job: toSpec(parse(JobBody, body)) }, { requestId });
    return { success: true, ...r };
  }

  async status(caller: Principal, body: unknown, requestId: string) {
    const { job_id } = parse(JobIdBody, body);
    const r = await this.nats.request<QpuJobDto>(Subjects.QpuStatus, { ownerId: caller.ownerId, jobId: job_id }, { requestId });
    return { success: true, ...r };
  }

  async cancel(caller: Principal, body: unknown, requestId: string) {
    const { job_id } = parse(JobIdBody, body);
    const r = await this.nats.request<QpuCancelResponse>(Subjects.QpuCancel, { ownerId: caller.ownerId, jobId: job_id }, { requestId });
    return { success: true, ...r };
  }

  async jobs(caller: Principal, query: JobsQuery, requestId: string) {
    if (query.status !== undefined && !QpuJobStatus.safeParse(query.status).success) {
      throw new RpcError('invalid_input', `status must be one of ${QpuJobStatus.options.join(', ')}; got '${query.status}'`);
    }
    const jobs = await this.nats.request<QpuJobDto[]>(Subjects.QpuJobs, { ownerId: caller.ownerId, ...query }, { requestId });
    return { success: true, jobs, skip: query.skip, limit: query.limit };
  }

  getBudget(owner: string): Promise<QpuBudgetDto> {
    return this.nats.request(Subjects.QpuBudgetGet, { ownerName: owner });
  }

  setBudget(owner: string, body: unknown): Promise<QpuBudgetDto> {
    const { budget_cents } = parse(BudgetBody, body);
    return this.nats.request(Subjects.QpuBudgetSet, { ownerName: owner, budgetCents: budget_cents });
  }
}
