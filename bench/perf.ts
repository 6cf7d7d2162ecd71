/**
 * `npm run bench:perf` — performance of the platform spine, each number next to a baseline
 * measured in the same run (the machines are noisy):
 *  (a) GET /v0/models requests/s vs a bare Fastify hello-world (ratio, target ≥ 0.5)
 *  (b) p50/p99 of one 128-point peak-detector run end to end at concurrency 1 and 16, vs the floor (bench/perf/floor.ts:
 *      the same hops with nothing of QDC's) and the monolith (bench/perf/monolith.ts: one process doing the same work
 *      with the same model code, no queue) — targets of #28: p50 ≤ 1.2 × the floor's; runs/s at 16 ≥ 1.5 × the floor's
 *      and ≥ the monolith's, 0 errors
 *  (c) traces/s of a (10000, 128) batch end to end vs the pure algorithm in one process (≥ 0.6; CPU ≤ 2 × the algorithm's)
 *  (d) per-trace peak detection vs scipy.signal.find_peaks on identical traces (ratio ≤ 1.0)
 *  (e) per-call latency of every catalogue model in process vs decoding its input (also `npm run bench:models`)
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { encodeNpy } from '#qdc/arrays';
import { runModel, runModelBatch } from '#qdc/characterization';
import { generateCoulombPeakTrace, benchmarkSeeds } from '#qdc/device-physics';
import { multipart, startSystem } from '../test/medium/system.harness.js';
import { httpLoad, loadClient, percentile } from './perf/http-load.js';
import { leanPoster, startFloor } from './perf/run-path.js';
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
function serviceCpuByProcess(sut: { processes: Map<string, ChildProcess> }): Map<string, number> {
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

/** The monolith baseline (bench/perf/monolith.ts) on the system's Postgres; resolves with its URL. */
async function startMonolith(sut: System, key: string): Promise<{ url: string; processes: Map<string, ChildProcess>; stop: () => void }> {
  const child = spawn(process.execPath, [resolve('dist/bench/perf/monolith.js')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...sut.env, MONOLITH_KEY: key },
  });
  const port = await new Promise<string>((done, fail) => {
    child.stdout!.once('data', (d) => done(String(d).trim()));
    child.once('exit', (code) => fail(new Error(`monolith exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}/v0/models`, processes: new Map([['monolith', child]]), stop: () => child.kill() };
}

/** One run through fetch with the multipart form built per request, timed (ms) until the answer is parsed (as a client would); 200 or it throws. */
async function timedFetchRun(url: string, auth: Auth, fileName: string, bytes: Uint8Array): Promise<number> {
  const start = performance.now();
  const res = await fetch(url, { method: 'POST', headers: auth, body: multipart({ model: PEAK_V2 }, { name: fileName, bytes }) });
  await res.json();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return performance.now() - start;
}

/** Serial runs: latencies (ms). */
async function serialRuns(post: () => Promise<number>, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) times.push(await post());
  return times;
}

/** `connections` closed loops of `each` runs: runs/s and errors. */
async function concurrentRuns(post: () => Promise<number>, connections: number, each: number): Promise<{ perSecond: number; errors: number; times: number[] }> {
  const times: number[] = [];
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      for (let i = 0; i < each; i++) {
        try {
          times.push(await post());
        } catch {
          errors += 1;
        }
      }
    }),
  );
  return { perSecond: times.length / ((performance.now() - started) / 1000), errors, times: times.sort((x, y) => x - y) };
}

/**
 * (b) one 128-point run end to end, one at a time and 16 at a time, against the floor (the same hops with nothing of
 * QDC's in them) measured in the same run, in alternating rounds.
 */
