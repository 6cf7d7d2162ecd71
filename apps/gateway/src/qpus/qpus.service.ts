import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import {
  QpuBudgetHttpRequest as BudgetBody,
  QpuJobHttpRequest as JobBody,
  QpuJobIdHttpRequest as JobIdBody,
  QpuJobStatus,
  QpuSubmitHttpRequest as SubmitBody,
  QpuRpc,
  RpcError,
  type Principal,
  type QpuBudgetDto,
  type QpuJobSpec,
} from '#qdc/contracts';
import { RpcClient } from '#qdc/platform';
import { parseBody } from '../http/parse-body.js';

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
  constructor(private readonly rpc: RpcClient) {}

  async devices(requestId: string) {
    const devices = await this.rpc.call(QpuRpc.devices, {}, { requestId });
    return { success: true, devices };
  }

  async submit(caller: Principal, body: unknown, idempotencyHeader: string | string[] | undefined, requestId: string) {
    const b = parse(SubmitBody, body);
    const key = idempotencyKey(idempotencyHeader);
    const r = await this.rpc.call(
      QpuRpc.submit,
      { ownerId: caller.ownerId, job: toSpec(b), acceptOverage: b.accept_overage, ...(key ? { idempotencyKey: key } : {}) },
      { requestId },
    );
    return { success: true, ...r };
  }

  async estimate(caller: Principal, body: unknown, requestId: string) {
    const r = await this.rpc.call(QpuRpc.estimate, { ownerId: caller.ownerId, job: toSpec(parse(JobBody, body)) }, { requestId });
    return { success: true, ...r };
  }

  async status(caller: Principal, body: unknown, requestId: string) {
    const { job_id } = parse(JobIdBody, body);
    const r = await this.rpc.call(QpuRpc.status, { ownerId: caller.ownerId, jobId: job_id }, { requestId });
    return { success: true, ...r };
  }

  async cancel(caller: Principal, body: unknown, requestId: string) {
    const { job_id } = parse(JobIdBody, body);
    const r = await this.rpc.call(QpuRpc.cancel, { ownerId: caller.ownerId, jobId: job_id }, { requestId });
    return { success: true, ...r };
  }

  async jobs(caller: Principal, query: JobsQuery, requestId: string) {
    const status = query.status === undefined ? undefined : QpuJobStatus.safeParse(query.status);
    if (status && !status.success) {
      throw new RpcError('invalid_input', `status must be one of ${QpuJobStatus.options.join(', ')}; got '${query.status}'`);
    }
    const jobs = await this.rpc.call(QpuRpc.list, { ownerId: caller.ownerId, ...query, status: status?.data }, { requestId });
    return { success: true, jobs, skip: query.skip, limit: query.limit };
  }

  getBudget(owner: string): Promise<QpuBudgetDto> {
    return this.rpc.call(QpuRpc.getBudget, { ownerName: owner });
  }

  setBudget(owner: string, body: unknown): Promise<QpuBudgetDto> {
    const { budget_cents } = parse(BudgetBody, body);
    return this.rpc.call(QpuRpc.setBudget, { ownerName: owner, budgetCents: budget_cents });
  }
}
