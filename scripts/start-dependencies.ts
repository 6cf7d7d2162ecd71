/**
 * What `npm start` needs before any QDC service: Postgres, Redis and NATS with JetStream. Each is
 * probed at its configured URL with a short timeout; one that does not answer on localhost is
 * started from the machine's own server binary (data under .qdc/, or the distribution's cluster
 * for Postgres) and stopped again when `npm start` exits. Anything else is one actionable line.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, closeSync, constants, existsSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { Redis } from 'ioredis';
import pg from 'pg';
import { redactUrl } from '#qdc/platform';

export type DependencyName = 'postgres' | 'redis' | 'nats';

export interface DependencyUrls {
  postgres: string;
  redis: string;
  nats: string;
}

/** What a probe found: `up`, nothing answering, or a server that answers but cannot serve QDC. */
export type ProbeResult = { state: 'up' } | { state: 'down'; reason: string } | { state: 'unusable'; reason: string };

export interface StartedDependency {
  name: DependencyName;
  stop(): Promise<void>;
}

export interface DependencyReport {
  started: StartedDependency[];
  /** One line per dependency that is still missing; empty when everything answers. */
  problems: string[];
}

const PROBE_TIMEOUT_MS = 2_000;
const START_TIMEOUT_MS = 30_000;
const LABEL: Record<DependencyName, string> = { postgres: 'PostgreSQL', redis: 'Redis', nats: 'NATS (JetStream)' };
const COMPOSE_HINT = 'or run it in a container: docker compose up -d postgres redis nats (README, "If a server is missing")';

function message(error: unknown): string {
  const e = error as { code?: string; message?: string };
  if (e?.code === 'ECONNREFUSED') return 'connection refused';
  return (e?.message ?? String(error)).split('\n')[0];
}

export async function probePostgres(url: string): Promise<ProbeResult> {
  // Connect to the maintenance database: the QDC database itself may not exist yet (start creates it).
  const target = new URL(url);
  target.pathname = '/postgres';
  const client = new pg.Client({ connectionString: target.toString(), connectionTimeoutMillis: PROBE_TIMEOUT_MS });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return { state: 'up' };
  } catch (error) {
    const code = (error as { code?: string }).code;
    // 28xxx: authentication, 3D000: no such database — the server is there but refuses us.
    if (code && /^(28|3D)/.test(code)) return { state: 'unusable', reason: message(error) };
    return { state: 'down', reason: message(error) };
  } finally {
    await client.end().catch(() => {});
  }
}

export async function probeRedis(url: string): Promise<ProbeResult> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: PROBE_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return { state: 'up' };
  } catch (error) {
    const text = message(error);
    if (/NOAUTH|WRONGPASS|NOPERM/.test(text)) return { state: 'unusable', reason: text };
    return { state: 'down', reason: text };
  } finally {
    client.disconnect();
  }
}

export async function probeNats(url: string): Promise<ProbeResult> {
  let nc: Awaited<ReturnType<typeof connect>>;
  try {
    nc = await connect({ servers: url, timeout: PROBE_TIMEOUT_MS, reconnect: false, maxReconnectAttempts: 0 });
  } catch (error) {
    return { state: 'down', reason: message(error) };
  }
  try {
    const jsm = await jetstreamManager(nc, { timeout: PROBE_TIMEOUT_MS });
    await jsm.getAccountInfo();
    return { state: 'up' };
  } catch (error) {
    return { state: 'unusable', reason: `JetStream is not enabled (${message(error)}); restart nats-server with -js` };
  } finally {
    await nc.close().catch(() => {});
  }
}

const PROBES: Record<DependencyName, (url: string) => Promise<ProbeResult>> = { postgres: probePostgres, redis: probeRedis, nats: probeNats };

export function probe(name: DependencyName, url: string): Promise<ProbeResult> {
  return PROBES[name](url);
}

function isLocalhost(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '127.0.0.1' || host === '::1';
}

function port(url: string, fallback: number): number {
  const p = new URL(url).port;
  return p ? Number(p) : fallback;
}

/** Directories searched for server binaries: PATH, the sbin directories, and Debian's Postgres bin dirs. */
function searchPath(): string[] {
  const configured = process.env.QDC_DEPENDENCY_BIN_PATH;
  if (configured !== undefined) return configured.split(delimiter).filter(Boolean);
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  dirs.push('/usr/local/sbin', '/usr/sbin', '/sbin');
  return dirs;
}

