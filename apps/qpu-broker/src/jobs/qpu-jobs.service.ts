import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import {
  QpuEvents,
  RpcError,
  type QpuCancelResponse,
  type QpuDeviceDto,
  type QpuEstimateRequest,
  type QpuEstimateResponse,
  type QpuExecutionAck,
  type QpuExecutionCompleteRequest,
  type QpuExecutionFailRequest,
  type QpuExecutionStartRequest,
  type QpuExecutionStartResponse,
  type QpuJobDto,
  type QpuJobHistoryResponse,
  type QpuJobRef,
  type QpuJobSpec,
  type QpuJobStatus,
  type QpuJobStatusChangedEvent,
  type QpuJobsListRequest,
  type QpuSubmitRequest,
  type QpuSubmitResponse,
} from '#qdc/contracts';
import { CircuitError, deviceNoiseSummary, validateNoiseModel } from '#qdc/circuits';
import { EventBus, assertCallerWaiting } from '#qdc/platform';
import { BackendRegistry } from '../backends/backend-registry.js';
import type { QpuBackend } from '../backends/qpu-backend.js';
import type { DeviceFile } from '../devices/device-file.js';
import { DeviceToolchain, type CompiledJob } from '../devices/device-toolchain.js';
import { estimateCostCents, remainingCents } from './job-cost.js';
import { isTerminal } from './job-state.js';
import { QpuJobsRepository, type QpuJobRow, type TransitionPatch } from './qpu-jobs.repository.js';
import { IDEMPOTENCY_WINDOW_MS, decideSubmission, submissionBodyHash } from './submission-decision.js';
import { QPU_CONFIG, type QpuConfig } from '../qpu.config.js';

/** Front ends a submission may name; the code's own framework is detected and must agree. */
const FRAMEWORK_FAMILY: Record<string, string> = {
  qiskit: 'qiskit',
  cirq: 'cirq',
  openqasm: 'openqasm',
  openqasm2: 'openqasm',
  openqasm3: 'openqasm',
  qasm: 'openqasm',
  qasm2: 'openqasm',
  qasm3: 'openqasm',
};

/**
 * A submission is not written when its caller (the gateway) has stopped waiting or is about to: the client got a
 * 504 and may retry without an Idempotency-Key (the official client retries POST on 5xx), which must not become a
 * second job and a second charge. The margin covers the insert, the commit and the reply.
 */
const SUBMIT_COMMIT_MARGIN_MS = 1_000;

/** Seed of a job's simulated shots, from its id: a re-run after a crash draws the same counts. */
export const seedOfJob = (jobId: string): number => parseInt(createHash('sha256').update(jobId).digest('hex').slice(0, 8), 16) >>> 1;

/**
 * QPU jobs: submission (idempotent, budgeted, persisted before it is acknowledged), status, listing,
 * cancellation, and the transitions reported by executions. Every transition is persisted with its event
 * in one transaction (QpuJobsRepository.transition) and then published on `qpu.job.status-changed.v1`.
 */
@Injectable()
export class QpuJobsService {
  private readonly logger = new Logger(QpuJobsService.name);

  constructor(
    private readonly jobs: QpuJobsRepository,
    private readonly backends: BackendRegistry,
    private readonly toolchain: DeviceToolchain,
    private readonly events: EventBus,
    @Inject(QPU_CONFIG) private readonly qpu: Pick<QpuConfig, 'QDC_QPU_QUEUE_TIMEOUT'>,
  ) {}

  async devices(): Promise<QpuDeviceDto[]> {
    const depths = await this.jobs.queueDepths();
    return this.backends.devices().map(({ device, backend }) => ({
      id: device.id,
      name: device.name,
      provider: device.provider,
      num_qubits: device.num_qubits,
      native_gates: device.native_gates,
      coupling_map: device.coupling_map,
      status: backend.capabilities.status(device),
      queue_depth: depths.get(device.id) ?? 0,
      pricing: device.pricing,
      ...(device.noise ? { noise: { ...deviceNoiseSummary(validateNoiseModel(device.noise)), ...device.noise } } : {}),
      max_shots: device.max_shots,
      shot_time_us: device.shot_time_us,
    }));
  }

