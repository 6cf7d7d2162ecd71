/**
 * `npm run bench:footprint` (also the last part of `npm run bench:perf`) — the footprint of `npm start` in its two
 * modes, measured in the same run (the machines are noisy): the split mode (QDC_START_MODE=split, one process per
 * service, as deployed) and the single-process mode (the default: apps/all-in-one). For each: the time from spawning
 * the start script to the first successful answer (GET /v0/models with a key, which the gateway checks with the
 * results service over NATS), and the resident memory (VmRSS) of every process of the stack after that first answer
 * and at rest (after a model run and a circuit simulation, then 10 s idle). The CPU time the stack used until its first
 * answer is printed too (on a loaded machine the wall time stretches, the CPU time less so), and the time until the
 * gateway's /readyz says every dependency is up (the single-process mode boots what answers first). Targets of the
 * single-process mode: ≤ 400 MiB in total at rest, first answer ≤ 5 s.
 *
 * Uses the machine's Postgres, Redis and NATS (QDC_START_DEPENDENCIES=false) and its own database, dropped at the end.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { encodeNpy } from '#qdc/arrays';
import { generateCoulombPeakTrace } from '#qdc/device-physics';
import { SERVICE_PROCESSES, applyMigrations, ensureDatabase } from '#qdc/platform';
import { multipart, residentBytes } from '../test/medium/system.harness.js';

const root = process.cwd();
const MiB = 1024 * 1024;
const IDLE_MS = Number(process.env.BENCH_FOOTPRINT_IDLE_MS ?? 10_000);
const TARGET_TOTAL_MIB = 400;
const TARGET_FIRST_ANSWER_S = 5;
type Mode = 'split' | 'single';

interface Footprint {
  mode: Mode;
  firstAnswerMs: number;
  /** From the spawn to the gateway's /readyz answering 200 (every dependency of the gateway up: `npm start` prints its URL then). */
  readyMs: number;
  /** CPU time (user + system) the stack's processes had used at the first answer: hardly depends on the machine's load. */
  firstAnswerCpuMs: number;
  /** Process name → VmRSS bytes, after the first answer and at rest. */
  afterFirstAnswer: Map<string, number>;
  atRest: Map<string, number>;
  exitCode: number | null;
  stopMs: number;
}

async function freePort(): Promise<number> {
  return new Promise((done, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
    server.on('error', reject);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The process and its descendants (Linux /proc), each with its pid. */
function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    // exited
  }
  return [pid, ...children.flatMap(processTree)];
}

/** What a process of the stack is: the start script, or the service whose entry it runs. */
function processName(pid: number, rootPid: number): string {
  if (pid === rootPid) return 'npm start (start.js)';
  const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  const service = SERVICE_PROCESSES.find((s) => args.some((a) => a.endsWith(s.entry)));
  return service?.name ?? args.slice(0, 2).join(' ');
}

const CLOCK_TICKS_PER_SECOND = 100;

/** CPU ms (user + system) the process and its descendants have used so far (Linux /proc). */
function cpuMs(rootPid: number): number {
  let ticks = 0;
  for (const pid of processTree(rootPid)) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // exited
    }
  }
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

function residentByProcess(rootPid: number): Map<string, number> {
  const rss = new Map<string, number>();
  for (const pid of processTree(rootPid)) {
    const name = processName(pid, rootPid);
    rss.set(name, (rss.get(name) ?? 0) + residentBytes(pid));
  }
  return rss;
}

