import { jest } from '@jest/globals';
import { CircuitError } from '#qdc/circuits';
import { QpuEvents, RpcError, type QpuJobStatus } from '#qdc/contracts';
import type { EventBus } from '#qdc/platform';
import type { BackendRegistry } from '../backends/backend-registry.js';
import type { QpuBackend } from '../backends/qpu-backend.js';
import type { DeviceFile } from '../devices/device-file.js';
import type { DeviceToolchain } from '../devices/device-toolchain.js';
import type { QpuJobRow, QpuJobsRepository } from './qpu-jobs.repository.js';
import { QpuJobsService, seedOfJob } from './qpu-jobs.service.js';
import type { SubmissionDecision } from './submission-decision.js';

const device: DeviceFile = {
  id: 'line-3',
  name: 'Line 3',
  provider: 'qdc-sim',
  num_qubits: 3,
  native_gates: ['rz', 'sx', 'x', 'cz'],
  coupling_map: [
    [0, 1],
    [1, 2],
  ],
  status: 'online',
  pricing: { per_task_cents: 30, per_shot_cents: 0.1 },
  max_shots: 1000,
  shot_time_us: 10,
};
const OWNER = '00000000-0000-4000-8000-000000000001';
const JOB = '00000000-0000-4000-8000-0000000000aa';
const stats = { native_gate_count: 5, two_qubit_gate_count: 1, swap_count: 0, depth: 4 };

const row = (over: Partial<QpuJobRow> = {}): QpuJobRow => ({
  id: JOB,
  ownerId: OWNER,
  deviceId: 'line-3',
  status: 'queued',
  source: 'code',
  sourceFramework: 'qiskit',
  shots: 100,
  compiled: { circuit: 'native' },
  compiledStats: stats,
  estimatedCostCents: 40,
  charge: { creditsAppliedCents: 40, overageCents: 0 },
  costCents: null,
  counts: null,
  error: null,
  backendJobId: null,
  submittedAt: new Date('2026-11-25T12:00:00Z'),
  startedAt: null,
  completedAt: null,
  ...over,
});

function factory() {
  const backend = {
    capabilities: { kind: 'simulated' as const, provider: 'qdc-sim', status: jest.fn((): 'online' | 'offline' => 'online') },
    submit: jest.fn(async () => undefined),
    poll: jest.fn(async () => ({ state: 'pending' as const })),
    cancel: jest.fn(async () => undefined),
  };
  const repository = {
    submit: jest.fn(),
    transition: jest.fn(),
    find: jest.fn(async () => row()),
    findForOwner: jest.fn(async () => row()),
    queuePosition: jest.fn(async () => 1),
    queueDepths: jest.fn(async () => new Map([['line-3', 2]])),
    active: jest.fn(async () => [] as QpuJobRow[]),
    budget: jest.fn(async () => ({ budgetCents: null, spentCents: 0, reservedCents: 0 })),
    deleteIdempotencyKeysBefore: jest.fn(async () => 0),
  };
  const registry = {
    device: jest.fn((id: string) => (id === 'line-3' ? { device, backend } : undefined)),
    devices: jest.fn(() => [{ device, backend }]),
  };
  const toolchain = {
    compile: jest.fn(() => ({ sourceFramework: 'qiskit', circuit: { circuit: 'native' }, initialLayout: [0, 1], finalLayout: [0, 1], stats })),
  };
  const nats = { publish: jest.fn(async () => undefined) };
  const sut = new QpuJobsService(
    repository as unknown as QpuJobsRepository,
    registry as unknown as BackendRegistry,
    toolchain as unknown as DeviceToolchain,
    nats as unknown as EventBus,
    {
      QDC_QPU_QUEUE_TIMEOUT: 60_000,
    },
  );
  return { sut, mocks: { backend: backend as unknown as QpuBackend & typeof backend, repository, registry, toolchain, nats } };
}

const spec = { code: 'from qiskit import QuantumCircuit', sourceFramework: 'qiskit', backend: 'line-3', shots: 100 };
const submitWith = (decision: SubmissionDecision, job: QpuJobRow | null = row()) => ({ decision, job });
const transitioned = (applied: boolean, from: QpuJobStatus | null, status: QpuJobStatus) => ({ applied, from, job: row({ status }) });

