/**
 * `npm run bench:faults` — bounded load against a local QDC with one fault at a time, and what each fault costs.
 *
 * The stack runs on private Redis, NATS (JetStream) and PostgreSQL servers started here on free ports (so restarting
 * them touches nothing else on the machine): `redis-server` (AOF on, as docker-compose and production; FAULTS_REDIS_AOF=no
 * to see the no-persistence case), `nats-server -js`, and a throw-away PostgreSQL cluster made with Debian's
 * initdb/pg_ctl (/usr/lib/postgresql/<version>/bin, run as the `postgres` user when started as root). Services are
 * the built ones, two inference workers. Load: FAULTS_CONCURRENCY clients (default 20; one in five simulates a small
 * circuit on the simulation worker, the others run a model; a 503 with Retry-After is sent again, same X-Request-Id,
 * after the time it names — every attempt counts as a request), for FAULTS_DURATION_S seconds per fault (default 60);
 * the fault hits a quarter into the load; a killed or stopped process comes back FAULTS_DOWN_MS later (default
 * 2000), as an orchestrator would restart it. Per fault it prints: requests sent, 2xx, errors by status (or `conn`
 * for no HTTP answer, `client-timeout` past FAULTS_REQUEST_TIMEOUT_S), and for model runs the results in Postgres
 * against the 2xx answers — missing (2xx without a stored result), duplicates (a request stored twice), orphans (a
 * stored result whose client got no 2xx) — then seconds to recovery (from the fault to the first request after
 * which every request succeeded), the longest request and how many took over 10 s. FAULTS_ONLY=redis,nats runs a
 * subset. For a killed service it also prints where the recovery went (diagnostics only, the table does not use them):
 * seconds from the fault to its exit, its relaunch, its first answer on its health subject (polled over NATS every
 * 50 ms: its handlers are subscribed) and the last failed request sent.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as connectNats } from '@nats-io/transport-node';
import { encodeNpy } from '#qdc/arrays';
import { healthSubject, natsServerOptions, type ServiceName } from '#qdc/contracts';
import { generateCoulombPeakTrace, tuningSeeds } from '#qdc/device-physics';
import { SERVICE_PROCESSES } from '#qdc/platform';
import { multipart, startSystem, type TestSystem } from '../test/medium/system.harness.js';

const DURATION_S = Number(process.env.FAULTS_DURATION_S ?? 60);
const CONCURRENCY = Number(process.env.FAULTS_CONCURRENCY ?? 20);
const DOWN_MS = Number(process.env.FAULTS_DOWN_MS ?? 2000);
const REQUEST_TIMEOUT_S = Number(process.env.FAULTS_REQUEST_TIMEOUT_S ?? 120);
const REDIS_AOF = (process.env.FAULTS_REDIS_AOF ?? 'yes') !== 'no';
const ONLY = process.env.FAULTS_ONLY?.split(',').map((s) => s.trim());

const BELL = 'from qiskit import QuantumCircuit\nqc = QuantumCircuit(2, 2)\nqc.h(0)\nqc.cx(0, 1)\nqc.measure([0, 1], [0, 1])\n';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const exited = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

async function waitForPort(port: number, what: string, timeoutMs = 30_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; ; ) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = createServer().listen(port, '127.0.0.1');
      socket.once('listening', () => socket.close(() => resolve(false)));
      socket.once('error', () => resolve(true));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`${what} did not listen on ${port}`);
    await sleep(100);
  }
}

/** A private infrastructure server that the bench can stop and start again with the same data. */
interface Infra {
  name: string;
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Synchronous stop, for a bench that dies (process 'exit'). */
  kill(): void;
}

async function startRedis(dir: string): Promise<Infra> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const args = [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      REDIS_AOF ? 'yes' : 'no',
      '--appendfsync',
      'everysec',
    ];
    child = spawn('redis-server', args, { stdio: 'ignore' });
    await waitForPort(port, 'redis-server');
  };
  await start();
  return {
    name: 'redis',
    url: `redis://127.0.0.1:${port}`,
    start,
    stop: async () => {
      child?.kill('SIGTERM');
      if (child) await exited(child);
    },
    kill: () => child?.kill('SIGKILL'),
  };
}

