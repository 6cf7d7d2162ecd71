/**
 * `npm run bench:perf` — performance of the platform spine, each number next to a baseline
 * measured in the same run (the machines are noisy):
 *  (a) GET /v0/models requests/s vs a bare Fastify hello-world (ratio, target ≥ 0.5)
 *  (b) p50/p99 of one 128-point peak-detector run end to end at concurrency 1 and 16
 *  (c) traces/s of a (10000, 128) batch end to end vs the pure algorithm in one process
 *  (d) per-trace peak detection vs scipy.signal.find_peaks on identical traces (ratio ≤ 1.0)
 *  (e) per-call latency of every catalogue model in process vs decoding its input (also `npm run bench:models`)
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { encodeNpy } from '#qdc/arrays';
import { runModel, runModelBatch } from '#qdc/characterization';
import { generateCoulombPeakTrace, benchmarkSeeds } from '#qdc/device-physics';
import { multipart, startSystem } from '../test/medium/system.harness.js';
import { httpLoad, loadClient, percentile } from './perf/http-load.js';
import { measureModelLatency, printLatencyTable } from './perf/model-latency.js';

const PEAK_V2 = 'coulomb-blockade-peak-detector-v2';
const rows: string[][] = [];
const report = (metric: string, value: string, baseline: string, ratio: string, target: string, pass: boolean | null) =>
  rows.push([metric, value, baseline, ratio, target, pass === null ? 'n/a' : pass ? 'PASS' : 'FAIL']);

function traces(count: number, length: number): Float64Array {
  const flat = new Float64Array(count * length);
  for (const [i, seed] of benchmarkSeeds(count).entries()) flat.set(generateCoulombPeakTrace(seed, { length }).trace, i * length);
  return flat;
}

async function helloFastify(sameBodyFile: string): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [resolve('dist/bench/perf/hello-fastify.js')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, BENCH_SAME_BODY: sameBodyFile },
  });
  const port = await new Promise<string>((done) => child.stdout.once('data', (d) => done(String(d).trim())));
  return { url: `http://127.0.0.1:${port}/`, stop: () => child.kill() };
}

type Auth = { authorization: string };

/**
 * CPU time (user + system, ms) the QDC processes have used so far, from /proc (Linux; NaN elsewhere). Unlike wall time it
 * hardly depends on what else the machine runs, so before/after comparisons on a shared machine stay meaningful.
 */
function serviceCpuMs(sut: System): number {
  let total = 0;
  for (const ms of serviceCpuByProcess(sut).values()) total += ms;
  return total;
}

/** The same per process (name → CPU ms so far). */
function serviceCpuByProcess(sut: System): Map<string, number> {
  const byProcess = new Map<string, number>();
  for (const [name, child] of sut.processes) {
    try {
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      byProcess.set(name, ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND);
    } catch {
      byProcess.set(name, Number.NaN);
    }
  }
  return byProcess;
}
const CLOCK_TICKS_PER_SECOND = 100;
type System = Awaited<ReturnType<typeof startSystem>>;

/** (a) routing + auth + catalogue vs bare Fastify, interleaved rounds (medians) against machine noise. */
async function measureCatalogueThroughput(sut: System, auth: Auth, seconds: number): Promise<void> {
  console.log(`(a) load generator: ${loadClient}${loadClient === 'autocannon' ? " (install Debian's wrk: autocannon is the bottleneck for kB bodies)" : ''}`);
  const modelsUrl = `${sut.baseUrl}/v0/models`;
  const body = Buffer.from(await (await fetch(modelsUrl, { headers: auth })).arrayBuffer());
  const bodyFile = join(mkdtempSync(join(tmpdir(), 'qdc-bench-')), 'models.json');
  writeFileSync(bodyFile, body);
  const hello = await helloFastify(bodyFile);
  const sameUrl = `${hello.url}same`;
  await httpLoad(hello.url, { connections: 16, seconds: 1 });
  await httpLoad(sameUrl, { connections: 16, seconds: 1 });
  await httpLoad(modelsUrl, { connections: 16, seconds: 1, headers: auth });
  const bareRounds: number[] = [];
  const sameRounds: number[] = [];
  const ourRounds: number[] = [];
  let failures = 0;
  for (let round = 0; round < 3; round++) {
    bareRounds.push((await httpLoad(hello.url, { connections: 16, seconds })).requestsPerSecond);
    sameRounds.push((await httpLoad(sameUrl, { connections: 16, seconds })).requestsPerSecond);
    const ours = await httpLoad(modelsUrl, { connections: 16, seconds, headers: auth });
    ourRounds.push(ours.requestsPerSecond);
    failures += ours.errors + ours.non2xx;
  }
  hello.stop();
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  const ratioA = median(ourRounds) / median(bareRounds);
  report(
    `(a) GET /v0/models req/s (${loadClient}, 16 conns, median of 3)`,
    median(ourRounds).toFixed(0),
    `${median(bareRounds).toFixed(0)} (bare Fastify hello-world)`,
    ratioA.toFixed(2),
    '≥ 0.5',
    ratioA >= 0.5 && failures === 0,
  );
  // The catalogue body is ~20 kB against hello-world's 17 bytes: the same bytes from bare Fastify show how much of
  // the gap is payload rather than routing, auth and the catalogue.
  const ratioSame = median(ourRounds) / median(sameRounds);
  report(
    `(a) same, vs bare Fastify sending the same ${(body.length / 1024).toFixed(1)} kB`,
    median(ourRounds).toFixed(0),
    `${median(sameRounds).toFixed(0)} (bare Fastify, same body)`,
    ratioSame.toFixed(2),
    'info',
    null,
  );
  // What the Python client (httpx) asks for: Accept-Encoding gzip, answered with the cached gzipped page.
  const gzipped = await httpLoad(modelsUrl, { connections: 16, seconds, headers: { ...auth, 'accept-encoding': 'gzip, deflate' } });
  const ratioGzip = gzipped.requestsPerSecond / median(bareRounds);
  report(
    '(a) same, Accept-Encoding: gzip (as httpx sends), one round',
    gzipped.requestsPerSecond.toFixed(0),
    `${median(bareRounds).toFixed(0)} (bare Fastify hello-world)`,
    ratioGzip.toFixed(2),
    'info',
    null,
  );
}

