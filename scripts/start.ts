/**
 * `npm start`: by default every service in this one Node process (the single-process mode, apps/all-in-one: the
 * smallest footprint, for a laptop or an instrument PC); with QDC_START_MODE=split (`npm run start:split`) every
 * service as its own process (as in production) with prefixed logs, restarted when it exits. Both run against
 * Postgres, Redis and NATS on localhost (or DATABASE_URL, REDIS_URL, NATS_URL). Creates and
 * migrates the database, starts QDC_INFERENCE_WORKERS inference workers, waits until the gateway
 * is ready, then prints the URL and a development API key (kept in .qdc/dev-key). Reads .env first when there is one
 * (variables already set in the environment win).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVICE_PROCESSES, applyMigrations, ensureDatabase, loadConfig, redactUrl, replicaNames } from '#qdc/platform';
import { loadDotEnv } from './dotenv.js';
import { ensureDependencies, unavailableDependencies, type DependencyUrls, type StartedDependency } from './start-dependencies.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const fromDotEnv = loadDotEnv(resolve(root, '.env'));
if (fromDotEnv.length > 0) console.log(`.env: ${fromDotEnv.join(', ')} (variables set in the environment win)`);
const config = loadConfig();
/** `single` (default): every service in this process; `split`: one child process per service, as deployed. */
const mode = process.env.QDC_START_MODE || 'single';
const dependencyUrls: DependencyUrls = { postgres: config.DATABASE_URL, redis: config.REDIS_URL, nats: config.NATS_URL };
/** Servers this script started (stopped again on exit); QDC_START_DEPENDENCIES=false starts none. */
let startedDependencies: StartedDependency[] = [];

interface ServiceDef {
  name: string;
  entry: string;
  env?: Record<string, string>;
}

/** Where npm start keeps its development key and the data of servers it starts. */
const dataDir = resolve(root, process.env.QDC_DATA_DIR ?? '.qdc');

/** QDC_HEALTH_PORT=0: every service takes an ephemeral probe port (several instances on one machine). */
const probePort = (port: number): string => (process.env.QDC_HEALTH_PORT === '0' ? '0' : String(port));

// Every process of SERVICE_PROCESSES; replicas get consecutive probe ports.
const services: ServiceDef[] = SERVICE_PROCESSES.flatMap((service) =>
  replicaNames(service, service.replicasFrom ? config[service.replicasFrom] : 1).map(
    (name, i): ServiceDef => ({
      name,
      entry: service.entry,
      env: service.probePort === undefined ? {} : { QDC_HEALTH_PORT: probePort(service.probePort + i) },
    }),
  ),
);

const children = new Map<string, ChildProcess>();
/** The services of the single-process mode, once they run. */
let allInOne: { stop(): Promise<void> } | undefined;
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
    void restartLater(service, `${signal ?? code}`, restarts);
  });
}

/** A supervisor, as Kubernetes would be: waits for what the service needs, then restarts it with backoff. */
async function restartLater(service: ServiceDef, exit: string, restarts: number): Promise<void> {
  const tag = `[${service.name.padEnd(width)}]`;
  let missing = await unavailableDependencies(dependencyUrls);
  if (missing.length > 0) {
    console.error(`${tag} exited (${exit}); waiting for ${missing.join(', ')} before restarting it`);
    while (missing.length > 0 && !stopping) {
      await new Promise((r) => setTimeout(r, 2_000));
      missing = await unavailableDependencies(dependencyUrls);
    }
    if (stopping) return;
    console.error(`${tag} its dependencies answer again; restarting`);
    launch(service, 0);
    return;
  }
  const delay = Math.min(30_000, 500 * 2 ** restarts);
  console.error(`${tag} exited (${exit}); restarting in ${delay} ms`);
  setTimeout(() => !stopping && launch(service, restarts + 1), delay);
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
  const file = resolve(dataDir, 'dev-key');
  if (existsSync(file)) {
    const saved = readFileSync(file, 'utf8').trim();
    const res = await fetch(`${url}/v0/models?limit=1`, { headers: { authorization: `Bearer ${saved}` } });
    if (res.ok) return saved;
  }
  const cli = spawnSync(
    process.execPath,
    [resolve(root, 'dist/apps/cli/src/main.js'), 'keys', 'create', '--name', 'development', '--owner', 'development', '--scopes', 'control,coda,admin'],
    {
      cwd: root,
      env: process.env,
      encoding: 'utf8',
    },
  );
  if (cli.status !== 0) throw new Error(`could not create a development key: ${cli.stderr}`);
  const token = cli.stdout.trim().split('\n').at(-1) ?? '';
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}