  /** Device, compiled circuit and price of a job spec; the caller's faults are 404 (device) or 422. */
  private prepare(spec: QpuJobSpec): { device: DeviceFile; backend: QpuBackend; compiled: CompiledJob; estimate: number } {
    const found = this.backends.device(spec.backend);
    if (!found) {
      const ids = this.backends.devices().map((d) => d.device.id);
      throw new RpcError('not_found', `unknown backend '${spec.backend}'; available devices: ${ids.join(', ') || 'none'}`);
    }
    const { device, backend } = found;
    if (spec.shots > device.max_shots)
      throw new RpcError('invalid_input', `shots must be at most ${device.max_shots} on ${device.id}; got ${spec.shots}`, {
        loc: ['body', 'shots'],
        type: 'less_than_equal',
      });
    const declared = spec.sourceFramework?.trim().toLowerCase();
    if (declared && !(declared in FRAMEWORK_FAMILY)) {
      throw new RpcError('invalid_input', `source_framework '${spec.sourceFramework}' is not supported; expected one of qiskit, cirq, openqasm2, openqasm3`, {
        loc: ['body', 'source_framework'],
        type: 'enum',
      });
    }
    let compiled: CompiledJob;
    try {
      compiled = this.toolchain.compile(spec.code, device, { entryPoint: spec.entryPoint });
      backend.refuseUnsupported?.(compiled.circuit, device);
    } catch (error) {
      if (error instanceof CircuitError)
        throw new RpcError('invalid_input', error.message, { kind: error.kind, line: error.line ?? null, construct: error.construct ?? null });
      throw error;
    }
    if (declared && FRAMEWORK_FAMILY[declared] !== FRAMEWORK_FAMILY[compiled.sourceFramework]) {
      throw new RpcError('invalid_input', `source_framework is '${spec.sourceFramework}' but the code is ${compiled.sourceFramework}`, {
        loc: ['body', 'source_framework'],
        type: 'value_error',
      });
    }
    return { device, backend, compiled, estimate: estimateCostCents(device.pricing, spec.shots) };
  }

  async estimate(msg: QpuEstimateRequest): Promise<QpuEstimateResponse> {
    const { device, compiled, estimate } = this.prepare(msg.job);
    const budget = await this.jobs.budget(msg.ownerId);
    return {
      estimated_cost_cents: estimate,
      device: device.id,
      shots: msg.job.shots,
      compiled: compiled.stats,
      budget_cents: budget.budgetCents,
      remaining_cents: remainingCents(budget),
    };
  }

  async submit(msg: QpuSubmitRequest): Promise<QpuSubmitResponse> {
    const { device, backend, compiled, estimate } = this.prepare(msg.job);
    const bodyHash = submissionBodyHash(msg.job, msg.acceptOverage);
    const { decision, job } = await this.jobs.submit(
      {
        id: randomUUID(),
        ownerId: msg.ownerId,
        deviceId: device.id,
        source: msg.job.code,
        sourceFramework: compiled.sourceFramework,
        shots: msg.job.shots,
        compiled: compiled.circuit,
        compiledStats: compiled.stats,
        initialLayout: compiled.initialLayout,
        finalLayout: compiled.finalLayout,
        estimatedCostCents: estimate,
      },
      msg.idempotencyKey ? { key: msg.idempotencyKey, bodyHash } : null,
      msg.acceptOverage,
      msg.acceptOverage ? 'submitted (overage accepted)' : 'submitted',
      (ctx) => {
        // Inside the transaction, just before the job would be written (a stalled broker resumes here too).
        assertCallerWaiting('the job', SUBMIT_COMMIT_MARGIN_MS);
        return decideSubmission(ctx);
      },
    );
    switch (decision.kind) {
      case 'replay': {
        const first = await this.jobs.find(decision.jobId);
        if (!first) throw new RpcError('internal', `idempotency key points at missing job ${decision.jobId}`);
        return toSubmitResponse(first, true);
      }
      case 'conflict':
        throw new RpcError('conflict', decision.message);
      case 'over-budget':
        throw new RpcError('payment_required', decision.message, { remaining_cents: decision.remainingCents, estimated_cost_cents: estimate });
      case 'create':
        break;
    }
    const created = job!;
    this.publish(created, null, 'queued', 'submitted');
    // Persisted first: if handing it to the backend fails, the recovery sweep hands it over later.
    await backend
      .submit(created, device)
      .catch((error: Error) => this.logger.error(`job ${created.id}: dispatch to ${device.id} failed (the sweep retries): ${error.message}`));
    return toSubmitResponse(created, false);
  }

