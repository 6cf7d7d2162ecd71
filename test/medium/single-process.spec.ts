/**
 * `npm start`'s default, the single-process mode (apps/all-in-one): every service in the start script's own Node
 * process, over the same NATS subjects and BullMQ queues as the split mode. A smoke test: a model run and a circuit
 * tool call round trip through the gateway, one set of metric series, logs that say which service wrote them, and
 * SIGTERM drains everything and exits 0. (The other medium specs run the split mode: system.harness.ts.)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { encodeNpy } from '#qdc/arrays';
import { generateCoulombPeakTrace } from '#qdc/device-physics';
import { freePort, multipart } from './system.harness.js';

const root = process.cwd();
const BELL_QISKIT = 'from qiskit import QuantumCircuit\nqc = QuantumCircuit(2, 2)\nqc.h(0)\nqc.cx(0, 1)\nqc.measure([0, 1], [0, 1])\n';

describe('npm start in the single-process mode (its default)', () => {
  it('serves a model run and a circuit tool call from one process, and SIGTERM exits 0', async () => {
    const id = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'qdc-single-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let output = '';
    const child = spawn(process.execPath, [resolve(root, 'dist/scripts/start.js')], {
      cwd: root,
      env: {
        ...(process.env as Record<string, string>),
        QDC_START_MODE: '', // unset: the default
        QDC_START_DEPENDENCIES: 'false', // the machine's Postgres, Redis and NATS
        QDC_DATA_DIR: dataDir,
        QDC_HEALTH_PORT: '0',
        QDC_NAMESPACE: `o${id}`,
        DATABASE_URL: `postgresql://root@127.0.0.1:5432/qdc_single_${id}`,
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'log',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    try {
      const deadline = Date.now() + 90_000;
      while (!output.includes('QDC is up')) {
        if (child.exitCode !== null) throw new Error(`start exited (${child.exitCode}):\n${output}`);
        if (Date.now() > deadline) throw new Error(`not up in 90 s:\n${output}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      // One Node process: the start script runs every service itself (the development key's CLI has exited).
      expect(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim()).toBe('');
      const auth = { authorization: `Bearer ${readFileSync(join(dataDir, 'dev-key'), 'utf8').trim()}` };

      // gateway → results (key) → inference queue → worker → results → gateway.
      const trace = Float64Array.from(generateCoulombPeakTrace(7, { length: 128 }).trace);
      const run = await fetch(`${base}/v0/models`, {
        method: 'POST',
        headers: auth,
        body: multipart({ model: 'coulomb-blockade-peak-detector-v2' }, { name: 'trace.npy', bytes: encodeNpy({ shape: [128], data: trace }) }),
      });
      expect(run.status).toBe(200);
      const result = (await run.json()) as { id: string; output: { peak_indices: number[] } };
      expect(result.output.peak_indices.length).toBeGreaterThan(0);
      const stored = await fetch(`${base}/v0/model-results/${result.id}`, { headers: auth });
      expect(stored.status).toBe(200);
      expect(((await stored.json()) as { output: unknown }).output).toEqual(result.output);

      // gateway → qpu-broker over NATS (a seeded simulation).
      const sim = await fetch(`${base}/v0/coda/tools/simulate`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ code: BELL_QISKIT, shots: 500, seed_simulator: 42 }),
      });
      expect(sim.status).toBe(200);
      const counts = ((await sim.json()) as { counts: Record<string, number> }).counts;
      expect(Object.keys(counts).sort()).toEqual(['00', '11']);
      expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(500);

      // One process, one set of series: the process metrics once, labelled as the whole process.
      const metrics = await (await fetch(`${base}/metrics`)).text();
      expect(metrics.split('\n').filter((line) => line.startsWith('qdc_process_resident_memory_bytes'))).toEqual([
        expect.stringMatching(/^qdc_process_resident_memory_bytes\{service="all-in-one"\} \d+/),
      ]);
      // Each log line says which service wrote it.
      for (const service of ['results', 'inference-worker', 'qpu-broker', 'simulation-worker', 'lab-streams', 'assistant', 'gateway'])
        expect(output).toMatch(new RegExp(`^\\S+ INFO  ${service} \\[`, 'm'));
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(output).toContain('stopping: draining every service');
    rmSync(dataDir, { recursive: true, force: true });
    const admin = new pg.Client({ connectionString: 'postgresql://root@127.0.0.1:5432/postgres' });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS qdc_single_${id} WITH (FORCE)`).finally(() => admin.end());
  }, 120_000);
});
