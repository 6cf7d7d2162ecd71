/**
 * `npm start` on a newcomer's machine: dependencies that are not answering are started from the
 * machine's own server binaries (and stopped again), or reported in one actionable line each —
 * and then no QDC service starts. Runs the built start script as a process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { freePort } from './system.harness.js';

const root = process.cwd();

function portOpen(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function runStart(env: Record<string, string>): Run {
  let output = '';
  const child = spawn(process.execPath, [resolve(root, 'dist/scripts/start.js')], {
    cwd: root,
    env: { ...(process.env as Record<string, string>), HOST: '127.0.0.1', QDC_HEALTH_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, output: () => output, exited };
}

async function waitFor(predicate: () => boolean, timeoutMs: number, what: string, run: Run): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; output so far:\n${run.output()}`);
    if (run.child.exitCode !== null) throw new Error(`start exited (${run.child.exitCode}) before ${what}:\n${run.output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Lines of a QDC service (prefixed `[name]`) in the start script's output. */
const serviceLines = (output: string): string[] => output.split('\n').filter((line) => /^\[[a-z-]+\s*\d*\s*\]/.test(line));

describe('npm start (scripts/start.ts)', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'qdc-start-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('names each missing server with the fix, exits non-zero and starts no QDC service', async () => {
    const [redisPort, natsPort] = [await freePort(), await freePort()];
    const run = runStart({
      QDC_DATA_DIR: dataDir,
      QDC_DEPENDENCY_BIN_PATH: '', // as on a machine without the server binaries
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      NATS_URL: `nats://127.0.0.1:${natsPort}`,
    });
    expect(await run.exited).toBe(1);
    const lines = run.output().trim().split('\n');
    expect(lines).toEqual([
      `missing: Redis is not answering at redis://127.0.0.1:${redisPort} and its server is not installed: sudo apt-get install -y redis-server (macOS: brew install redis), or run it in a container: docker compose up -d postgres redis nats (README, "If a server is missing")`,
      `missing: NATS (JetStream) is not answering at nats://127.0.0.1:${natsPort} and its server is not installed: sudo apt-get install -y nats-server (macOS: brew install nats-server), or run it in a container: docker compose up -d postgres redis nats (README, "If a server is missing")`,
      'no QDC service was started',
    ]);
  });

  it('refuses an unknown QDC_START_MODE before starting anything', async () => {
    const run = runStart({ QDC_DATA_DIR: dataDir, QDC_START_MODE: 'both', QDC_START_DEPENDENCIES: 'false' });
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain('start failed: QDC_START_MODE must be single or split, not "both"');
  });

  it('with QDC_START_DEPENDENCIES=false it only reports, and says a server on another host is not its to start', async () => {
    const natsPort = await freePort();
    const run = runStart({
      QDC_DATA_DIR: dataDir,
      QDC_START_DEPENDENCIES: 'false',
      NATS_URL: `nats://127.0.0.1:${natsPort}`,
      REDIS_URL: 'redis://192.0.2.1:6379', // TEST-NET-1: never answers
    });
    expect(await run.exited).toBe(1);
    const output = run.output();
    expect(output).toContain(`missing: Redis is not answering at redis://192.0.2.1:6379 (`);
    expect(output).toContain('it is not on this machine, so start it there or fix the URL');
    expect(output).toContain(`missing: NATS (JetStream) is not answering at nats://127.0.0.1:${natsPort} (connection refused); start it`);
    expect(serviceLines(output)).toEqual([]);
    expect(await portOpen(natsPort)).toBe(false);
  });

  it('says so when NATS answers without JetStream', async () => {
    const natsPort = await freePort();
    const nats = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(natsPort)], { stdio: 'ignore' });
    try {
      for (let i = 0; i < 50 && !(await portOpen(natsPort)); i++) await new Promise((r) => setTimeout(r, 100));
      const run = runStart({ QDC_DATA_DIR: dataDir, NATS_URL: `nats://127.0.0.1:${natsPort}` });
      expect(await run.exited).toBe(1);
      expect(run.output()).toContain(`missing: NATS (JetStream) at nats://127.0.0.1:${natsPort} answers but cannot be used: JetStream is not enabled`);
      expect(run.output()).toContain('restart nats-server with -js');
      expect(serviceLines(run.output())).toEqual([]);
    } finally {
      nats.kill('SIGKILL');
    }
  });

  // The split mode (one process per service); the single-process mode, npm start's default, is single-process.spec.ts.
  it('starts Redis and NATS from the installed binaries, brings QDC up in the split mode, and stops both on exit', async () => {
    const [redisPort, natsPort, httpPort] = [await freePort(), await freePort(), await freePort()];
    const id = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
    const run = runStart({
      QDC_DATA_DIR: dataDir,
      QDC_START_MODE: 'split',
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      NATS_URL: `nats://127.0.0.1:${natsPort}`,
      PORT: String(httpPort),
      QDC_NAMESPACE: `s${id}`,
      DATABASE_URL: `postgresql://root@127.0.0.1:5432/qdc_start_${id}`,
    });
    try {
      await waitFor(() => run.output().includes('QDC is up'), 150_000, '"QDC is up"', run);
      const output = run.output();
      expect(output).toContain(`started Redis at redis://127.0.0.1:${redisPort} (stopped again when QDC stops)`);
      expect(output).toContain(`started NATS (JetStream) at nats://127.0.0.1:${natsPort} (stopped again when QDC stops)`);
      expect(output).toContain(`QDC is up: http://127.0.0.1:${httpPort}`);
      // Each service its own process, its lines prefixed with its name.
      for (const service of ['results', 'worker-0', 'qpu-broker', 'simulation-worker', 'lab-streams', 'assistant', 'gateway'])
        expect(serviceLines(output).some((line) => line.startsWith(`[${service}`))).toBe(true);
      expect(await portOpen(redisPort)).toBe(true);
      expect(await portOpen(natsPort)).toBe(true);
    } finally {
      run.child.kill('SIGINT');
      await run.exited;
    }
    expect(await portOpen(redisPort)).toBe(false);
    expect(await portOpen(natsPort)).toBe(false);
    const admin = new pg.Client({ connectionString: 'postgresql://root@127.0.0.1:5432/postgres' });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS qdc_start_${id}`).finally(() => admin.end());
  });
});