export function findBinary(name: string): string | undefined {
  for (const dir of searchPath()) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

const INSTALL: Record<DependencyName, string> = {
  postgres: 'sudo apt-get install -y postgresql (macOS: brew install postgresql@16)',
  redis: 'sudo apt-get install -y redis-server (macOS: brew install redis)',
  nats: 'sudo apt-get install -y nats-server (macOS: brew install nats-server)',
};

async function waitUntilUp(name: DependencyName, url: string, child?: ChildProcess): Promise<ProbeResult> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let last: ProbeResult = { state: 'down', reason: 'not started' };
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) return { state: 'down', reason: `${name} server exited with code ${child.exitCode}` };
    last = await probe(name, url);
    if (last.state === 'up') return last;
    await new Promise((r) => setTimeout(r, 250));
  }
  return last;
}

function stopChild(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
    });
}

/** Starts a server binary as a child of `npm start`, logging to .qdc/<name>.log. */
function spawnServer(binary: string, args: string[], logFile: string): ChildProcess {
  const out = openSync(logFile, 'a');
  const child = spawn(binary, args, { stdio: ['ignore', out, out] });
  closeSync(out);
  child.on('error', () => {});
  return child;
}

type Starter = (url: string, dataDir: string) => Promise<{ started?: StartedDependency; problem?: string }>;

