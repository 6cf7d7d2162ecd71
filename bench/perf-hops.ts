/**
 * `npm run bench:hops` — where a lone small run's milliseconds go, hop by hop, QDC next to the floor
 * (bench/perf/floor.ts: the same queue, NATS and Postgres hops with nothing of QDC's), measured in the same run.
 *
 * Each system gets serial 128-point runs (concurrency 1, as bench:perf (b)); a loopback packet capture (tcpdump, so
 * this needs root and the Debian package `tcpdump`) timestamps every message between the processes, Redis, NATS and
 * Postgres, and each run's timeline is cut into the twelve moments below. The capture sees the wire, so nothing in the
 * services is instrumented and the numbers are what a run waits for: the time between two moments is the work of the
 * process that holds the run then (its CPU, its event loop's queue) plus one loopback hop.
 * Env: BENCH_HOP_RUNS (runs per system, default 200), QDC_RUN_GROUP_MAX etc. are passed on to the services.
 */
import { spawn, execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeNpy } from '#qdc/arrays';
import { generateCoulombPeakTrace } from '#qdc/device-physics';
import { multipart, startSystem } from '../test/medium/system.harness.js';
import { leanPoster, startFloor } from './perf/run-path.js';

const PEAK_V2 = 'coulomb-blockade-peak-detector-v2';

interface Packet {
  at: number;
  from: string;
  to: string;
  length: number;
  text: string;
}

/** Who holds the run between two moments: front (gateway or floor front), worker, store (results or floor store). */
type Role = 'front' | 'worker' | 'store';

/** The moments of one run, in order; each is the first packet after the previous moment that matches. */
const MOMENTS: { name: string; holder: Role | 'wire'; match: (p: Packet, who: (port: string) => string) => boolean }[] = [
  { name: 'HTTP request in', holder: 'front', match: (p, who) => who(p.to) === 'front:http' && p.length > 0 },
  { name: 'job added (Redis)', holder: 'wire', match: (p, who) => who(p.from) === 'front' && /evalsha/.test(p.text) },
  { name: 'job data at worker', holder: 'worker', match: (p, who) => who(p.to) === 'worker' && p.length > 200 && /data/.test(p.text) },
  { name: 'store request sent', holder: 'wire', match: (p, who) => who(p.from) === 'worker' && /H?PUB \S*(results|store)/.test(p.text) },
  { name: 'store request at store', holder: 'store', match: (p, who) => who(p.to) === 'store' && /H?MSG \S*(results|store)/.test(p.text) },
  { name: 'INSERT sent', holder: 'wire', match: (p, who) => who(p.from) === 'store' && p.length > 100 && !/PUB|PING|PONG/.test(p.text) },
  { name: 'INSERT committed', holder: 'store', match: (p, who) => who(p.to) === 'store' && p.length > 30 && !/MSG|PING|PONG/.test(p.text) },
  { name: 'reply sent', holder: 'wire', match: (p, who) => who(p.from) === 'store' && /H?PUB _INBOX/.test(p.text) },
  { name: 'reply at worker', holder: 'worker', match: (p, who) => who(p.to) === 'worker' && /H?MSG _INBOX/.test(p.text) },
  { name: 'outcome sent', holder: 'wire', match: (p, who) => who(p.from) === 'worker' && /H?PUB \S*outcome/.test(p.text) },
  { name: 'outcome at front', holder: 'front', match: (p, who) => who(p.to) === 'front' && /H?MSG \S*outcome/.test(p.text) },
  { name: 'HTTP answer out', holder: 'front', match: (p, who) => who(p.from) === 'front:http' && p.length > 0 },
];

/** Local port → role, from the established sockets of each process (`ss`). */
function portsOf(pids: Map<number, Role>): Map<string, Role> {
  const ports = new Map<string, Role>();
  for (const line of execFileSync('ss', ['-tnpH', 'state', 'established'], { encoding: 'utf8' }).split('\n')) {
    const m = /\S+:(\d+)\s+\S+:\d+\s+users:\(\("[^"]*",pid=(\d+)/.exec(line);
    const role = m && pids.get(Number(m[2]));
    if (m && role) ports.set(m[1]!, role);
  }
  return ports;
}

function readCapture(file: string): Packet[] {
  const text = execFileSync('tcpdump', ['-r', file, '-tt', '-nn', '-A'], { encoding: 'latin1', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });
  const packets: Packet[] = [];
  let current: Packet | undefined;
  for (const line of text.split('\n')) {
    const m = /^(\d+\.\d+) IP [\d.]+\.(\d+) > [\d.]+\.(\d+): .*length (\d+)/.exec(line);
    if (m) {
      current = { at: Number(m[1]) * 1000, from: m[2]!, to: m[3]!, length: Number(m[4]), text: '' };
      packets.push(current);
    } else if (current) current.text += line;
  }
  return packets;
}

/** Each run's moments (ms, NaN when one was not seen), from the packets between its start and the next run's. */
function timelines(packets: Packet[], starts: number[], who: (port: string) => string): number[][] {
  return starts.map((start, i) => {
    const window = packets.filter((p) => p.at >= start - 1 && p.at < (starts[i + 1] ?? Number.POSITIVE_INFINITY));
    let from = 0;
    return MOMENTS.map(({ match }) => {
      const k = window.findIndex((p, n) => n >= from && match(p, who));
      if (k < 0) return Number.NaN;
      from = k;
      return window[k]!.at;
    });
  });
}

const median = (values: number[]): number => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  return sorted[sorted.length >> 1] ?? Number.NaN;
};

