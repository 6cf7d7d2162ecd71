import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { QpuEstimateRequest, QpuRpc, QpuSubmitRequest, RpcError, type Principal } from '#qdc/contracts';
import type { RpcClient } from '#qdc/platform';
import { QpusService } from './qpus.service.js';

function newQpusService() {
  const rpc = { call: jest.fn(async (_contract: unknown, _payload: unknown, _options?: unknown): Promise<unknown> => ({ estimated_cost_cents: 1 })) };
  const sut = new QpusService(rpc as unknown as RpcClient);
  return { sut, mocks: { rpc } };
}

const caller = { ownerId: randomUUID(), keyId: 'k', scopes: ['coda'] } as Principal;
const BELL = 'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[2];\nh q[0];\ncx q[0],q[1];';
const valid = { code: BELL, backend: 'qdc-sim-line-5', shots: 100 };

/** What bench:fuzz sends in the body fields of submit/estimate-cost (bench/fuzz.ts qpuBody), crossed. */
const HOSTILE: Array<Record<string, unknown>> = [];
for (const backend of ['qdc-sim-line-5', '', '   ', 'x'.repeat(200), 'x'.repeat(201), 'x'.repeat(3000), '../../etc', null, 5]) {
  for (const hint of [undefined, null, '', 'x'.repeat(64), 'x'.repeat(65), 'x'.repeat(10_000), 7]) {
    for (const sourceFramework of ['qiskit', 'bogus', null, 5, 'q'.repeat(65)]) {
      HOSTILE.push({ ...valid, backend, source_framework: sourceFramework, ...(hint === undefined ? {} : { braket_execution_mode_hint: hint }) });
    }
  }
}
HOSTILE.push({ ...valid, code: 'x'.repeat(1024 * 1024 + 1) }, { ...valid, code: ` ${'x'.repeat(1024 * 1024)} ` }, { ...valid, shots: 2 ** 53 });

async function outcome(run: () => Promise<unknown>): Promise<'forwarded' | string> {
  try {
    await run();
    return 'forwarded';
  } catch (error) {
    if (error instanceof RpcError) return error.code;
    throw error;
  }
}

describe(QpusService.name, () => {
  describe('estimate', () => {
    it('refuses a braket_execution_mode_hint longer than the broker allows with 422 naming the limit, without asking the broker', async () => {
      const { sut, mocks } = newQpusService();
      const error = await sut.estimate(caller, { ...valid, braket_execution_mode_hint: 'x'.repeat(10_000) }, 'r').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RpcError);
      expect((error as RpcError).code).toBe('invalid_input');
      expect((error as RpcError).message).toBe('braket_execution_mode_hint must be at most 64 characters');
      expect(mocks.rpc.call).not.toHaveBeenCalled();
    });

    it('refuses a backend id longer than 200 characters with 422', async () => {
      const { sut } = newQpusService();
      const error = (await sut.estimate(caller, { ...valid, backend: 'x'.repeat(3000) }, 'r').catch((e: unknown) => e)) as RpcError;
      expect(error.code).toBe('invalid_input');
      expect(error.message).toBe('backend must be at most 200 characters (a device id from GET /qpus)');
    });

    it('forwards a valid body as the broker contract’s message', async () => {
      const { sut, mocks } = newQpusService();
      await sut.estimate(caller, { ...valid, braket_execution_mode_hint: 'x'.repeat(64) }, 'r');
      expect(mocks.rpc.call).toHaveBeenCalledWith(
        QpuRpc.estimate,
        { ownerId: caller.ownerId, job: { ...valid, braketExecutionModeHint: 'x'.repeat(64) } },
        { requestId: 'r' },
      );
    });

    it('every hostile body is either refused as invalid input or forwarded as a message the broker’s schema accepts', async () => {
      const { sut, mocks } = newQpusService();
      const outcomes = new Map<string, number>();
      for (const body of HOSTILE) {
        const result = await outcome(() => sut.estimate(caller, body, 'r'));
        outcomes.set(result, (outcomes.get(result) ?? 0) + 1);
      }
      expect([...outcomes.keys()].sort()).toEqual(['forwarded', 'invalid_input']);
      for (const [contract, payload] of mocks.rpc.call.mock.calls) {
        expect(contract).toBe(QpuRpc.estimate);
        expect(QpuEstimateRequest.safeParse(payload).error?.issues).toBeUndefined();
      }
      expect(mocks.rpc.call).toHaveBeenCalledTimes(outcomes.get('forwarded')!);
    });
  });

  describe('submit', () => {
    it('every hostile body is either refused as invalid input or forwarded as a message the broker’s schema accepts', async () => {
      const { sut, mocks } = newQpusService();
      for (const body of HOSTILE)
        expect(['forwarded', 'invalid_input']).toContain(await outcome(() => sut.submit(caller, { ...body, accept_overage: true }, undefined, 'r')));
      expect(mocks.rpc.call.mock.calls.length).toBeGreaterThan(0);
      for (const [, payload] of mocks.rpc.call.mock.calls) expect(QpuSubmitRequest.safeParse(payload).error?.issues).toBeUndefined();
    });
  });
});