describe(QpuJobsService.name, () => {
  describe('submit', () => {
    it('persists, publishes the first event, then hands the job to its backend', async () => {
      const { sut, mocks } = factory();
      const charge = { creditsAppliedCents: 40, overageCents: 0 };
      mocks.repository.submit.mockResolvedValue(submitWith({ kind: 'create', replacesExpiredKey: false, charge }) as never);
      await expect(sut.submit({ ownerId: OWNER, job: spec, acceptOverage: false, idempotencyKey: 'k' })).resolves.toEqual({
        job_id: JOB,
        status: 'submitted',
        backend: 'line-3',
        shots: 100,
        estimated_cost_cents: 40,
        credits_applied: 40,
        overage_cents: 0,
        idempotent_replay: false,
      });
      const [newJob, idempotency, acceptOverage] = mocks.repository.submit.mock.calls[0] as unknown as [
        { estimatedCostCents: number; deviceId: string },
        { key: string; bodyHash: string },
        boolean,
      ];
      expect([newJob.estimatedCostCents, newJob.deviceId, idempotency.key, idempotency.bodyHash.length, acceptOverage]).toEqual([40, 'line-3', 'k', 64, false]);
      expect(mocks.nats.publish).toHaveBeenCalledWith(QpuEvents.jobStatusChanged, expect.objectContaining({ jobId: JOB, from: null, to: 'queued' }));
      expect(mocks.backend.submit).toHaveBeenCalledTimes(1);
    });

    it('acknowledges a persisted job even when the hand-over fails (the sweep hands it over later)', async () => {
      const { sut, mocks } = factory();
      const charge = { creditsAppliedCents: 40, overageCents: 0 };
      mocks.repository.submit.mockResolvedValue(submitWith({ kind: 'create', replacesExpiredKey: false, charge }) as never);
      mocks.backend.submit.mockRejectedValue(new Error('redis down') as never);
      await expect(sut.submit({ ownerId: OWNER, job: spec, acceptOverage: false })).resolves.toMatchObject({ job_id: JOB, status: 'submitted' });
    });

    it('returns the first job for a replayed key without publishing or dispatching again', async () => {
      const { sut, mocks } = factory();
      mocks.repository.submit.mockResolvedValue(submitWith({ kind: 'replay', jobId: JOB }, null) as never);
      mocks.repository.find.mockResolvedValue(row({ status: 'completed', charge: { creditsAppliedCents: 25, overageCents: 15 } }));
      // What the first submission answered (its charge as stored), whatever the job's status is now.
      await expect(sut.submit({ ownerId: OWNER, job: spec, acceptOverage: false, idempotencyKey: 'k' })).resolves.toEqual({
        job_id: JOB,
        status: 'submitted',
        backend: 'line-3',
        shots: 100,
        estimated_cost_cents: 40,
        credits_applied: 25,
        overage_cents: 15,
        idempotent_replay: true,
      });
      expect(mocks.backend.submit).not.toHaveBeenCalled();
      expect(mocks.nats.publish).not.toHaveBeenCalled();
    });

    it('maps a key conflict to 409 and an over-budget job to 402', async () => {
      const { sut, mocks } = factory();
      mocks.repository.submit.mockResolvedValueOnce(submitWith({ kind: 'conflict', message: 'different body' }, null) as never);
      await expect(sut.submit({ ownerId: OWNER, job: spec, acceptOverage: false, idempotencyKey: 'k' })).rejects.toMatchObject({ code: 'conflict' });
      mocks.repository.submit.mockResolvedValueOnce(submitWith({ kind: 'over-budget', message: 'too much', remainingCents: 3 }, null) as never);
      await expect(sut.submit({ ownerId: OWNER, job: spec, acceptOverage: false })).rejects.toMatchObject({
        code: 'payment_required',
        details: { remaining_cents: 3, estimated_cost_cents: 40 },
      });
      expect(mocks.backend.submit).not.toHaveBeenCalled();
    });

    it('refuses unknown devices (404), too many shots, circuit errors and a wrong source_framework (422) before persisting', async () => {
      const { sut, mocks } = factory();
      await expect(sut.submit({ ownerId: OWNER, job: { ...spec, backend: 'nope' }, acceptOverage: false })).rejects.toMatchObject({
        code: 'not_found',
        message: expect.stringMatching(/available devices: line-3/),
      });
      await expect(sut.submit({ ownerId: OWNER, job: { ...spec, shots: 1001 }, acceptOverage: false })).rejects.toMatchObject({ code: 'invalid_input' });
      await expect(sut.submit({ ownerId: OWNER, job: { ...spec, sourceFramework: 'cirq' }, acceptOverage: false })).rejects.toMatchObject({
        code: 'invalid_input',
        message: expect.stringMatching(/is qiskit/),
      });
      mocks.toolchain.compile.mockImplementation(() => {
        throw new CircuitError('syntax', 'unknown gate foo', 4);
      });
      await expect(sut.submit({ ownerId: OWNER, job: spec, acceptOverage: false })).rejects.toMatchObject({ code: 'invalid_input', details: { line: 4 } });
      expect(mocks.repository.submit).not.toHaveBeenCalled();
    });
  });

  describe('cancel', () => {
    it('cancels a queued job, then asks the backend to drop it', async () => {
      const { sut, mocks } = factory();
      mocks.repository.transition.mockResolvedValue(transitioned(true, 'queued', 'cancelled') as never);
      await expect(sut.cancel({ ownerId: OWNER, jobId: JOB })).resolves.toEqual({ job_id: JOB, status: 'cancelled' });
      expect(mocks.repository.transition).toHaveBeenCalledWith(JOB, 'cancelled', 'cancelled by the owner while queued', {});
      expect(mocks.backend.cancel).toHaveBeenCalledTimes(1);
    });

    it('answers 409 for a finished job and 404 for another owner’s', async () => {
      const { sut, mocks } = factory();
      mocks.repository.findForOwner.mockResolvedValueOnce(row({ status: 'completed' }));
      await expect(sut.cancel({ ownerId: OWNER, jobId: JOB })).rejects.toMatchObject({ code: 'conflict' });
      mocks.repository.findForOwner.mockResolvedValueOnce(null as never);
      await expect(sut.cancel({ ownerId: OWNER, jobId: JOB })).rejects.toBeInstanceOf(RpcError);
      expect(mocks.repository.transition).not.toHaveBeenCalled();
    });

    it('answers 409 when the job ended between the read and the lock', async () => {
      const { sut, mocks } = factory();
      mocks.repository.transition.mockResolvedValue(transitioned(false, 'running', 'completed') as never);
      await expect(sut.cancel({ ownerId: OWNER, jobId: JOB })).rejects.toMatchObject({ code: 'conflict', message: expect.stringMatching(/already completed/) });
      expect(mocks.backend.cancel).not.toHaveBeenCalled();
    });
  });

  describe('executions', () => {
    it('starts a queued job (queued → running) with a seed derived from its id', async () => {
      const { sut, mocks } = factory();
      mocks.repository.transition.mockResolvedValue(transitioned(true, 'queued', 'running') as never);
      await expect(sut.executionStart({ jobId: JOB, attempt: 0 })).resolves.toEqual({
        run: true,
        deviceId: 'line-3',
        shots: 100,
        seed: seedOfJob(JOB),
        compiled: { circuit: 'native' },
      });
    });

    it('re-runs a running job (a retry after a crash) without a new transition, and never runs a cancelled one', async () => {
      const { sut, mocks } = factory();
      mocks.repository.transition.mockResolvedValueOnce(transitioned(false, 'running', 'running') as never);
      await expect(sut.executionStart({ jobId: JOB, attempt: 1 })).resolves.toMatchObject({ run: true });
      mocks.repository.transition.mockResolvedValueOnce(transitioned(false, 'cancelled', 'cancelled') as never);
      await expect(sut.executionStart({ jobId: JOB, attempt: 0 })).resolves.toEqual({ run: false, status: 'cancelled' });
      mocks.repository.transition.mockResolvedValueOnce({ applied: false, from: null, job: null } as never);
      await expect(sut.executionStart({ jobId: JOB, attempt: 0 })).rejects.toMatchObject({ code: 'not_found' });
      expect(mocks.nats.publish).not.toHaveBeenCalled();
    });

    it('stores counts that sum to the shots and refuses others', async () => {
      const { sut, mocks } = factory();
      mocks.repository.find.mockResolvedValue(row({ status: 'running' }));
      mocks.repository.transition.mockResolvedValue(transitioned(true, 'running', 'completed') as never);
      await expect(sut.executionComplete({ jobId: JOB, counts: { '00': 60, '11': 40 }, method: 'density-matrix', elapsedMs: 3 })).resolves.toEqual({
        status: 'completed',
        applied: true,
      });
      await expect(sut.executionComplete({ jobId: JOB, counts: { '00': 60 }, method: 'density-matrix', elapsedMs: 3 })).rejects.toMatchObject({
        code: 'internal',
      });
      expect(mocks.repository.transition).toHaveBeenCalledTimes(1);
    });
  });

  describe('recover', () => {
    it('hands lost jobs over again, fails dead-lettered ones and jobs of devices no longer configured', async () => {
      const { sut, mocks } = factory();
      const lost = row({ id: '00000000-0000-4000-8000-0000000000b1' });
      const dead = row({ id: '00000000-0000-4000-8000-0000000000b2', status: 'running' });
      const pending = row({ id: '00000000-0000-4000-8000-0000000000b3' });
      const orphan = row({ id: '00000000-0000-4000-8000-0000000000b4', deviceId: 'gone' });
      mocks.repository.active.mockResolvedValue([lost, dead, pending, orphan]);
      mocks.backend.poll.mockImplementation((async (job: QpuJobRow) =>
        job === lost ? { state: 'lost' } : job === dead ? { state: 'failed', error: 'exhausted' } : { state: 'pending' }) as never);
      mocks.repository.transition.mockResolvedValue(transitioned(true, 'running', 'failed') as never);
      await expect(sut.recover()).resolves.toEqual({ resubmitted: 1, failed: 2 });
      expect(mocks.backend.submit).toHaveBeenCalledWith(lost, device);
      expect(mocks.repository.transition).toHaveBeenCalledWith(dead.id, 'failed', 'dead-lettered by its backend', { error: 'exhausted' });
      expect(mocks.repository.transition).toHaveBeenCalledWith(orphan.id, 'failed', 'device no longer configured', { error: expect.stringMatching(/gone/) });
      expect(mocks.repository.deleteIdempotencyKeysBefore).toHaveBeenCalledTimes(1);
    });

    it('fails a job queued longer than QDC_QPU_QUEUE_TIMEOUT for an offline device, and only that one', async () => {
      const { sut, mocks } = factory();
      const old = row({ id: '00000000-0000-4000-8000-0000000000c1', submittedAt: new Date(Date.now() - 61_000) });
      const young = row({ id: '00000000-0000-4000-8000-0000000000c2', submittedAt: new Date(Date.now() - 10_000) });
      const oldRunning = row({ id: '00000000-0000-4000-8000-0000000000c3', status: 'running', submittedAt: new Date(Date.now() - 61_000) });
      mocks.repository.active.mockResolvedValue([old, young, oldRunning]);
      mocks.backend.capabilities.status.mockReturnValue('offline');
      mocks.repository.transition.mockResolvedValue(transitioned(true, 'queued', 'failed') as never);
      await expect(sut.recover()).resolves.toEqual({ resubmitted: 0, failed: 1 });
      expect(mocks.repository.transition).toHaveBeenCalledTimes(1);
      expect(mocks.repository.transition).toHaveBeenCalledWith(old.id, 'failed', 'queue timeout', {
        error: 'device line-3 is offline; the job waited 61 s in its queue, more than QDC_QPU_QUEUE_TIMEOUT (60000 ms)',
      });
      expect(mocks.backend.cancel).toHaveBeenCalledWith(old, device);
    });

    it('lets a job wait past the timeout while its device is online (a long queue is not a dead device)', async () => {
      const { sut, mocks } = factory();
      mocks.repository.active.mockResolvedValue([row({ submittedAt: new Date(Date.now() - 3_600_000) })]);
      await expect(sut.recover()).resolves.toEqual({ resubmitted: 0, failed: 0 });
      expect(mocks.repository.transition).not.toHaveBeenCalled();
    });
  });
});
