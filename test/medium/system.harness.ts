/**
 * Starts a real QDC (the built services as separate processes) against the real Postgres, Redis
 * and NATS, isolated by a fresh database and its own QDC_NAMESPACE, so it can run beside a dev
 * instance. Logs go to a temp dir (path printed on failure).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { SERVICE_PROCESSES, applyMigrations, ensureDatabase, replicaNames } from '#qdc/platform';

const root = process.cwd(); // jest runs from the repository root

export interface TestSystem {
  baseUrl: string;
  namespace: string;
  databaseUrl: string;
  env: Record<string, string>;
  logDir: string;
  /** Creates an API key through the real CLI; returns the plaintext token. */
  createKey(owner: string, scopes: string): Promise<string>;
  startWorker(name?: string, extraEnv?: Record<string, string>): ChildProcess;
  /** Starts (or restarts) any built service under a name, e.g. `launch('qpu-broker', 'dist/apps/qpu-broker/src/main.js')`. */
  launch(name: string, entry: string, extraEnv?: Record<string, string>): ChildProcess;
  processes: Map<string, ChildProcess>;
  query<T extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<T[]>;
  stop(): Promise<void>;
}

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolvePort(port));
    });
    server.on('error', reject);
  });
}

export async function startSystem(options: { workers?: number; env?: Record<string, string>; postgres?: string } = {}): Promise<TestSystem> {
  const id = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const namespace = `t${id}`;
  // `postgres`: another server (bench:faults runs a private one it can restart).
  const databaseUrl = `${options.postgres ?? 'postgresql://root@127.0.0.1:5432'}/qdc_test_${id}`;
  let port = await freePort();
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
    ...options.env,
  };
  await ensureDatabase(databaseUrl);
  await applyMigrations(databaseUrl, resolve(root, 'prisma/migrations'));
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  pool.on('error', () => undefined); // an idle connection dropped by a Postgres restart (bench:faults) is not fatal
  const processes = new Map<string, ChildProcess>();

  const launch = (name: string, entry: string, extraEnv: Record<string, string> = {}): ChildProcess => {
    const child = spawn(process.execPath, [resolve(root, entry)], { cwd: root, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    const log = createWriteStream(join(logDir, `${name}.log`));
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    processes.set(name, child);
    child.on('exit', () => {
      if (processes.get(name) === child) processes.delete(name);
    });
    return child;
  };

  const booting: [string, ChildProcess][] = [];
  for (const service of SERVICE_PROCESSES) {
    for (const name of replicaNames(service, options.workers ?? 1)) booting.push([name, launch(name, service.entry)]);
  }

  let baseUrl = `http://127.0.0.1:${port}`;
  let portRetries = 3;
  const logTail = (name: string) => readFileSync(join(logDir, `${name}.log`), 'utf8').slice(-1500);
  // Generous: seven processes boot on a shared, loaded CI machine. A process that exits while booting fails the
  // start at once, with its log, instead of leaving the caller to time out without a reason.
  const deadline = Date.now() + 120_000;
  for (;;) {
    const ready = await fetch(`${baseUrl}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    let exited = booting.find(([, child]) => child.exitCode !== null || child.signalCode !== null);
    // The port chosen by binding port 0 and closing it can be taken by a spec running beside this one before the
    // gateway binds it: the gateway starts again on another port.
    if (exited?.[0] === 'gateway' && /EADDRINUSE/.test(logTail('gateway')) && portRetries-- > 0) {
      port = await freePort();
      env.PORT = String(port);
      baseUrl = `http://127.0.0.1:${port}`;
      exited[1] = launch('gateway', exited[1].spawnargs[1]!);
      exited = undefined;
    }
    if (exited || Date.now() > deadline) {
      for (const child of processes.values()) child.kill('SIGKILL');
      const readyz = await fetch(`${baseUrl}/readyz`).then(
        (r) => r.text(),
        (e: Error) => e.message,
      );
      throw new Error(
        exited
          ? `test system: ${exited[0]} exited (${exited[1].exitCode ?? exited[1].signalCode}) while booting; logs in ${logDir}; its log ends:\n${logTail(exited[0])}`
          : `test system did not become ready in 120 s (last /readyz: ${readyz.slice(0, 500)}); logs in ${logDir}`,
      );
    }
    await new Promise((r) => setTimeout(r, 200));
  }

  const system: TestSystem = {
    baseUrl,
    namespace,
    databaseUrl,
    env,
    logDir,
    processes,
    createKey: (owner, scopes) =>
      new Promise((resolveKey, reject) => {
        const cli = spawn(
          process.execPath,
          [resolve(root, 'dist/apps/cli/src/main.js'), 'keys', 'create', '--name', `${owner}-key`, '--owner', owner, '--scopes', scopes],
          { cwd: root, env },
        );
        let out = '';
        let err = '';
        cli.stdout.on('data', (d) => (out += d));
        cli.stderr.on('data', (d) => (err += d));
        cli.on('exit', (code) => (code === 0 ? resolveKey(out.trim().split('\n').at(-1) ?? '') : reject(new Error(`keys create failed (${code}): ${err}`))));
      }),
    startWorker: (name = `worker-${processes.size}`, extraEnv = {}) =>
      launch(name, SERVICE_PROCESSES.find((s) => s.name === 'inference-worker')!.entry, extraEnv),
    launch,
    query: async (sql, params) => (await pool.query(sql, params)).rows,
    stop: async () => {
      await Promise.all(
        [...processes.values()].map(
          (child) =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
              setTimeout(() => child.kill('SIGKILL'), 8000).unref();
            }),
        ),
      );
      await pool.end();
      const admin = new pg.Client({ connectionString: databaseUrl.replace(/\/[^/]+$/, '/postgres') });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "qdc_test_${id}" WITH (FORCE)`).catch(() => undefined);
      await admin.end();
    },
  };
  return system;
}

/** A minimal multipart/form-data request. */
export function multipart(fields: Record<string, string>, file?: { field?: string; name: string; bytes: Uint8Array }): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append(file.field ?? 'data', new Blob([file.bytes as Uint8Array<ArrayBuffer>]), file.name);
  return form;
}

/** Resident bytes of a process now (VmRSS) or at its peak (VmHWM), from Linux /proc; 0 once it has exited. */
export function residentBytes(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  try {
    return Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}
