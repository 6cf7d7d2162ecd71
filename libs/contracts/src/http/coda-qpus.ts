import { z } from 'zod';
import { QPU_JOB_LIMITS as L, QPU_SHOTS, QpuCancelResponse, QpuDeviceDto, QpuEstimateResponse, QpuJobDto, QpuJobStatus, QpuSubmitResponse } from '../qpu.js';
import { EntryPointHttpField } from './coda-tools.js';
import { PageHttpQuery } from './control-models.js';

/**
 * QPU devices and jobs (SPEC §4/§6) over HTTP. The answers are the broker's wire shapes (libs/contracts/src/qpu.ts)
 * with `success: true`, built from those objects so they follow any change there.
 */
const ok = <T extends z.ZodRawShape>(shape: T) => z.object({ success: z.literal(true), ...shape });

export const QpuDeviceHttp = QpuDeviceDto.meta({ id: 'QpuDevice' });
export type QpuDeviceHttp = z.infer<typeof QpuDeviceHttp>;

/** `GET /qpus` (legacy `GET /qpu/devices`). */
export const QpuDevicesHttpResponse = ok({ devices: z.array(QpuDeviceHttp) }).meta({ id: 'QpuDevicesResponse' });
export type QpuDevicesHttpResponse = z.infer<typeof QpuDevicesHttpResponse>;

/** Body of estimate-cost (and, with accept_overage, of submit), as the gateway validates it: its messages are the 422 answers. */
export const QpuJobHttpRequest = z
  .object({
    code: z
      .string({ error: 'code is required: circuit source (Qiskit or Cirq Python, OpenQASM 2 or 3)' })
      .trim()
      .min(1, 'code must not be empty')
      .max(L.codeChars, `code must be at most ${L.codeChars} characters`)
      .meta({ description: 'Qiskit or Cirq Python source (parsed, never executed), OpenQASM 2 or OpenQASM 3' }),
    source_framework: z
      .string({ error: 'source_framework must be a string (qiskit, cirq, openqasm2, openqasm3)' })
      .max(L.sourceFrameworkChars, `source_framework must be at most ${L.sourceFrameworkChars} characters (qiskit, cirq, openqasm2, openqasm3)`)
      .nullish()
      .meta({ description: 'qiskit, cirq, openqasm2 or openqasm3; detected when absent' }),
    backend: z
      .string({ error: 'backend is required: a device id from GET /qpus' })
      .trim()
      .min(1, 'backend must not be empty')
      .max(L.backendChars, `backend must be at most ${L.backendChars} characters (a device id from GET /qpus)`)
      .meta({ description: 'a device id from GET /qpus' }),
    shots: z
      .number({ error: `shots must be an integer from ${QPU_SHOTS.min} to ${QPU_SHOTS.max}` })
      .int(`shots must be an integer from ${QPU_SHOTS.min} to ${QPU_SHOTS.max}`)
      .min(QPU_SHOTS.min, `shots must be from ${QPU_SHOTS.min} to ${QPU_SHOTS.max}`)
      .max(QPU_SHOTS.max, `shots must be from ${QPU_SHOTS.min} to ${QPU_SHOTS.max}`)
      .default(QPU_SHOTS.default),
    braket_execution_mode_hint: z
      .string({ error: 'braket_execution_mode_hint must be a string' })
      .max(L.braketExecutionModeHintChars, `braket_execution_mode_hint must be at most ${L.braketExecutionModeHintChars} characters`)
      .nullish()
      .meta({ description: 'program_set, run_batch or null' }),
    entry_point: EntryPointHttpField,
  })
  .meta({ id: 'QpuJobRequest' });
export type QpuJobHttpRequest = z.input<typeof QpuJobHttpRequest>;

/** `POST /qpus` (legacy `/qpu/submit`). */
export const QpuSubmitHttpRequest = QpuJobHttpRequest.extend({
  accept_overage: z
    .boolean({ error: 'accept_overage must be true or false' })
    .default(false)
    .meta({ description: 'charge what the remaining budget does not cover instead of answering 402' }),
}).meta({ id: 'QpuSubmitRequest' });
export type QpuSubmitHttpRequest = z.input<typeof QpuSubmitHttpRequest>;

