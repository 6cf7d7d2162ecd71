import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import { startSystem, type TestSystem } from './system.harness.js';
import { BELL_QISKIT, qpuClient } from './qpu.fixtures.js';
import { killHard, startNode, writeLabDevice } from './lab-node.fixtures.js';

/**
 * Lab nodes without `--simulate`: the executor named in the device file gets the job's NativeGateIR and
 * answers counts — the shipped example command (examples/lab-node/executor.py), a command that fails, and an
 * HTTP endpoint.
 */
describe('lab node executors (command and HTTP)', () => {
  let sut: TestSystem;
  let api: ReturnType<typeof qpuClient>;
  let key: string;
  let http: Server;
  const bodies: unknown[] = [];
  const nodes: ChildProcess[] = [];

  const run = async (deviceId: string, executor: unknown, shots: number) => {
    const device = writeLabDevice({ id: deviceId, lab: 'lab-x', shotTimeUs: 0, executor });
    nodes.push(startNode(sut, deviceId, ['--device', device, '--node-id', `${deviceId}-node`]));
    const deadline = Date.now() + 30_000;
    while (!((await api.get('/v0/coda/qpus', key)).body.devices as { id: string; status: string }[]).some((d) => d.id === deviceId && d.status === 'online')) {
      if (Date.now() > deadline) throw new Error(`${deviceId} never online; logs in ${sut.logDir}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const res = await api.post('/v0/coda/qpus', key, { code: BELL_QISKIT, source_framework: 'qiskit', backend: deviceId, shots });
    return api.waitFor(key, res.body.job_id, (s) => s === 'completed' || s === 'failed', 60_000);
  };

  beforeAll(async () => {
    sut = await startSystem();
    api = qpuClient(sut);
    key = await sut.createKey('executor-user', 'coda');
    http = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        const ir = JSON.parse(body) as { shots: number };
        bodies.push({ ir, jobId: req.headers['x-qdc-job-id'] });
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ counts: { '00': ir.shots - 1, '11': 1 } }));
      });
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  }, 120_000);

  afterAll(async () => {
    for (const n of nodes) await killHard(n);
    http?.close();
    await sut?.stop();
  });

  it('runs the shipped example executor (a command reading NativeGateIR on stdin) to Bell counts', async () => {
    const done = await run('exec-example', { command: ['python3', resolve('examples/lab-node/executor.py')] }, 400);
    expect(done.status).toBe('completed');
    expect(Object.keys(done.counts).sort()).toEqual(['00', '11']);
    expect(done.counts['00'] + done.counts['11']).toBe(400);
  }, 60_000);

  it('fails the job with the executor’s own message when the command exits non-zero', async () => {
    const done = await run('exec-broken', { command: ['python3', '-c', 'import sys; sys.stderr.write("fridge is warm"); sys.exit(3)'] }, 10);
    expect(done).toMatchObject({
      status: 'failed',
      cost_cents: 0,
      error: 'lab device exec-broken (node exec-broken-node): executor exited with code 3: fridge is warm',
    });
  }, 60_000);

  it('POSTs NativeGateIR to an HTTP executor and stores its counts', async () => {
    const port = (http.address() as { port: number }).port;
    const done = await run('exec-http', { url: `http://127.0.0.1:${port}/run` }, 50);
    expect(done).toMatchObject({ status: 'completed', counts: { '00': 49, '11': 1 } });
    expect(bodies).toEqual([
      {
        jobId: done.job_id,
        ir: expect.objectContaining({
          version: 1,
          num_qubits: 2,
          num_clbits: 2,
          shots: 50,
          measurements: [
            { qubit: expect.any(Number), clbit: 0 },
            { qubit: expect.any(Number), clbit: 1 },
          ],
        }),
      },
    ]);
  }, 60_000);
});
