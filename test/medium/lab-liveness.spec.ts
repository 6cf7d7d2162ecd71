import type { ChildProcess } from 'node:child_process';
import { startSystem, type TestSystem } from './system.harness.js';
import { qpuClient } from './qpu.fixtures.js';
import { killHard, startNode, writeLabDevice } from './lab-node.fixtures.js';

/**
 * Device liveness shared by broker replicas: a node heartbeats rarely here (every 100 s), so a broker replica
 * started after the node registered has not seen one of its heartbeats; it must still list the device `online`
 * (from the liveness bucket the other replica wrote), and keep serving it once the first replica is gone.
 */
describe('lab device liveness across two broker replicas', () => {
  let sut: TestSystem;
  let node: ChildProcess;

  beforeAll(async () => {
    sut = await startSystem({ env: { QDC_LAB_OFFLINE_AFTER_MS: '300000' } });
  }, 120_000);

  afterAll(async () => {
    if (node) await killHard(node);
    await sut?.stop();
  });

  it('a second replica started after the last heartbeat lists the device online', async () => {
    const api = qpuClient(sut);
    const key = await sut.createKey('lab-user', 'coda');
    const status = async () => ((await api.get('/v0/coda/qpus', key)).body.devices as { id: string; status: string }[]).find((d) => d.id === 'lab-live')?.status;
    node = startNode(sut, 'live-node', ['--device', writeLabDevice({ id: 'lab-live', lab: 'lab-a', shotTimeUs: 100 }), '--simulate', '--node-id', 'live-1']);
    const deadline = Date.now() + 60_000;
    while ((await status()) !== 'online') {
      if (Date.now() > deadline) throw new Error(`device never online; logs in ${sut.logDir}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const second = sut.launch('qpu-broker-2', 'dist/apps/qpu-broker/src/main.js');
    await new Promise<void>((resolveReady, reject) => {
      let seen = '';
      const timer = setTimeout(() => reject(new Error(`second broker not ready; logs in ${sut.logDir}`)), 60_000);
      second.stdout?.on('data', (d) => {
        seen += String(d);
        if (/qpu-broker ready/.test(seen)) {
          clearTimeout(timer);
          resolveReady();
        }
      });
    });
    const first = sut.processes.get('qpu-broker')!;
    const exited = new Promise((r) => first.once('exit', r));
    first.kill('SIGTERM');
    await exited;
    // Only the second replica answers now; the node's next heartbeat is ~100 s away.
    expect(await status()).toBe('online');
  }, 180_000);
});