/** Body of status and cancel. */
export const QpuJobIdHttpRequest = z
  .object({
    job_id: z
      .string({ error: 'job_id is required: the id POST /qpus answered' })
      .trim()
      .min(1, 'job_id must not be empty')
      .max(200, 'job_id must be at most 200 characters (ids POST /qpus answers are UUIDs)'),
  })
  .meta({ id: 'QpuJobIdRequest' });
export type QpuJobIdHttpRequest = z.input<typeof QpuJobIdHttpRequest>;

/** `POST /qpus` (legacy `/qpu/submit`): the vendor's answer plus QDC's `idempotent_replay`. */
export const QpuSubmitHttpResponse = ok(QpuSubmitResponse.shape).meta({ id: 'QpuSubmitResponse' });
export type QpuSubmitHttpResponse = z.infer<typeof QpuSubmitHttpResponse>;

/** `POST /qpus/estimate-cost` (legacy `/qpu/estimate-cost`). */
export const QpuEstimateHttpResponse = ok(QpuEstimateResponse.shape).meta({ id: 'QpuEstimateResponse' });
export type QpuEstimateHttpResponse = z.infer<typeof QpuEstimateHttpResponse>;

/** A job as status and the job list answer it. */
export const QpuJobHttp = QpuJobDto.meta({ id: 'QpuJob' });
export type QpuJobHttp = z.infer<typeof QpuJobHttp>;

/** `POST /qpus/status` (legacy `/qpu/status`). */
export const QpuStatusHttpResponse = ok(QpuJobDto.shape).meta({ id: 'QpuStatusResponse' });
export type QpuStatusHttpResponse = z.infer<typeof QpuStatusHttpResponse>;

/** `POST /qpus/cancel`. */
export const QpuCancelHttpResponse = ok(QpuCancelResponse.shape).meta({ id: 'QpuCancelResponse' });
export type QpuCancelHttpResponse = z.infer<typeof QpuCancelHttpResponse>;

/** `GET /qpus/jobs`: the caller's jobs, newest first. */
export const QpuJobsHttpQuery = PageHttpQuery.extend({
  status: QpuJobStatus.optional(),
  device: z.string().optional().meta({ description: 'a device id' }),
});
export type QpuJobsHttpQuery = z.infer<typeof QpuJobsHttpQuery>;

export const QpuJobsHttpResponse = ok({ jobs: z.array(QpuJobHttp), skip: z.number().int(), limit: z.number().int() }).meta({ id: 'QpuJobsResponse' });
export type QpuJobsHttpResponse = z.infer<typeof QpuJobsHttpResponse>;

/** Optional `Idempotency-Key` header of submit: same key + same body within 24 h → the first job, no second charge. */
export const QpuSubmitHttpHeaders = z.object({
  'Idempotency-Key': z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/)
    .optional()
    .meta({ description: '1–255 visible ASCII characters; same key + same body within 24 h answers the first job' }),
});
export type QpuSubmitHttpHeaders = z.infer<typeof QpuSubmitHttpHeaders>;

export const QpuJobEventsHttpParams = z.object({ job_id: z.string().meta({ description: 'the id POST /qpus answered' }) });
export type QpuJobEventsHttpParams = z.infer<typeof QpuJobEventsHttpParams>;
export const QpuJobEventsHttpHeaders = z.object({
  'Last-Event-ID': z.string().optional().meta({ description: 'the id of the last event received: the stream resumes after it' }),
});
export type QpuJobEventsHttpHeaders = z.infer<typeof QpuJobEventsHttpHeaders>;

/** One SSE event of `GET /qpus/jobs/{job_id}/events` (SPEC §7): a `status` per state change, then `results` or `error`, last. */
export const QpuJobEventHttp = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('status'), status: QpuJobStatus, at: z.string().meta({ format: 'date-time' }) }),
    z.object({ type: z.literal('results'), results: z.record(z.string(), z.number().int()).meta({ description: '{bitstring: count}' }) }),
    z.object({ type: z.literal('error'), error: z.string() }),
  ])
  .meta({ id: 'QpuJobEvent' });
export type QpuJobEventHttp = z.infer<typeof QpuJobEventHttp>;