const startRedis: Starter = async (url, dataDir) => {
  const binary = findBinary('redis-server');
  if (!binary) return {};
  const dir = join(dataDir, 'redis');
  mkdirSync(dir, { recursive: true });
  const log = join(dir, 'redis.log');
  // AOF on, as in production: BullMQ's queued jobs survive a restart of this dev server too.
  const child = spawnServer(
    binary,
    ['--port', String(port(url, 6379)), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--maxmemory-policy', 'noeviction'],
    log,
  );
  const result = await waitUntilUp('redis', url, child);
  if (result.state !== 'up') {
    await stopChild(child)();
    return { problem: `Redis: started ${binary} but it did not answer at ${redactUrl(url)} (${result.reason}; see ${log})` };
  }
  return { started: { name: 'redis', stop: stopChild(child) } };
};

const startNats: Starter = async (url, dataDir) => {
  const binary = findBinary('nats-server');
  if (!binary) return {};
  const dir = join(dataDir, 'nats');
  mkdirSync(dir, { recursive: true });
  const log = join(dir, 'nats.log');
  const child = spawnServer(binary, ['-a', '127.0.0.1', '-p', String(port(url, 4222)), '-js', '-sd', dir], log);
  const result = await waitUntilUp('nats', url, child);
  if (result.state !== 'up') {
    await stopChild(child)();
    return { problem: `NATS: started ${binary} but it did not answer at ${url} (${result.reason}; see ${log})` };
  }
  return { started: { name: 'nats', stop: stopChild(child) } };
};

/** Debian/Ubuntu clusters (`pg_ctlcluster`): the distribution's own cluster on the URL's port. */
function debianCluster(wantedPort: number): { version: string; cluster: string } | undefined {
  if (!findBinary('pg_ctlcluster') || !existsSync('/etc/postgresql')) return undefined;
  for (const version of readdirSync('/etc/postgresql')) {
    for (const cluster of readdirSync(join('/etc/postgresql', version))) {
      const conf = spawnSync('sh', ['-c', `grep -E '^\\s*port\\s*=' /etc/postgresql/${version}/${cluster}/postgresql.conf`], { encoding: 'utf8' });
      const clusterPort = Number(/port\s*=\s*(\d+)/.exec(conf.stdout ?? '')?.[1] ?? 5432);
      if (clusterPort === wantedPort) return { version, cluster };
    }
  }
  return undefined;
}

const startPostgres: Starter = async (url, dataDir) => {
  const wantedPort = port(url, 5432);
  const debian = debianCluster(wantedPort);
  if (debian) {
    const args = ['--skip-systemctl-redirect', debian.version, debian.cluster];
    const run = spawnSync(findBinary('pg_ctlcluster')!, [...args, 'start'], { encoding: 'utf8' });
    if (run.status !== 0)
      return { problem: `PostgreSQL: pg_ctlcluster ${debian.version} ${debian.cluster} start failed: ${(run.stderr || run.stdout).trim().split('\n')[0]}` };
    const result = await waitUntilUp('postgres', url);
    const stop = async (): Promise<void> => void spawnSync(findBinary('pg_ctlcluster')!, [...args, 'stop'], { encoding: 'utf8' });
    if (result.state !== 'up')
      return { problem: `PostgreSQL: cluster ${debian.version}/${debian.cluster} started but does not accept ${redactUrl(url)} (${result.reason})` };
    return { started: { name: 'postgres', stop } };
  }
  const initdb = findBinary('initdb');
  const postgres = findBinary('postgres');
  if (!initdb || !postgres) return {};
  if (process.getuid?.() === 0) {
    return { problem: `PostgreSQL: not answering at ${redactUrl(url)}; the server refuses to run as root, so start it as another user (or: ${COMPOSE_HINT})` };
  }
  const dir = join(dataDir, 'postgres');
  if (!existsSync(join(dir, 'PG_VERSION'))) {
    const user = decodeURIComponent(new URL(url).username || process.env.USER || 'postgres');
    const init = spawnSync(initdb, ['-D', dir, '-U', user, '--auth=trust', '-E', 'UTF8'], { encoding: 'utf8' });
    if (init.status !== 0) return { problem: `PostgreSQL: initdb ${dir} failed: ${init.stderr.trim().split('\n')[0]}` };
  }
  const log = join(dataDir, 'postgres.log');
  const child = spawnServer(postgres, ['-D', dir, '-p', String(wantedPort), '-k', dir, '-c', 'listen_addresses=127.0.0.1'], log);
  const result = await waitUntilUp('postgres', url, child);
  if (result.state !== 'up') {
    await stopChild(child)();
    return { problem: `PostgreSQL: started ${postgres} but it did not answer at ${redactUrl(url)} (${result.reason})` };
  }
  return { started: { name: 'postgres', stop: stopChild(child) } };
};

const STARTERS: Record<DependencyName, Starter> = { postgres: startPostgres, redis: startRedis, nats: startNats };

/**
 * Probes every dependency; starts the local ones that are down when `startMissing` is set.
 * Returns what it started (stop them on exit) and one line per dependency that is still missing.
 */
export async function ensureDependencies(
  urls: DependencyUrls,
  options: { startMissing: boolean; dataDir: string; log: (line: string) => void },
): Promise<DependencyReport> {
  const names: DependencyName[] = ['postgres', 'redis', 'nats'];
  const found = await Promise.all(names.map((name) => probe(name, urls[name])));
  const report: DependencyReport = { started: [], problems: [] };
  for (const [i, name] of names.entries()) {
    const result = found[i];
    const url = urls[name];
    const shown = redactUrl(url);
    if (result.state === 'up') continue;
    if (result.state === 'unusable') {
      report.problems.push(`${LABEL[name]} at ${shown} answers but cannot be used: ${result.reason}`);
      continue;
    }
    if (!isLocalhost(url)) {
      report.problems.push(`${LABEL[name]} is not answering at ${shown} (${result.reason}); it is not on this machine, so start it there or fix the URL`);
      continue;
    }
    if (!options.startMissing) {
      report.problems.push(
        `${LABEL[name]} is not answering at ${shown} (${result.reason}); start it, ${COMPOSE_HINT} (QDC_START_DEPENDENCIES=false: npm start does not start it for you)`,
      );
      continue;
    }
    const outcome = await STARTERS[name](url, resolve(options.dataDir));
    if (outcome.started) {
      options.log(`started ${LABEL[name]} at ${shown} (stopped again when QDC stops)`);
      report.started.push(outcome.started);
    } else if (outcome.problem) {
      report.problems.push(outcome.problem);
    } else {
      report.problems.push(`${LABEL[name]} is not answering at ${shown} and its server is not installed: ${INSTALL[name]}, ${COMPOSE_HINT}`);
    }
  }
  return report;
}

/** Which dependencies do not answer now (the supervisor's "waiting for" message). */
export async function unavailableDependencies(urls: DependencyUrls): Promise<string[]> {
  const names: DependencyName[] = ['postgres', 'redis', 'nats'];
  const found = await Promise.all(names.map((name) => probe(name, urls[name])));
  return names.filter((_, i) => found[i].state !== 'up').map((name) => `${LABEL[name]} at ${redactUrl(urls[name])}`);
}
