import { Queue } from 'bullmq';
import { QueueName } from '#qdc/contracts';
import { killHard } from './lab-node.fixtures.js';
import { slowSimulationCircuit } from './qpu.fixtures.js';
import { startSystem, type TestSystem } from './system.harness.js';

/**
 * kill -9 of the qpu-broker while it waits for a queued simulation (issue 18): the caller is not left waiting for
 * QDC_SIM_TIMEOUT_MS (2 min here; the test's own limit is 1 min) — the broker's heartbeats stop, the gateway answers
 * 503 + Retry-After — and the retry with the same request id, once the broker is back, gets the simulation's result.
 */
describe('qpu-broker killed while a simulation is queued', () => {
  let sut: TestSystem;
  let key: string;

  beforeAll(async () => {
    sut = await startSystem({ env: { QDC_SIM_INLINE_MAX_QUBITS: '0', QDC_SIM_TIMEOUT_MS: '120000' } });
    key = await sut.createKey('broker-kill-lab', 'coda');
  }, 120_000);
  afterAll(async () => {
    await sut?.stop();
  });

  const simulate = () =>
    fetch(`${sut.baseUrl}/v0/coda/tools/simulate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': 'broker-kill-1' },
      body: JSON.stringify({ code: slowSimulationCircuit(), method: 'qasm', shots: 32, seed_simulator: 5 }),
    });

  it('answers 503 + Retry-After soon after the broker dies, and the retry gets the result', async () => {
    const pending = simulate();
    const queue = new Queue(QueueName.Simulation, {
      connection: { url: sut.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379' },
      prefix: `${sut.env['QDC_NAMESPACE']}:bull`,
    });
    try {
      for (const deadline = Date.now() + 30_000; (await queue.getActiveCount()) === 0; ) {
        if (Date.now() > deadline) throw new Error('the simulation never started');
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await queue.close();
    }
    const broker = sut.processes.get('qpu-broker')!;
    await killHard(broker);

    const res = await pending;
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(await res.json()).toMatchObject({ success: false, detail: 'Service Unavailable' });

    sut.launch('qpu-broker', 'dist/apps/qpu-broker/src/main.js');
    for (const deadline = Date.now() + 60_000; ; ) {
      const retry = await simulate();
      if (retry.status === 200) {
        const body = (await retry.json()) as { counts: Record<string, number> };
        expect(Object.values(body.counts).reduce((a, b) => a + b, 0)).toBe(32);
        break;
      }
      expect(retry.status).toBe(503); // the broker still starting
      if (Date.now() > deadline) throw new Error('the broker did not come back');
      await new Promise((r) => setTimeout(r, 500));
    }
  }, 60_000);
});
