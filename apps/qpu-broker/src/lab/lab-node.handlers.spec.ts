import { jest } from '@jest/globals';
import { RpcError } from '#qdc/contracts';
import type { LabNodeBackendService } from '../backends/lab-node.backend.js';
import type { QpuJobsRepository } from '../jobs/qpu-jobs.repository.js';
import type { QpuJobsService } from '../jobs/qpu-jobs.service.js';
import { LabNodeHandlers } from './lab-node.handlers.js';

const JOB = '11111111-1111-4111-8111-111111111111';
const compiledBell = {
  numQubits: 2,
  numClbits: 2,
  qregs: [{ name: 'q', size: 2, offset: 0 }],
  cregs: [{ name: 'c', size: 2, offset: 0 }],
  ops: [],
  globalPhase: 0,
};

const asyncFn = () => jest.fn<(...args: unknown[]) => Promise<unknown>>();

function makeSut() {
  const mocks = {
    backend: { entry: jest.fn().mockReturnValue({ lab: 'lab-a', nodeId: 'node-1', device: { id: 'chip' } }) },
    repository: { find: asyncFn().mockResolvedValue({ id: JOB, deviceId: 'chip', shots: 10, compiled: compiledBell }) },
    jobs: {
      transition: asyncFn().mockResolvedValue({ applied: true, job: { id: JOB, status: 'running' } }),
      executionComplete: asyncFn().mockResolvedValue({ status: 'completed', applied: true }),
      executionFail: asyncFn().mockResolvedValue({ status: 'failed', applied: true }),
    },
  };
  const sut = new LabNodeHandlers(
    {} as never,
    mocks.backend as unknown as LabNodeBackendService,
    mocks.jobs as unknown as QpuJobsService,
    mocks.repository as unknown as QpuJobsRepository,
    { QDC_NAMESPACE: 'qdc' } as never,
    { QDC_LAB_ACK_WAIT_MS: 30_000, QDC_LAB_MAX_DELIVER: 5 } as never,
  );
  return { sut, mocks };
}

const base = { node_id: 'node-1', device_id: 'chip', job_id: JOB, delivery: 1 };

describe(LabNodeHandlers.name, () => {
  it('starts a job for the node that registered its device', async () => {
    const { sut, mocks } = makeSut();
    await expect(sut.report('lab-a', { ...base, type: 'running' })).resolves.toEqual({ status: 'running', run: true });
    expect(mocks.jobs.transition).toHaveBeenCalledWith(JOB, 'running', 'started on lab node node-1 (delivery 1)');
  });

  it('answers run: false for a job that already ended (a redelivery after the result was stored)', async () => {
    const { sut, mocks } = makeSut();
    mocks.jobs.transition.mockResolvedValue({ applied: false, job: { id: JOB, status: 'completed' } });
    await expect(sut.report('lab-a', { ...base, type: 'running', delivery: 2 })).resolves.toEqual({ status: 'completed', run: false });
  });

  it.each([
    ['another lab', 'lab-b', base, 'device chip belongs to lab lab-a'],
    ['another node', 'lab-a', { ...base, node_id: 'node-9' }, 'device chip is served by node node-1'],
  ])('refuses (forbidden) a report from %s and stores nothing', async (_what, lab, body, reason) => {
    const { sut, mocks } = makeSut();
    await expect(sut.report(lab, { ...body, type: 'failed', error: 'x' })).rejects.toEqual(new RpcError('forbidden', `report rejected: ${reason}`));
    expect(mocks.jobs.executionFail).not.toHaveBeenCalled();
  });

  it('refuses a report for a job of another device', async () => {
    const { sut, mocks } = makeSut();
    mocks.repository.find.mockResolvedValue({ id: JOB, deviceId: 'other', shots: 10, compiled: compiledBell });
    await expect(sut.report('lab-a', { ...base, type: 'completed', counts: { '00': 10 }, elapsed_ms: 1 })).rejects.toThrow(
      `report rejected: job ${JOB} is not a job of device chip`,
    );
    expect(mocks.jobs.executionComplete).not.toHaveBeenCalled();
  });

  it('stores completed counts re-keyed by the circuit, and refuses counts of the wrong total as invalid input', async () => {
    const { sut, mocks } = makeSut();
    await sut.report('lab-a', { ...base, type: 'completed', counts: { '00': 6, '11': 4 }, elapsed_ms: 12 });
    expect(mocks.jobs.executionComplete).toHaveBeenCalledWith({ jobId: JOB, counts: { '00': 6, '11': 4 }, method: 'lab node node-1', elapsedMs: 12 });
    await expect(sut.report('lab-a', { ...base, type: 'completed', counts: { '00': 6 }, elapsed_ms: 12 })).rejects.toEqual(
      new RpcError('invalid_input', `job ${JOB}: counts sum to 6, expected 10 shots`),
    );
  });

  it('refuses a malformed report with what was expected', async () => {
    const { sut } = makeSut();
    await expect(sut.report('lab-a', { ...base, type: 'finished' })).rejects.toThrow(/^report: type: /);
  });
});