async function measure(mode: Mode, env: Record<string, string>, auth: { authorization: string }): Promise<Footprint> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let output = '';
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, [resolve(root, 'dist/scripts/start.js')], {
    cwd: root,
    env: { ...env, QDC_START_MODE: mode, PORT: String(port), QDC_NAMESPACE: `${env.QDC_NAMESPACE}${mode}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  try {
    for (;;) {
      const ok = await fetch(`${base}/v0/models?limit=1`, { headers: auth }).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (child.exitCode !== null) throw new Error(`${mode}: start exited (${child.exitCode}):\n${output.slice(-3000)}`);
      if (performance.now() - started > 180_000) throw new Error(`${mode}: no answer in 180 s:\n${output.slice(-3000)}`);
      await sleep(50);
    }
    const firstAnswerMs = performance.now() - started;
    const firstAnswerCpuMs = cpuMs(child.pid!);
    const afterFirstAnswer = residentByProcess(child.pid!);
    while (
      !(await fetch(`${base}/readyz`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      if (performance.now() - started > 180_000) throw new Error(`${mode}: not ready in 180 s:\n${output.slice(-3000)}`);
      await sleep(50);
    }
    const readyMs = performance.now() - started;
    // Some use, as on a laptop: a model run (inference worker, results) and a circuit simulation (qpu-broker).
    const trace = Float64Array.from(generateCoulombPeakTrace(3, { length: 128 }).trace);
    const run = await fetch(`${base}/v0/models`, {
      method: 'POST',
      headers: auth,
      body: multipart({ model: 'coulomb-blockade-peak-detector-v2' }, { name: 't.npy', bytes: encodeNpy({ shape: [128], data: trace }) }),
    });
    if (run.status !== 200) throw new Error(`${mode}: model run answered ${run.status}: ${await run.text()}`);
    const code = 'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[2];\ncreg c[2];\nh q[0];\ncx q[0],q[1];\nmeasure q -> c;\n';
    const sim = await fetch(`${base}/v0/coda/tools/simulate`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ code, shots: 100 }),
    });
    if (sim.status !== 200) throw new Error(`${mode}: simulate answered ${sim.status}: ${await sim.text()}`);
    await sleep(IDLE_MS);
    const atRest = residentByProcess(child.pid!);
    const stopping = performance.now();
    child.kill('SIGTERM');
    const exitCode = await exited;
    return { mode, firstAnswerMs, readyMs, firstAnswerCpuMs, afterFirstAnswer, atRest, exitCode, stopMs: performance.now() - stopping };
  } finally {
    if (child.exitCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  }
}

const total = (rss: Map<string, number>): number => [...rss.values()].reduce((a, b) => a + b, 0);
const mib = (bytes: number | undefined): string => (bytes === undefined ? '—' : (bytes / MiB).toFixed(0));

function printTable(split: Footprint, single: Footprint): void {
  const names = [...new Set([...split.atRest.keys(), ...single.atRest.keys(), ...split.afterFirstAnswer.keys(), ...single.afterFirstAnswer.keys()])];
  const rows: string[][] = [['process (VmRSS, MiB)', 'split: after 1st answer', 'split: at rest', 'single: after 1st answer', 'single: at rest']];
  for (const name of names)
    rows.push([name, mib(split.afterFirstAnswer.get(name)), mib(split.atRest.get(name)), mib(single.afterFirstAnswer.get(name)), mib(single.atRest.get(name))]);
  rows.push([
    `total (${split.atRest.size} vs ${single.atRest.size} processes)`,
    mib(total(split.afterFirstAnswer)),
    mib(total(split.atRest)),
    mib(total(single.afterFirstAnswer)),
    mib(total(single.atRest)),
  ]);
  rows.push(['time to first answer (s)', (split.firstAnswerMs / 1000).toFixed(2), '', (single.firstAnswerMs / 1000).toFixed(2), '']);
  rows.push(['time to ready, /readyz (s)', (split.readyMs / 1000).toFixed(2), '', (single.readyMs / 1000).toFixed(2), '']);
  rows.push(['CPU time to first answer (s)', (split.firstAnswerCpuMs / 1000).toFixed(2), '', (single.firstAnswerCpuMs / 1000).toFixed(2), '']);
  rows.push([
    'SIGTERM → exit (s, exit code)',
    `${(split.stopMs / 1000).toFixed(2)} (${split.exitCode})`,
    '',
    `${(single.stopMs / 1000).toFixed(2)} (${single.exitCode})`,
    '',
  ]);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const [i, row] of rows.entries()) {
    console.log(`| ${row.map((cell, j) => (j === 0 ? cell.padEnd(widths[j]!) : cell.padStart(widths[j]!))).join(' | ')} |`);
    if (i === 0) console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  }
  const restRatio = total(single.atRest) / total(split.atRest);
  const answerRatio = single.firstAnswerMs / split.firstAnswerMs;
  const restOk = total(single.atRest) <= TARGET_TOTAL_MIB * MiB;
  const answerOk = single.firstAnswerMs <= TARGET_FIRST_ANSWER_S * 1000;
  const cpuRatio = single.firstAnswerCpuMs / split.firstAnswerCpuMs;
  console.log(
    `\nsingle/split: RSS at rest ${restRatio.toFixed(2)}, time to first answer ${answerRatio.toFixed(2)}, CPU time to first answer ${cpuRatio.toFixed(2)}`,
  );
  console.log(`single-process at rest ${mib(total(single.atRest))} MiB (target ≤ ${TARGET_TOTAL_MIB}): ${restOk ? 'PASS' : 'FAIL'}`);
  console.log(`single-process first answer ${(single.firstAnswerMs / 1000).toFixed(2)} s (target ≤ ${TARGET_FIRST_ANSWER_S}): ${answerOk ? 'PASS' : 'FAIL'}`);
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`(load average at the end: ${load})`);
}

async function main(): Promise<void> {
  const id = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const databaseUrl = `postgresql://root@127.0.0.1:5432/qdc_footprint_${id}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'qdc-footprint-'));
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    DATABASE_URL: databaseUrl,
    QDC_NAMESPACE: `f${id}`,
    QDC_DATA_DIR: dataDir,
    QDC_START_DEPENDENCIES: 'false',
    QDC_HEALTH_PORT: '0',
    HOST: '127.0.0.1',
  };
  try {
    // The database and a key first, so that both modes start alike (migrations already applied, the key reused).
    await ensureDatabase(databaseUrl);
    await applyMigrations(databaseUrl, resolve(root, 'prisma/migrations'));
    const cli = spawnSync(
      process.execPath,
      [resolve(root, 'dist/apps/cli/src/main.js'), 'keys', 'create', '--name', 'footprint', '--owner', 'footprint', '--scopes', 'control,coda,admin'],
      { cwd: root, env, encoding: 'utf8' },
    );
    if (cli.status !== 0) throw new Error(`keys create failed: ${cli.stderr}`);
    const token = cli.stdout.trim().split('\n').at(-1) ?? '';
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'dev-key'), `${token}\n`, { mode: 0o600 });
    const auth = { authorization: `Bearer ${token}` };
    console.log(`footprint of npm start: split vs single-process mode, same run (idle ${IDLE_MS} ms before "at rest")\n`);
    const split = await measure('split', env, auth);
    const single = await measure('single', env, auth);
    printTable(split, single);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    const admin = new pg.Client({ connectionString: 'postgresql://root@127.0.0.1:5432/postgres' });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS qdc_footprint_${id} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