  private async ownJob(ref: QpuJobRef): Promise<QpuJobRow> {
    const job = await this.jobs.findForOwner(ref.ownerId, ref.jobId);
    if (!job) throw new RpcError('not_found', `unknown job_id '${ref.jobId}'`);
    return job;
  }

  async status(ref: QpuJobRef): Promise<QpuJobDto> {
    const job = await this.ownJob(ref);
    const position = job.status === 'queued' ? await this.jobs.queuePosition(job) : undefined;
    return toJobDto(job, { counts: true, queuePosition: position });
  }

  /**
   * Every state change so far (what the job's event stream replays) and the status. The changes are read first,
   * so the status is at least as new: a terminal change listed here has its results in `job`.
   */
  async history(ref: QpuJobRef): Promise<QpuJobHistoryResponse> {
    await this.ownJob(ref);
    const events = await this.jobs.events(ref.jobId);
    const job = await this.status(ref);
    const transitions = events.map((e, i) => ({ seq: i + 1, from: e.from as QpuJobStatus | null, to: e.to as QpuJobStatus, at: e.at.toISOString() }));
    return { job, transitions };
  }

  async list(msg: QpuJobsListRequest): Promise<QpuJobDto[]> {
    return (await this.jobs.list(msg.ownerId, msg)).map((job) => toJobDto(job, { counts: false }));
  }

  async cancel(ref: QpuJobRef): Promise<QpuCancelResponse> {
    const job = await this.ownJob(ref);
    if (isTerminal(job.status))
      throw new RpcError('conflict', `job ${job.id} is already ${job.status}; only queued or running jobs can be cancelled`, { status: job.status });
    const result = await this.transition(job.id, 'cancelled', `cancelled by the owner while ${job.status}`);
    if (!result.applied) {
      // It ended between the read and the lock.
      const now = result.job?.status ?? job.status;
      throw new RpcError('conflict', `job ${job.id} is already ${now}; only queued or running jobs can be cancelled`, { status: now });
    }
    const found = this.backends.device(job.deviceId);
    if (found)
      await found.backend.cancel(result.job!, found.device).catch((error: Error) => this.logger.warn(`job ${job.id}: backend cancel failed: ${error.message}`));
    return { job_id: job.id, status: 'cancelled' };
  }

  /** An execution takes the job: queued → running (or a retry of a running job); anything else is not run. */
  async executionStart(msg: QpuExecutionStartRequest): Promise<QpuExecutionStartResponse> {
    const result = await this.transition(msg.jobId, 'running', `started on a simulation worker (attempt ${msg.attempt + 1})`);
    const job = result.job;
    if (!job) throw new RpcError('not_found', `unknown job ${msg.jobId}`);
    if (!result.applied) {
      if (job.status !== 'running') return { run: false, status: job.status };
      this.logger.warn(`job ${job.id}: execution restarted (attempt ${msg.attempt + 1}); the previous one did not report`);
    }
    return { run: true, deviceId: job.deviceId, shots: job.shots, seed: seedOfJob(job.id), compiled: job.compiled };
  }

  async executionComplete(msg: QpuExecutionCompleteRequest): Promise<QpuExecutionAck> {
    const total = Object.values(msg.counts).reduce((a, b) => a + b, 0);
    const job = await this.jobs.find(msg.jobId);
    if (!job) throw new RpcError('not_found', `unknown job ${msg.jobId}`);
    if (total !== job.shots) throw new RpcError('internal', `job ${job.id}: counts sum to ${total}, expected ${job.shots}`);
    const result = await this.transition(msg.jobId, 'completed', `completed (${msg.method}, ${Math.round(msg.elapsedMs)} ms)`, { counts: msg.counts });
    return { status: result.job?.status ?? 'failed', applied: result.applied };
  }

  async executionFail(msg: QpuExecutionFailRequest): Promise<QpuExecutionAck> {
    const result = await this.transition(msg.jobId, 'failed', 'execution failed', { error: msg.error });
    return { status: result.job?.status ?? 'failed', applied: result.applied };
  }

  /** Persists a transition (with its event) and, if it happened, publishes it. */
  async transition(jobId: string, to: QpuJobStatus, reason: string, patch: TransitionPatch = {}) {
    const result = await this.jobs.transition(jobId, to, reason, patch);
    if (result.applied && result.job) this.publish(result.job, result.from, to, reason);
    return result;
  }