async function main(): Promise<void> {
  if (spawnSync('tcpdump', ['--version']).error) throw new Error('bench:hops needs tcpdump (apt-get install tcpdump) and root');
  const runs = Number(process.env.BENCH_HOP_RUNS ?? 200);
  const sut = await startSystem({ env: { QDC_RATE_LIMIT_PER_MINUTE: '100000000', LOG_LEVEL: 'warn' } });
  const floor = await startFloor(sut);
  const dir = mkdtempSync(join(tmpdir(), 'qdc-hops-'));
  try {
    const key = await sut.createKey('bench', 'control');
    const one = encodeNpy({ shape: [128], data: generateCoulombPeakTrace(1, { length: 128 }).trace });
    const form = new Request('http://x/', { method: 'POST', body: multipart({ model: PEAK_V2 }, { name: 't.npy', bytes: one }) });
    const body = Buffer.from(await form.arrayBuffer());
    const ours = leanPoster(`${sut.baseUrl}/v0/models`, { authorization: `Bearer ${key}`, 'content-type': form.headers.get('content-type')! }, body, 1);
    const base = leanPoster(floor.url, { 'content-type': 'application/octet-stream' }, body, 1);
    for (let i = 0; i < 300; i++) {
      await ours();
      await base();
    }
    const pids = new Map<number, Role>([
      [sut.processes.get('gateway')!.pid!, 'front'],
      [sut.processes.get('worker-0')!.pid!, 'worker'],
      [sut.processes.get('results')!.pid!, 'store'],
    ]);
    const floorPids = new Map<number, Role>([
      [floor.processes.get('front')!.pid!, 'front'],
      [floor.processes.get('worker')!.pid!, 'worker'],
      [floor.processes.get('store')!.pid!, 'store'],
    ]);
    const ourPorts = portsOf(pids);
    const floorPorts = portsOf(floorPids);
    const httpPort = { ours: new URL(sut.baseUrl).port, floor: new URL(floor.url).port };
    const capture = join(dir, 'run-path.pcap');
    const dump = spawn('tcpdump', ['-i', 'lo', '-nn', '-s', '400', '-w', capture, 'tcp and (len > 66)'], { stdio: 'ignore' });
    await new Promise((done) => setTimeout(done, 1500));
    const starts = { ours: [] as number[], floor: [] as number[] };
    const latency = { ours: [] as number[], floor: [] as number[] };
    // Alternating, with a pause between runs so that each run's packets stand apart.
    for (let i = 0; i < runs; i++) {
      starts.ours.push(Date.now());
      latency.ours.push(await ours());
      await new Promise((done) => setTimeout(done, 5));
      starts.floor.push(Date.now());
      latency.floor.push(await base());
      await new Promise((done) => setTimeout(done, 5));
    }
    await new Promise((done) => setTimeout(done, 500));
    dump.kill('SIGINT');
    await new Promise((done) => dump.once('exit', done));
    const packets = readCapture(capture);
    const who = (ports: Map<string, Role>, http: string) => (port: string) => (port === http ? 'front:http' : (ports.get(port) ?? port));
    const lines = {
      ours: timelines(packets, starts.ours, who(ourPorts, httpPort.ours)),
      floor: timelines(packets, starts.floor, who(floorPorts, httpPort.floor)),
    };
    console.log(`\n${runs} serial runs each, medians (ms); a step is the time from one moment to the next, held by the process named`);
    console.log(`| step | held by | QDC | floor | QDC − floor |\n|---|---|---|---|---|`);
    let sums = [0, 0];
    for (let k = 1; k < MOMENTS.length; k++) {
      const step = (rows: number[][]) => median(rows.map((r) => r[k]! - r[k - 1]!));
      const [q, f] = [step(lines.ours), step(lines.floor)];
      sums = [sums[0]! + q, sums[1]! + f];
      const holder = MOMENTS[k - 1]!.holder === 'wire' ? 'loopback + receiver' : MOMENTS[k - 1]!.holder;
      console.log(`| ${MOMENTS[k - 1]!.name} → ${MOMENTS[k]!.name} | ${holder} | ${q.toFixed(3)} | ${f.toFixed(3)} | ${(q - f).toFixed(3)} |`);
    }
    const seen = (rows: number[][]) => rows.filter((r) => r.every(Number.isFinite)).length;
    console.log(`| sum of the step medians | | ${sums[0]!.toFixed(3)} | ${sums[1]!.toFixed(3)} | ${(sums[0]! - sums[1]!).toFixed(3)} |`);
    console.log(
      `| client p50 (whole run) | | ${median(latency.ours).toFixed(3)} | ${median(latency.floor).toFixed(3)} | ratio ${(median(latency.ours) / median(latency.floor)).toFixed(2)} |`,
    );
    console.log(`runs with every moment seen: QDC ${seen(lines.ours)}/${runs}, floor ${seen(lines.floor)}/${runs}`);
  } finally {
    floor.stop();
    await sut.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