/** (b) one 128-point run end to end, one at a time and 16 at a time. */
async function measureRunLatency(sut: System, auth: Auth): Promise<void> {
  const one = encodeNpy({ shape: [128], data: traces(1, 128) });
  const runOnce = async (): Promise<number> => {
    const start = performance.now();
    const res = await fetch(`${sut.baseUrl}/v0/models`, { method: 'POST', headers: auth, body: multipart({ model: PEAK_V2 }, { name: 't.npy', bytes: one }) });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`run answered ${res.status}`);
    return performance.now() - start;
  };
  for (let i = 0; i < 20; i++) await runOnce();
  const serial: number[] = [];
  const cpuBefore = serviceCpuByProcess(sut);
  for (let i = 0; i < 200; i++) serial.push(await runOnce());
  const cpuAfter = serviceCpuByProcess(sut);
  const perProcess = [...cpuAfter].map(([name, ms]) => [name, (ms - (cpuBefore.get(name) ?? 0)) / 200] as const);
  const cpuPerRun = perProcess.reduce((sum, [, ms]) => sum + ms, 0);
  serial.sort((x, y) => x - y);
  const p50 = percentile(serial, 50);
  report('(b) run 128 pts, concurrency 1: p50 / p99 ms', `${p50.toFixed(1)} / ${percentile(serial, 99).toFixed(1)}`, '', '', 'p50 ≤ 3 ms', p50 <= 3);
  report('(b) CPU ms per run, all QDC processes (load-independent)', cpuPerRun.toFixed(2), '', '', 'info', null);
  const busiest = perProcess.filter(([, ms]) => ms >= 0.5).sort((a, b) => b[1] - a[1]);
  report('(b) CPU ms per run by process', busiest.map(([name, ms]) => `${name} ${ms.toFixed(1)}`).join(', '), '', '', 'info', null);
  const concurrent: number[] = [];
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let i = 0; i < 25; i++) {
        try {
          concurrent.push(await runOnce());
        } catch {
          errors += 1;
        }
      }
    }),
  );
  const runsPerSecond = concurrent.length / ((performance.now() - started) / 1000);
  concurrent.sort((x, y) => x - y);
  report(
    '(b) run 128 pts, concurrency 16: p50 / p99 ms',
    `${percentile(concurrent, 50).toFixed(1)} / ${percentile(concurrent, 99).toFixed(1)}`,
    `${errors} errors of 400`,
    '',
    'no errors',
    errors === 0,
  );
  report(
    '(b) run 128 pts, concurrency 16: runs/s',
    runsPerSecond.toFixed(0),
    `${errors} errors of 400`,
    '',
    '≥ 600 runs/s, 0 errors',
    runsPerSecond >= 600 && errors === 0,
  );
}