async function startNats(dir: string): Promise<Infra> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('nats-server', ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', dir], { stdio: 'ignore' });
    await waitForPort(port, 'nats-server');
  };
  await start();
  return {
    name: 'nats',
    url: `nats://127.0.0.1:${port}`,
    start,
    stop: async () => {
      child?.kill('SIGTERM');
      if (child) await exited(child);
    },
    kill: () => child?.kill('SIGKILL'),
  };
}

/** A throw-away PostgreSQL cluster (Debian's initdb/pg_ctl), trust auth, superuser `root`. */
async function startPostgres(dir: string): Promise<Infra | undefined> {
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)) : [];
  const bin = versions.map((v) => `/usr/lib/postgresql/${v}/bin`).find((b) => existsSync(`${b}/initdb`) && existsSync(`${b}/pg_ctl`));
  if (!bin) return undefined;
  const port = await freePort();
  const data = join(dir, 'data');
  mkdirSync(data, { recursive: true });
  chmodSync(dir, 0o755);
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(spawnSync('id', ['-u', 'postgres']).stdout.toString().trim());
    const gid = Number(spawnSync('id', ['-g', 'postgres']).stdout.toString().trim());
    chownSync(dir, uid, gid);
    chownSync(data, uid, gid);
  }
  const run = (tool: string, args: string[]) => {
    const command = [`${bin}/${tool}`, ...args];
    const result = asRoot ? spawnSync('runuser', ['-u', 'postgres', '--', ...command]) : spawnSync(command[0]!, command.slice(1));
    if (result.status !== 0) throw new Error(`${tool} failed: ${result.stderr?.toString()}`);
  };
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'root', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const start = async () => {
    run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'postgres.log'), '-w', 'start']);
  };
  await start();
  return {
    name: 'postgres',
    url: `postgresql://root@127.0.0.1:${port}`,
    start,
    stop: async () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    kill: () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      } catch {
        // not running
      }
    },
  };
}

interface Sample {
  kind: 'run' | 'simulate';
  name: string;
  sentAt: number;
  doneAt: number;
  status: number | 'conn' | 'client-timeout';
}

interface Fault {
  name: string;
  inject(sut: TestSystem, infra: Record<string, Infra>): Promise<void>;
}

/** Diagnostics of the last process kill (epoch ms): when it exited, was launched again, first answered its health subject. */
let killTimeline: { exitedAt?: number; relaunchedAt?: number; answeringAt?: number } = {};

/** Polls `<namespace>.<service>.health.v1` every 50 ms until it answers (at most `timeoutMs`); the epoch ms of the answer. */
async function firstHealthAnswer(sut: TestSystem, service: ServiceName, timeoutMs = 60_000): Promise<number | undefined> {
  const nc = await connectNats(natsServerOptions(sut.env.NATS_URL!));
  try {
    const subject = `${sut.env.QDC_NAMESPACE}.${healthSubject(service)}`;
    for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
      const answered = await nc.request(subject, new TextEncoder().encode('{}'), { timeout: 200 }).then(
        () => true,
        () => false,
      );
      if (answered) return Date.now();
      await sleep(50);
    }
    return undefined;
  } finally {
    await nc.close();
  }
}

/** kill -9 of a process, back after DOWN_MS (an orchestrator's restart). */
const killProcess =
  (processName: string): Fault['inject'] =>
  async (sut) => {
    const victim = sut.processes.get(processName);
    if (!victim) throw new Error(`no process ${processName}`);
    killTimeline = {};
    victim.kill('SIGKILL');
    await exited(victim);
    killTimeline.exitedAt = Date.now();
    await sleep(DOWN_MS);
    const entry = processName.startsWith('worker-')
      ? SERVICE_PROCESSES.find((s) => s.name === 'inference-worker')!.entry
      : SERVICE_PROCESSES.find((s) => s.name === processName)!.entry;
    sut.launch(processName, entry);
    killTimeline.relaunchedAt = Date.now();
    const service = (processName.startsWith('worker-') ? 'inference-worker' : processName) as ServiceName;
    killTimeline.answeringAt = await firstHealthAnswer(sut, service);
  };