  private publish(job: QpuJobRow, from: QpuJobStatus | null, to: QpuJobStatus, reason: string): void {
    const event: QpuJobStatusChangedEvent = { jobId: job.id, ownerId: job.ownerId, device: job.deviceId, from, to, reason, at: new Date().toISOString() };
    void this.events
      .publish(QpuEvents.jobStatusChanged, event)
      .catch((error: Error) => this.logger.warn(`could not publish ${job.id} → ${to}: ${error.message}`));
  }

  /**
   * Recovery (at boot and periodically): every queued or running job is asked of its backend; one the
   * backend lost is handed over again (idempotent by job id), one it dead-lettered is failed with its error.
   */
  async recover(): Promise<{ resubmitted: number; failed: number }> {
    let resubmitted = 0;
    let failed = 0;
    for (const job of await this.jobs.active()) {
      const found = this.backends.device(job.deviceId);
      if (!found) {
        if (
          (
            await this.transition(job.id, 'failed', 'device no longer configured', {
              error: `device ${job.deviceId} is not configured on this broker any more`,
            })
          ).applied
        )
          failed += 1;
        continue;
      }
      // SPEC §6: jobs of a device that is not online wait queued until it returns or until QDC_QPU_QUEUE_TIMEOUT.
      const deviceStatus = found.backend.capabilities.status(found.device);
      const waitedMs = Date.now() - job.submittedAt.getTime();
      if (job.status === 'queued' && deviceStatus !== 'online' && waitedMs > this.qpu.QDC_QPU_QUEUE_TIMEOUT) {
        const error = `device ${job.deviceId} is ${deviceStatus}; the job waited ${Math.round(waitedMs / 1000)} s in its queue, more than QDC_QPU_QUEUE_TIMEOUT (${this.qpu.QDC_QPU_QUEUE_TIMEOUT} ms)`;
        if ((await this.transition(job.id, 'failed', 'queue timeout', { error })).applied) {
          failed += 1;
          await found.backend.cancel(job, found.device).catch(() => undefined);
        }
        continue;
      }
      const poll = await found.backend.poll(job, found.device).catch((error: Error) => {
        this.logger.warn(`job ${job.id}: poll failed: ${error.message}`);
        return { state: 'pending' as const };
      });
      if (poll.state === 'lost') {
        await found.backend.submit(job, found.device);
        resubmitted += 1;
      } else if (poll.state === 'failed') {
        if ((await this.transition(job.id, 'failed', 'dead-lettered by its backend', { error: poll.error })).applied) failed += 1;
      }
    }
    await this.jobs.deleteIdempotencyKeysBefore(new Date(Date.now() - IDEMPOTENCY_WINDOW_MS));
    return { resubmitted, failed };
  }
}

/** Submit's answer (SPEC §4), the same for the first submission and its idempotent replays. */
function toSubmitResponse(job: QpuJobRow, replay: boolean): QpuSubmitResponse {
  return {
    job_id: job.id,
    status: 'submitted',
    backend: job.deviceId,
    shots: job.shots,
    estimated_cost_cents: job.estimatedCostCents,
    credits_applied: job.charge.creditsAppliedCents,
    overage_cents: job.charge.overageCents,
    idempotent_replay: replay,
  };
}

function toJobDto(job: QpuJobRow, options: { counts: boolean; queuePosition?: number }): QpuJobDto {
  return {
    job_id: job.id,
    status: job.status,
    device: job.deviceId,
    shots: job.shots,
    source_framework: job.sourceFramework,
    compiled: job.compiledStats,
    estimated_cost_cents: job.estimatedCostCents,
    cost_cents: job.costCents,
    // `results` is the vendor's name; `counts` stays as a deprecated alias for clients of earlier QDC versions.
    ...(options.counts && job.counts ? { results: job.counts, counts: job.counts } : {}),
    ...(job.error ? { error: job.error } : {}),
    ...(options.queuePosition !== undefined ? { queue_position: options.queuePosition } : {}),
    submitted_at: job.submittedAt.toISOString(),
    ...(job.startedAt ? { started_at: job.startedAt.toISOString() } : {}),
    ...(job.completedAt ? { completed_at: job.completedAt.toISOString() } : {}),
  };
}