function stop(exitCode = 0): void {
  if (stopping) return;
  stopping = true;
  for (const child of children.values()) child.kill('SIGTERM');
  const finish = async (): Promise<never> => {
    // QDC's services first, then the servers they were using.
    await Promise.all(startedDependencies.map((dependency) => dependency.stop().catch(() => {})));
    process.exit(exitCode);
  };
  if (allInOne) {
    // Single-process mode: the services drain in this process (the gateway first); past the grace period it exits anyway.
    console.log('stopping: draining every service');
    setTimeout(() => {
      console.error(`the services did not drain within ${config.QDC_SHUTDOWN_GRACE_MS} ms; exiting`);
      exitCode = 1;
      void finish();
    }, config.QDC_SHUTDOWN_GRACE_MS).unref();
    void allInOne.stop().then(finish, finish);
    return;
  }
  // A service that cannot drain (say, its Redis is gone) is killed after the grace period, never orphaned.
  setTimeout(() => {
    for (const child of children.values()) child.kill('SIGKILL');
    void finish();
  }, 10_000).unref();
  const poll = setInterval(() => {
    if (children.size === 0) {
      clearInterval(poll);
      void finish();
    }
  }, 100);
}

/**
 * The single-process mode: the services' own entry functions, in this process (imported only in this mode, from the
 * start of main(), so that loading them overlaps the checks and migrations).
 */
let allInOneModule: Promise<typeof import('../apps/all-in-one/src/all-in-one.js')> | undefined;
function preloadSingleProcess(): void {
  allInOneModule = import('../apps/all-in-one/src/all-in-one.js');
  allInOneModule.then((m) => m.preloadServices()).catch(() => undefined);
}
async function startSingleProcess(): Promise<void> {
  process.env.QDC_MIGRATE_ON_BOOT = 'false'; // migrated above
  const { startAllInOne } = await (allInOneModule ?? import('../apps/all-in-one/src/all-in-one.js'));
  allInOne = await startAllInOne();
}

async function main(): Promise<void> {
  if (mode !== 'single' && mode !== 'split') throw new Error(`QDC_START_MODE must be single or split, not "${mode}"`);
  process.on('SIGINT', () => stop());
  process.on('SIGTERM', () => stop());
  if (mode === 'single') preloadSingleProcess();
  const dependencies = await ensureDependencies(dependencyUrls, {
    startMissing: process.env.QDC_START_DEPENDENCIES !== 'false',
    dataDir,
    log: (line) => console.log(line),
  });
  startedDependencies = dependencies.started;
  if (dependencies.problems.length > 0) {
    for (const line of dependencies.problems) console.error(`missing: ${line}`);
    console.error('no QDC service was started');
    stop(1);
    return;
  }
  if (await ensureDatabase(config.DATABASE_URL)) console.log(`created database ${redactUrl(config.DATABASE_URL)}`);
  const report = await applyMigrations(config.DATABASE_URL, resolve(root, 'prisma/migrations'));
  console.log(`database ${redactUrl(config.DATABASE_URL)}: ${report.applied.length} migration(s) applied, ${report.alreadyApplied} already applied`);
  if (mode === 'split') for (const service of services) launch(service);
  else await startSingleProcess();
  const url = `http://127.0.0.1:${config.PORT}`;
  await waitForGateway(url, 60_000);
  const key = await developmentKey(url);
  console.log(`\nQDC is up: ${url}  (web console: open ${url} and sign in with the key below; API docs: ${url}/docs)`);
  console.log(`control API base URL for the Python client: ${url}/v0/control`);
  console.log(`development API key (scopes control,coda,admin; saved in ${relative(root, resolve(dataDir, 'dev-key'))}):\n${key}\n`);
}

main().catch((error) => {
  console.error(`start failed: ${(error as Error).message}`);
  stop(1);
});
