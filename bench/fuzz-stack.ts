/**
 * The local stack bench:fuzz runs against: every service as its own process (SERVICE_PROCESSES, as `npm start` and
 * the medium-test harness launch them) against the local Postgres, Redis and NATS, in a fresh database and
 * namespace. Like test/medium/system.harness.ts, with a readiness wait long enough for a loaded machine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { SERVICE_PROCESSES, applyMigrations, ensureDatabase, replicaNames } from '#qdc/platform';

export interface FuzzStack {
  baseUrl: string;
  logDir: string;
  processes: Map<string, ChildProcess>;
  createKey(owner: string, scopes: string): Promise<string>;
  stop(): Promise<void>;
}

const root = process.cwd();

function freePort(): Promise<number> {
  return new Promise((done, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
    server.on('error', reject);
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });
}

export async function startStack(extraEnv: Record<string, string>, readyTimeoutMs = 300_000): Promise<FuzzStack> {
  const id = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const namespace = `fuzz${id}`;
  const database = `qdc_fuzz_${id}`;
  const databaseUrl = `postgresql://root@127.0.0.1:5432/${database}`;
  const port = await freePort();
  const logDir = mkdtempSync(join(tmpdir(), `qdc-${namespace}-`));
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    DATABASE_URL: databaseUrl,
    QDC_NAMESPACE: namespace,
    PORT: String(port),
    HOST: '127.0.0.1',
    QDC_HEALTH_PORT: '0',
    QDC_MIGRATE_ON_BOOT: 'false',
    LOG_LEVEL: 'log',
    ...extraEnv,
  };
  await ensureDatabase(databaseUrl);
  await applyMigrations(databaseUrl, resolve(root, 'prisma/migrations'));
  const processes = new Map<string, ChildProcess>();
  for (const service of SERVICE_PROCESSES) {
    for (const name of replicaNames(service, 1)) {
      const child = spawn(process.execPath, [resolve(root, service.entry)], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
      const log = createWriteStream(join(logDir, `${name}.log`));
      child.stdout?.pipe(log);
      child.stderr?.pipe(log);
      processes.set(name, child);
    }
  }
  const stop = async (): Promise<void> => {
    await Promise.all([...processes.values()].map(stopChild));
    const admin = new pg.Client({ connectionString: databaseUrl.replace(/\/[^/]+$/, '/postgres') });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyTimeoutMs;
  while (
    !(await fetch(`${baseUrl}/readyz`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the stack did not become ready within ${readyTimeoutMs / 1000} s; logs in ${logDir}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  const createKey = (owner: string, scopes: string): Promise<string> =>
    new Promise((done, reject) => {
      const cli = spawn(
        process.execPath,
        [resolve(root, 'dist/apps/cli/src/main.js'), 'keys', 'create', '--name', `${owner}-key`, '--owner', owner, '--scopes', scopes],
        { cwd: root, env },
      );
      let out = '';
      let err = '';
      cli.stdout.on('data', (d) => (out += d));
      cli.stderr.on('data', (d) => (err += d));
      cli.on('exit', (code) => (code === 0 ? done(out.trim().split('\n').at(-1) ?? '') : reject(new Error(`keys create failed (${code}): ${err}`))));
    });
  return { baseUrl, logDir, processes, createKey, stop };
}