async function measureRunLatency(sut: System, auth: Auth, key: string): Promise<void> {
  const one = encodeNpy({ shape: [128], data: traces(1, 128) });
  const form = new Request('http://x/', { method: 'POST', body: multipart({ model: PEAK_V2 }, { name: 't.npy', bytes: one }) });
  const body = Buffer.from(await form.arrayBuffer());
  const headers = { ...auth, 'content-type': form.headers.get('content-type')! };
  const floor = await startFloor(sut);
  const monolith = await startMonolith(sut, key);
  try {
    const ours1 = leanPoster(`${sut.baseUrl}/v0/models`, headers, body, 1);
    const floor1 = leanPoster(floor.url, { 'content-type': 'application/octet-stream' }, body, 1);
    const mono1 = leanPoster(monolith.url, headers, body, 1);
    await serialRuns(ours1, 30);
    await serialRuns(floor1, 30);
    await serialRuns(mono1, 30);
    const ours: number[] = [];
    const base: number[] = [];
    const mono: number[] = [];
    let cpuPerRun = 0;
    let perProcess: (readonly [string, number])[] = [];
    const floorCpu = new Map<string, number>();
    let monoCpu = 0;
    for (let round = 0; round < 4; round++) {
      const cpuBefore = serviceCpuByProcess(sut);
      ours.push(...(await serialRuns(ours1, 100)));
      const cpuAfter = serviceCpuByProcess(sut);
      const roundPerProcess = [...cpuAfter].map(([name, ms]) => [name, (ms - (cpuBefore.get(name) ?? 0)) / 100] as const);
      perProcess = roundPerProcess.map(([name, ms]) => [name, (perProcess.find(([n]) => n === name)?.[1] ?? 0) + ms / 4] as const);
      cpuPerRun += roundPerProcess.reduce((sum, [, ms]) => sum + ms, 0) / 4;
      const floorBefore = serviceCpuByProcess(floor);
      base.push(...(await serialRuns(floor1, 100)));
      for (const [name, ms] of serviceCpuByProcess(floor)) floorCpu.set(name, (floorCpu.get(name) ?? 0) + (ms - (floorBefore.get(name) ?? 0)) / 400);
      const monoBefore = serviceCpuByProcess(monolith).get('monolith')!;
      mono.push(...(await serialRuns(mono1, 100)));
      monoCpu += (serviceCpuByProcess(monolith).get('monolith')! - monoBefore) / 400;
    }
    ours.sort((x, y) => x - y);
    base.sort((x, y) => x - y);
    mono.sort((x, y) => x - y);
    const p50 = percentile(ours, 50);
    const floorP50 = percentile(base, 50);
    report(
      '(b) run 128 pts, concurrency 1: p50 / p99 ms',
      `${p50.toFixed(1)} / ${percentile(ours, 99).toFixed(1)}`,
      `${floorP50.toFixed(1)} / ${percentile(base, 99).toFixed(1)} (floor: same hops, no QDC)`,
      (p50 / floorP50).toFixed(2),
      'p50 ≤ 1.2 × floor',
      p50 <= 1.2 * floorP50,
    );
    report(
      '(b) same, the monolith (one process, no queue): p50 / p99 ms',
      `${percentile(mono, 50).toFixed(1)} / ${percentile(mono, 99).toFixed(1)}`,
      '',
      (p50 / percentile(mono, 50)).toFixed(2),
      'info',
      null,
    );
    // The client of earlier tables (fetch + FormData per request), one round, for continuity.
    const viaFetch = await serialRuns(() => timedFetchRun(`${sut.baseUrl}/v0/models`, auth, 't.npy', one), 100);
    report(
      "(b) same, p50 with fetch + FormData per request (earlier tables' client)",
      percentile(
        viaFetch.sort((x, y) => x - y),
        50,
      ).toFixed(1),
      '',
      '',
      'info',
      null,
    );
    report(
      '(b) CPU ms per run, all QDC processes (load-independent)',
      cpuPerRun.toFixed(2),
      `floor ${[...floorCpu.values()].reduce((a, b) => a + b, 0).toFixed(2)}, monolith ${monoCpu.toFixed(2)}`,
      '',
      'info',
      null,
    );
    const busiest = perProcess.filter(([, ms]) => ms >= 0.5).sort((a, b) => b[1] - a[1]);
    report(
      '(b) CPU ms per run by process',
      busiest.map(([name, ms]) => `${name} ${ms.toFixed(1)}`).join(', '),
      `floor: ${[...floorCpu].map(([name, ms]) => `${name} ${ms.toFixed(1)}`).join(', ')}`,
      '',
      'info',
      null,
    );

    const ours16 = leanPoster(`${sut.baseUrl}/v0/models`, headers, body, 16);
    const floor16 = leanPoster(floor.url, { 'content-type': 'application/octet-stream' }, body, 16);
    const mono16 = leanPoster(monolith.url, headers, body, 16);
    const oursRates: number[] = [];
    const floorRates: number[] = [];
    const monoRates: number[] = [];
    let errors = 0;
    let latest: number[] = [];
    let cpu16 = 0;
    let runs16 = 0;
    for (let round = 0; round < 3; round++) {
      const cpuBefore = serviceCpuMs(sut);
      const o = await concurrentRuns(ours16, 16, 50);
      cpu16 += serviceCpuMs(sut) - cpuBefore;
      runs16 += o.times.length;
      oursRates.push(o.perSecond);
      errors += o.errors;
      latest = o.times;
      floorRates.push((await concurrentRuns(floor16, 16, 50)).perSecond);
      const m = await concurrentRuns(mono16, 16, 50);
      monoRates.push(m.perSecond);
      errors += m.errors;
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    const rate = median(oursRates);
    const floorRate = median(floorRates);
    const monoRate = median(monoRates);
    report(
      '(b) run 128 pts, concurrency 16: p50 / p99 ms (last round)',
      `${percentile(latest, 50).toFixed(1)} / ${percentile(latest, 99).toFixed(1)}`,
      `${errors} errors of ${3 * 16 * 50 * 2} (QDC and monolith)`,
      '',
      'no errors',
      errors === 0,
    );
    report(
      '(b) run 128 pts, concurrency 16: runs/s (median of 3)',
      rate.toFixed(0),
      `${floorRate.toFixed(0)} (floor)`,
      (rate / floorRate).toFixed(2),
      '≥ 1.5 × floor, 0 errors',
      rate >= 1.5 * floorRate && errors === 0,
    );
    report('(b) same, vs the monolith', rate.toFixed(0), `${monoRate.toFixed(0)} (monolith)`, (rate / monoRate).toFixed(2), '≥ 1 × monolith', rate >= monoRate);
    report('(b) concurrency 16: CPU ms per run, all QDC processes', (cpu16 / runs16).toFixed(2), '', '', 'info', null);
  } finally {
    floor.stop();
    monolith.stop();
  }
}

/** (c) a (10000, 128) batch end to end vs the algorithm alone. */
async function measureBatchThroughput(sut: System, auth: Auth, flat: Float64Array, N: number): Promise<void> {
  const batchBytes = encodeNpy({ shape: [N, 128], data: flat });
  // Both sides the same way: one warm-up (JIT, the worker's batch threads), then the median of five.
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  const pureTimes: number[] = [];
  for (let i = 0; i < 6; i++) {
    const start = performance.now();
    runModelBatch(PEAK_V2, { shape: [N, 128], data: flat });
    if (i > 0) pureTimes.push(performance.now() - start);
  }
  const pure = N / (median(pureTimes) / 1000);
  const batchOnce = () => timedFetchRun(`${sut.baseUrl}/v0/models/batch`, auth, 'b.npy', batchBytes);
  await batchOnce();
  const e2eTimes: number[] = [];
  const cpuBefore = serviceCpuMs(sut);
  for (let i = 0; i < 5; i++) e2eTimes.push(await batchOnce());
  const cpuPerBatch = (serviceCpuMs(sut) - cpuBefore) / 5;
  const e2e = N / (median(e2eTimes) / 1000);
  report(
    '(c) (10000,128) batch traces/s end to end (median of 5 after a warm-up, both)',
    e2e.toFixed(0),
    `${pure.toFixed(0)} (algorithm alone)`,
    (e2e / pure).toFixed(2),
    'ratio ≥ 0.6',
    e2e / pure >= 0.6,
  );
  const pureMs = (N / pure) * 1000;
  report(
    '(c) CPU ms per batch, all QDC processes',
    cpuPerBatch.toFixed(0),
    `${pureMs.toFixed(0)} (algorithm alone)`,
    (cpuPerBatch / pureMs).toFixed(2),
    '≤ 2 × algorithm',
    cpuPerBatch <= 2 * pureMs,
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
  // The services get this process's environment: QDC_RUN_GROUP_MAX=1 measures the run path without dynamic batching.
  const sut = await startSystem({ env: { QDC_RATE_LIMIT_PER_MINUTE: '100000000', LOG_LEVEL: 'warn' } });
  try {
    const key = await sut.createKey('bench', 'control');
    const auth = { authorization: `Bearer ${key}` };
    if (parts.has('a')) await measureCatalogueThroughput(sut, auth, seconds);
    if (parts.has('b')) await measureRunLatency(sut, auth, key);
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
