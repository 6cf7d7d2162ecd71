import { Queue } from 'bullmq';
import { QueueName } from '#qdc/contracts';
import { killHard } from './lab-node.fixtures.js';
import { slowSimulationCircuit } from './qpu.fixtures.js';
import { startSystem, type TestSystem } from './system.harness.js';

/**
 * kill -9 of the simulation worker in the middle of a queued simulation (issue 18): the caller still gets the
 * result, from BullMQ's retry of the stalled job, once the job lock (QDC_JOB_LOCK_MS, 4 s here) lapses — not after
 * QDC_SIM_TIMEOUT_MS (the simulation used to block the event loop, so its lock had to outlast the longest one).
 */
describe('simulation worker killed mid-simulation', () => {
  let sut: TestSystem;
  let key: string;

  beforeAll(async () => {
    sut = await startSystem({ env: { QDC_JOB_LOCK_MS: '4000', QDC_SIM_INLINE_MAX_QUBITS: '0', QDC_SIM_TIMEOUT_MS: '90000' } });
    key = await sut.createKey('sim-kill-lab', 'coda');
  }, 120_000);
  afterAll(async () => {
    await sut?.stop();
  });

  it('answers the simulation from the retried job', async () => {
    const pending = fetch(`${sut.baseUrl}/v0/coda/tools/simulate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': 'sim-kill-1' },
      body: JSON.stringify({ code: slowSimulationCircuit(), method: 'qasm', shots: 32, seed_simulator: 11 }),
    });
    // Kill once the worker has the job (it is active in the simulation queue).
    const victim = sut.processes.get('simulation-worker')!;
    const queue = new Queue(QueueName.Simulation, {
      connection: { url: sut.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379' },
      prefix: `${sut.env['QDC_NAMESPACE']}:bull`,
    });
    try {
      for (const deadline = Date.now() + 30_000; (await queue.getActiveCount()) === 0; ) {
        if (Date.now() > deadline) throw new Error('the simulation worker never took the job');
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await queue.close();
    }
    await new Promise((r) => setTimeout(r, 500)); // into the simulation itself
    await killHard(victim);
    sut.launch('simulation-worker', 'dist/apps/qpu-broker/src/simulation-worker.js');

    const res = await pending;
    expect(res.status).toBe(200);
    const body = (await res.json()) as { counts: Record<string, number>; qubit_count?: number };
    expect(Object.values(body.counts).reduce((a, b) => a + b, 0)).toBe(32);
  }, 180_000);
});