/** (c) a (10000, 128) batch end to end vs the algorithm alone. */
async function measureBatchThroughput(sut: System, auth: Auth, flat: Float64Array, N: number): Promise<void> {
  const batchBytes = encodeNpy({ shape: [N, 128], data: flat });
  const pureTimes: number[] = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    runModelBatch(PEAK_V2, { shape: [N, 128], data: flat });
    pureTimes.push(performance.now() - start);
  }
  const pure = N / (Math.min(...pureTimes) / 1000);
  const e2eTimes: number[] = [];
  const cpuBefore = serviceCpuMs(sut);
  for (let i = 0; i < 4; i++) {
    const start = performance.now();
    const res = await fetch(`${sut.baseUrl}/v0/models/batch`, {
      method: 'POST',
      headers: auth,
      body: multipart({ model: PEAK_V2 }, { name: 'b.npy', bytes: batchBytes }),
    });
    await res.json();
    if (res.status !== 200) throw new Error(`batch answered ${res.status}`);
    e2eTimes.push(performance.now() - start);
  }
  const cpuPerBatch = (serviceCpuMs(sut) - cpuBefore) / 4;
  e2eTimes.sort((x, y) => x - y);
  const e2e = N / (e2eTimes[Math.floor(e2eTimes.length / 2)]! / 1000);
  report(
    '(c) (10000,128) batch traces/s end to end',
    e2e.toFixed(0),
    `${pure.toFixed(0)} (algorithm alone)`,
    (e2e / pure).toFixed(2),
    'ratio ≥ 0.8',
    e2e / pure >= 0.8,
  );
  const pureMs = (N / pure) * 1000;
  report(
    '(c) CPU ms per batch, all QDC processes',
    cpuPerBatch.toFixed(0),
    `${pureMs.toFixed(0)} (algorithm alone)`,
    (pureMs / cpuPerBatch).toFixed(2),
    'info',
    null,
  );
}

/** (d) per-trace detection vs scipy.signal.find_peaks on the same traces. */
function measureAgainstScipy(flat: Float64Array, M: number): void {
  const dTraces = flat.subarray(0, M * 128);
  const dir = mkdtempSync(join(tmpdir(), 'qdc-bench-'));
  writeFileSync(join(dir, 'traces.npy'), encodeNpy({ shape: [M, 128], data: dTraces }));
  let best = Infinity;
  for (let r = 0; r < 5; r++) {
    const start = performance.now();
    for (let i = 0; i < M; i++) runModel(PEAK_V2, { shape: [128], data: dTraces.subarray(i * 128, (i + 1) * 128) });
    best = Math.min(best, performance.now() - start);
  }
  const oursUs = (best / M) * 1000;
  const py = spawnSync('python3', [resolve('bench/perf/scipy_find_peaks.py'), join(dir, 'traces.npy')], { encoding: 'utf8' });
  if (py.status !== 0) {
    report('(d) per-trace µs vs scipy find_peaks', oursUs.toFixed(2), 'scipy unavailable (skipped)', '', '≤ 1.0', null);
    console.log(`(d) skipped: python3 with numpy+scipy not available (${py.stderr.trim().split('\n').at(-1)})`);
  } else {
    const scipyUs = JSON.parse(py.stdout).per_trace_us as number;
    report(
      '(d) per-trace µs: v2 vs scipy find_peaks',
      oursUs.toFixed(2),
      `${scipyUs.toFixed(2)} (scipy)`,
      (oursUs / scipyUs).toFixed(2),
      'ratio ≤ 1.0',
      oursUs / scipyUs <= 1.0,
    );
  }
}

async function main(): Promise<void> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  // BENCH_PARTS=ac runs only (a) and (c), for instance; every part by default.
  const parts = new Set((process.env.BENCH_PARTS ?? 'abcde').split(''));
  console.log('starting QDC (gateway, 1 inference worker, results, …) against local Postgres/Redis/NATS …');
  const sut = await startSystem({ env: { QDC_RATE_LIMIT_PER_MINUTE: '100000000', LOG_LEVEL: 'warn' } });
  try {
    const key = await sut.createKey('bench', 'control');
    const auth = { authorization: `Bearer ${key}` };
    if (parts.has('a')) await measureCatalogueThroughput(sut, auth, seconds);
    if (parts.has('b')) await measureRunLatency(sut, auth);
    const N = 10_000;
    const flat = parts.has('c') || parts.has('d') ? traces(N, 128) : new Float64Array(0);
    if (parts.has('c')) await measureBatchThroughput(sut, auth, flat, N);
    if (parts.has('d')) measureAgainstScipy(flat, 2000);
  } finally {
    await sut.stop();
  }
  printTable();
  if (!parts.has('e')) return;
  // (e) every catalogue model in process, vs decoding its input (bench/perf/model-latency.ts)
  const latency = measureModelLatency();
  printLatencyTable(latency.rows, latency.missing);
}

function printTable(): void {
  const header = ['metric', 'value', 'baseline (same run)', 'ratio', 'target', 'result'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(`\n${line(header)}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
  console.log(`\nperf: ${rows.filter((r) => r[5] === 'PASS').length} of ${rows.filter((r) => r[5] !== 'n/a').length} targets met`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