/** Stop a server (SIGTERM / pg_ctl stop -m fast), start it again DOWN_MS later with the same data. */
const restartInfra =
  (name: string): Fault['inject'] =>
  async (_sut, infra) => {
    await infra[name]!.stop();
    await sleep(DOWN_MS);
    await infra[name]!.start();
  };

const FAULTS: Fault[] = [
  { name: 'none (baseline)', inject: async () => undefined },
  { name: 'kill -9 inference worker', inject: killProcess('worker-0') },
  { name: 'kill -9 results', inject: killProcess('results') },
  { name: 'kill -9 qpu-broker', inject: killProcess('qpu-broker') },
  { name: 'kill -9 simulation worker', inject: killProcess('simulation-worker') },
  { name: 'restart nats', inject: restartInfra('nats') },
  { name: 'restart redis', inject: restartInfra('redis') },
  { name: 'restart postgres', inject: restartInfra('postgres') },
];

function matches(fault: Fault): boolean {
  return !ONLY || ONLY.some((o) => fault.name.includes(o));
}

async function waitReady(sut: TestSystem, timeoutMs = 120_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; ; ) {
    if (
      await fetch(`${sut.baseUrl}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    if (Date.now() > deadline) throw new Error(`system not ready again; logs in ${sut.logDir}`);
    await sleep(250);
  }
}

/** How often a client sends a request again after a 503 with Retry-After. */
const MAX_RETRIES_AFTER_503 = 10;

async function runLoad(sut: TestSystem, token: string, tag: string, fault: Fault, infra: Record<string, Infra>) {
  const samples: Sample[] = [];
  const trace = generateCoulombPeakTrace(tuningSeeds(1, 321)[0]!, { length: 128, kind: 'peaks', peakCount: 3, snrRange: [40, 60] }).trace;
  const bytes = encodeNpy({ shape: [128], data: trace });
  const started = Date.now();
  const endAt = started + DURATION_S * 1000;
  let n = 0;
  const client = async (index: number) => {
    const kind: Sample['kind'] = index % 5 === 4 ? 'simulate' : 'run';
    while (Date.now() < endAt) {
      const name = `${tag}-${n++}`;
      // A 503 says "retry": like a well-behaved client, send the same request (same X-Request-Id) again after
      // Retry-After, so a result stored after the 503 is answered rather than orphaned. Every attempt is a sample.
      for (let attempt = 0; ; attempt++) {
        const sentAt = Date.now();
        let status: Sample['status'];
        let retryAfterS = 0;
        try {
          const res =
            kind === 'run'
              ? await fetch(`${sut.baseUrl}/v0/models`, {
                  method: 'POST',
                  headers: { authorization: `Bearer ${token}`, 'x-request-id': name },
                  body: multipart({ model: 'coulomb-blockade-peak-detector-v2' }, { name: `${name}.npy`, bytes }),
                  signal: AbortSignal.timeout(REQUEST_TIMEOUT_S * 1000),
                })
              : await fetch(`${sut.baseUrl}/v0/coda/tools/simulate`, {
                  method: 'POST',
                  headers: { authorization: `Bearer ${token}`, 'x-request-id': name, 'content-type': 'application/json' },
                  body: JSON.stringify({ code: BELL, shots: 100, seed_simulator: 7 }),
                  signal: AbortSignal.timeout(REQUEST_TIMEOUT_S * 1000),
                });
          await res.arrayBuffer();
          status = res.status;
          retryAfterS = Number(res.headers.get('retry-after') ?? 0);
        } catch (error) {
          status = (error as Error).name === 'TimeoutError' ? 'client-timeout' : 'conn';
        }
        samples.push({ kind, name, sentAt, doneAt: Date.now(), status });
        if (status === 503 && retryAfterS > 0 && attempt < MAX_RETRIES_AFTER_503) {
          await sleep(retryAfterS * 1000);
          continue;
        }
        if (typeof status !== 'number' || status >= 500) await sleep(100); // a client backs off a little
        break;
      }
    }
  };
  const faultAt = started + (DURATION_S * 1000) / 4;
  const injected = (async () => {
    await sleep(faultAt - Date.now());
    await fault.inject(sut, infra);
  })();
  await Promise.all([...Array.from({ length: CONCURRENCY }, (_, i) => client(i)), injected]);
  return { samples, faultAt };
}

async function account(sut: TestSystem, tag: string, samples: Sample[]) {
  const rows = await sut.query<{ name: string; n: number }>(
    "SELECT regexp_replace(input_file_name, '\\.npy$', '') AS name, count(*)::int AS n FROM model_results WHERE input_file_name LIKE $1 GROUP BY 1",
    [`${tag}-%`],
  );
  const stored = new Map(rows.map((r) => [r.name, r.n]));
  const runs = samples.filter((s) => s.kind === 'run');
  const ok = new Set(runs.filter((s) => s.status === 200).map((s) => s.name));
  return {
    missing: [...ok].filter((name) => !stored.has(name)).length,
    duplicates: rows.reduce((sum, r) => sum + Math.max(0, r.n - 1), 0),
    orphans: rows.filter((r) => !ok.has(r.name)).length,
  };
}

function summarise(samples: Sample[], faultAt: number) {
  const errors = new Map<string, number>();
  for (const s of samples) if (s.status !== 200) errors.set(String(s.status), (errors.get(String(s.status)) ?? 0) + 1);
  const after = samples.filter((s) => s.sentAt >= faultAt).sort((a, b) => a.sentAt - b.sentAt);
  // Recovery: the first request sent after the fault from which on every request succeeded.
  let recoveredAt: number | undefined = faultAt;
  for (const s of after) if (s.status !== 200) recoveredAt = undefined;
  if (recoveredAt === undefined) {
    const lastFailure = after.filter((s) => s.status !== 200).at(-1)!;
    const next = after.find((s) => s.sentAt > lastFailure.sentAt && s.status === 200);
    recoveredAt = next?.sentAt;
  }
  const longest = samples.reduce((max, s) => Math.max(max, s.doneAt - s.sentAt), 0);
  return {
    over10s: samples.filter((s) => s.doneAt - s.sentAt > 10_000).length,
    sent: samples.length,
    ok: samples.filter((s) => s.status === 200).length,
    errors: [...errors.entries()].map(([code, count]) => `${code}×${count}`).join(' ') || '-',
    recovery: recoveredAt === undefined ? 'never' : Math.max(0, (recoveredAt - faultAt) / 1000).toFixed(1),
    longest: (longest / 1000).toFixed(1),
  };
}

/** Where a kill's recovery went, in seconds from the fault (diagnostics; the table's recovery is `summarise`'s). */
function describeTimeline(samples: Sample[], faultAt: number): string {
  const at = (t: number | undefined) => (t === undefined ? '-' : `+${((t - faultAt) / 1000).toFixed(2)}`);
  const failures = samples.filter((s) => s.sentAt >= faultAt && s.status !== 200);
  const lastFailure = failures.at(-1) && failures.reduce((a, b) => (b.sentAt > a.sentAt ? b : a));
  const { exitedAt, relaunchedAt, answeringAt } = killTimeline;
  return [
    `exited ${at(exitedAt)}`,
    `relaunched ${at(relaunchedAt)}`,
    `answering its health subject ${at(answeringAt)} (boot ${relaunchedAt && answeringAt ? ((answeringAt - relaunchedAt) / 1000).toFixed(2) : '-'} s)`,
    `failed requests sent after the fault ${failures.length}${lastFailure ? `, last sent ${at(lastFailure.sentAt)} (${lastFailure.kind}, ${lastFailure.status}, answered ${at(lastFailure.doneAt)})` : ''}`,
  ].join('; ');
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'qdc-faults-'));
  chmodSync(dir, 0o755); // the postgres user must reach its data directory inside
  const infra: Record<string, Infra> = {};
  let sut: TestSystem | undefined;
  // Whatever happens to the bench, its servers and services do not outlive it.
  process.once('exit', () => {
    for (const child of sut?.processes.values() ?? []) child.kill('SIGKILL');
    for (const server of Object.values(infra)) server.kill();
    rmSync(dir, { recursive: true, force: true });
  });
  try {
    mkdirSync(join(dir, 'redis'));
    mkdirSync(join(dir, 'nats'));
    mkdirSync(join(dir, 'pg'));
    infra.redis = await startRedis(join(dir, 'redis'));
    infra.nats = await startNats(join(dir, 'nats'));
    const postgres = await startPostgres(join(dir, 'pg'));
    if (postgres) infra.postgres = postgres;
    else console.log('no PostgreSQL binaries under /usr/lib/postgresql/*/bin: using DATABASE_URL\'s server, and skipping "restart postgres"');
    sut = await startSystem({
      workers: 2,
      postgres: postgres?.url,
      // The load is one key; the per-key rate limit (1 200/min by default) is not what this bench measures.
      env: { REDIS_URL: infra.redis.url, NATS_URL: infra.nats.url, LOG_LEVEL: 'warn', QDC_SIM_INLINE_MAX_QUBITS: '0', QDC_RATE_LIMIT_PER_MINUTE: '1000000' },
    });
    const token = await sut.createKey('faults', 'control,coda');
    console.log(
      `bench:faults — ${CONCURRENCY} clients (4 in 5 model runs, 1 in 5 simulations), ${DURATION_S} s per fault, fault at ${DURATION_S / 4} s, back after ${DOWN_MS} ms; Redis AOF ${REDIS_AOF ? 'on' : 'off'}; logs in ${sut.logDir}`,
    );
    const table: string[][] = [['fault', 'sent', '2xx', 'errors by code', 'missing', 'dup', 'orphans', 'recovery s', 'longest s', '> 10 s']];
    let index = 0;
    for (const fault of FAULTS) {
      if (!matches(fault) || (fault.name === 'restart postgres' && !infra.postgres)) continue;
      await waitReady(sut);
      const tag = `f${index++}`;
      killTimeline = {};
      const { samples, faultAt } = await runLoad(sut, token, tag, fault, infra);
      await waitReady(sut);
      await sleep(3000); // stragglers: jobs a client gave up on may still finish
      const summary = summarise(samples, faultAt);
      const db = await account(sut, tag, samples);
      const row = [
        fault.name,
        String(summary.sent),
        String(summary.ok),
        summary.errors,
        String(db.missing),
        String(db.duplicates),
        String(db.orphans),
        summary.recovery,
        summary.longest,
        String(summary.over10s),
      ];
      table.push(row);
      console.log(row.join(' | '));
      if (killTimeline.exitedAt) console.log(`  ${describeTimeline(samples, faultAt)}`);
    }
    console.log('');
    const widths = table[0]!.map((_, c) => Math.max(...table.map((r) => r[c]!.length)));
    for (const [i, row] of table.entries()) {
      console.log(`| ${row.map((cell, c) => cell.padEnd(widths[c]!)).join(' | ')} |`);
      if (i === 0) console.log(`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`);
    }
  } finally {
    await sut?.stop().catch((error: Error) => console.error(`stopping the system: ${error.message}`));
    for (const server of Object.values(infra)) await server.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: Error) => {
    console.error(error.stack ?? error);
    process.exit(1);
  },
);
