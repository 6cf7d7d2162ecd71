/**
 * `npm start`: every service as its own process (as in production) with prefixed logs, against
 * Postgres, Redis and NATS on localhost (or DATABASE_URL, REDIS_URL, NATS_URL). Creates and
 * migrates the database, starts QDC_INFERENCE_WORKERS inference workers, waits until the gateway
 * is ready, then prints the URL and a development API key (kept in .qdc/dev-key).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVICE_PROCESSES, applyMigrations, ensureDatabase, loadConfig, redactUrl, replicaNames } from '#qdc/platform';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const config = loadConfig();

interface ServiceDef {
  name: string;
  entry: string;
  env?: Record<string, string>;
}

// Every process of SERVICE_PROCESSES; replicas get consecutive probe ports.
const services: ServiceDef[] = SERVICE_PROCESSES.flatMap((service) =>
  replicaNames(service, service.replicasFrom ? config[service.replicasFrom] : 1).map((name, i): ServiceDef => ({
    name,
    entry: service.entry,
    env: service.probePort === undefined ? {} : { QDC_HEALTH_PORT: String(service.probePort + i) },
  })),
);

const children = new Map<string, ChildProcess>();
let stopping = false;
const width = Math.max(...services.map((s) => s.name.length));

function prefixed(name: string, stream: NodeJS.ReadableStream | null, out: NodeJS.WritableStream): void {
  let buffered = '';
  stream?.setEncoding('utf8');
  stream?.on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) out.write(`[${name.padEnd(width)}] ${line}\n`);
  });
}

function launch(service: ServiceDef, restarts = 0): void {
  const child = spawn(process.execPath, [resolve(root, service.entry)], {
    cwd: root,
    env: { ...process.env, QDC_MIGRATE_ON_BOOT: 'false', ...service.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.set(service.name, child);
  prefixed(service.name, child.stdout, process.stdout);
  prefixed(service.name, child.stderr, process.stderr);
  child.on('exit', (code, signal) => {
    children.delete(service.name);
    if (stopping) return;
    // A supervisor, as Kubernetes would be: restart with backoff.
    const delay = Math.min(30_000, 500 * 2 ** restarts);
    console.error(`[${service.name.padEnd(width)}] exited (${signal ?? code}); restarting in ${delay} ms`);
    setTimeout(() => launch(service, restarts + 1), delay);
  });
}

async function waitForGateway(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`gateway not ready at ${url} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Reuses .qdc/dev-key while it still authenticates; otherwise creates a new development key. */
async function developmentKey(url: string): Promise<string> {
  const file = resolve(root, '.qdc/dev-key');
  if (existsSync(file)) {
    const saved = readFileSync(file, 'utf8').trim();
    const res = await fetch(`${url}/v0/models?limit=1`, { headers: { authorization: `Bearer ${saved}` } });
    if (res.ok) return saved;
  }
  const cli = spawnSync(process.execPath, [resolve(root, 'dist/apps/results/src/cli.js'), 'keys', 'create', '--name', 'development', '--owner', 'development', '--scopes', 'control,coda,admin'], {
    cwd: root,
    env: process.env,
    encoding: 'utf8',
  });
  if (cli.status !== 0) throw new Error(`could not create a development key: ${cli.stderr}`);
  const token = cli.stdout.trim().split('\n').at(-1) ?? '';
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}

function stop(): void {
  if (stopping) return;
  stopping = true;
  for (const child of children.values()) child.kill('SIGTERM');
  setTimeout(() => process.exit(0), 10_000).unref();
  const poll = setInterval(() => {
    if (children.size === 0) {
      clearInterval(poll);
      process.exit(0);
    }
  }, 100);
}

async function main(): Promise<void> {
  if (await ensureDatabase(config.DATABASE_URL)) console.log(`created database ${redactUrl(config.DATABASE_URL)}`);
  const report = await applyMigrations(config.DATABASE_URL, resolve(root, 'prisma/migrations'));
  console.log(`database ${redactUrl(config.DATABASE_URL)}: ${report.applied.length} migration(s) applied, ${report.alreadyApplied} already applied`);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  for (const service of services) launch(service);
  const url = `http://127.0.0.1:${config.PORT}`;
  await waitForGateway(url, 60_000);
  const key = await developmentKey(url);
  console.log(`\nQDC is up: ${url}  (API docs: ${url}/docs)`);
  console.log(`control API base URL for the Python client: ${url}/v0/control`);
  console.log(`development API key (scopes control,coda,admin; saved in .qdc/dev-key):\n${key}\n`);
}

main().catch((error) => {
  console.error(`start failed: ${(error as Error).message}`);
  stop();
  process.exitCode = 1;
});
