/**
 * `npm run bench:assistant` — the assistant's offline engine through the real gateway, assistant
 * and NATS (JetStream), each number next to a same-run baseline (the machines are noisy):
 *  (a) time to first token and to `completed` (p50/p99) for offline answers, circuits ≤ 10 qubits
 *      and concept answers, vs the authenticated NATS round trip of GET /v0/coda/agents
 *  (b) concurrent streams for a while: streams completed, errors, gateway and assistant memory
 *      (BENCH_ASSISTANT_STREAMS, default 100; BENCH_ASSISTANT_SECONDS, default 60)
 *  (c) offline success rate per request kind on the task list (libs/assistant/src/offline-task-list.ts):
 *      the answer is a circuit, its code parses and simulates to the ideal distribution (Hellinger ≥ 0.99)
 */
import { readFileSync, readdirSync } from 'node:fs';
import { parseCircuit } from '#qdc/circuits';
import {
  KnowledgeBase,
  OFFLINE_TASKS,
  answerOffline,
  codeBlocks,
  hellingerFidelity,
  isCircuitBlock,
  measuredDistribution,
  parseRequest,
  synthesize,
} from '#qdc/assistant';
import { startSystem, type TestSystem } from '../test/medium/system.harness.js';
import { percentile } from './perf/http-load.js';

const STREAMS = Number(process.env.BENCH_ASSISTANT_STREAMS ?? 100);
const SECONDS = Number(process.env.BENCH_ASSISTANT_SECONDS ?? 60);
const CONCEPTS = [
  'What is a qubit?',
  'what is a T gate',
  'Explain superposition briefly',
  'what is T1',
  'explain the surface code',
  'what are Coulomb diamonds',
  'how do I run a model?',
  'tell me about teleportation',
];

interface Timing {
  firstToken: number;
  completed: number;
  ok: boolean;
  error?: string;
}

/** One streamed request; times from sending it to the first token event and to the terminal event. */
async function timeStream(system: TestSystem, key: string, content: string): Promise<Timing> {
  const t0 = performance.now();
  let firstToken = NaN;
  try {
    const response = await fetch(`${system.baseUrl}/v0/coda/agents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content }] }),
    });
    if (response.status !== 200) return { firstToken, completed: NaN, ok: false, error: `HTTP ${response.status}: ${(await response.text()).slice(0, 120)}` };
    let buffer = '';
    let terminal = '';
    const decoder = new TextDecoder();
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      if (Number.isNaN(firstToken) && buffer.includes('"type":"token"')) firstToken = performance.now() - t0;
      const m = /data: \{"type":"(completed|error|cancelled)"/.exec(buffer);
      if (m) terminal = m[1];
      if (buffer.length > 4096) buffer = buffer.slice(-512);
    }
    const completed = performance.now() - t0;
    return { firstToken, completed, ok: terminal === 'completed', ...(terminal === 'completed' ? {} : { error: `terminal ${terminal || 'missing'}` }) };
  } catch (error) {
    return { firstToken, completed: NaN, ok: false, error: (error as Error).message };
  }
}

const rssMiB = (pid: number | undefined): number => {
  if (!pid) return NaN;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
};

const fmt = (v: number, digits = 1) => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');
const table = (header: string[], rows: string[][]) => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log([line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n'));
};

function stats(timings: Timing[]) {
  const first = timings
    .map((t) => t.firstToken)
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  const done = timings
    .map((t) => t.completed)
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  return {
    firstP50: percentile(first, 50),
    firstP99: percentile(first, 99),
    doneP50: percentile(done, 50),
    doneP99: percentile(done, 99),
    ok: timings.filter((t) => t.ok).length,
    n: timings.length,
  };
}

async function main(): Promise<void> {
  // (c) first: in process, no services needed.
  const knowledge = new KnowledgeBase(
    readdirSync('docs/knowledge')
      .filter((n) => n.endsWith('.md'))
      .map((n) => ({ path: `docs/knowledge/${n}`, text: readFileSync(`docs/knowledge/${n}`, 'utf8') })),
  );
  const perKind = new Map<string, { n: number; ok: number; ms: number }>();
  const inProcess: number[] = [];
  for (const task of OFFLINE_TASKS) {
    const t0 = performance.now();
    const answer = answerOffline([{ role: 'user', content: task.request }], { codeMode: 'inline', knowledge });
    inProcess.push(performance.now() - t0);
    let ok = answer.kind === 'circuit' && parseRequest(task.request)?.task.kind === task.kind;
    if (ok) {
      const block = codeBlocks(answer.text).find(isCircuitBlock);
      if (!block) ok = false;
      else if (task.framework === 'pennylane' || task.framework === 'braket') ok = !task.ideal || (answer.verification?.fidelity ?? 0) >= 0.99;
      else {
        const d = measuredDistribution(parseCircuit(block.code).circuit);
        ok = task.ideal ? hellingerFidelity(d, task.ideal) >= 0.99 : Math.abs(Object.values(d).reduce((a, b) => a + b, 0) - 1) < 1e-9;
      }
    }
    const row = perKind.get(task.kind) ?? { n: 0, ok: 0, ms: 0 };
    row.n++;
    row.ok += ok ? 1 : 0;
    row.ms += inProcess.at(-1)!;
    perKind.set(task.kind, row);
  }

  const system = await startSystem({ env: { QDC_RATE_LIMIT_PER_MINUTE: '10000000', LOG_LEVEL: 'warn' } });
  try {
    const key = await system.createKey('bench', 'coda');
    const auth = { authorization: `Bearer ${key}` };
    for (const deadline = Date.now() + 60_000; (await fetch(`${system.baseUrl}/v0/coda/agents`, { headers: auth })).status !== 200; ) {
      if (Date.now() > deadline) throw new Error(`assistant not answering; logs in ${system.logDir}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    // Baseline: authenticated NATS round trip to the assistant (GET /v0/coda/agents).
    const baseline: number[] = [];
    for (let i = 0; i < 60; i++) {
      const t0 = performance.now();
      await (await fetch(`${system.baseUrl}/v0/coda/agents`, { headers: auth })).arrayBuffer();
      if (i >= 10) baseline.push(performance.now() - t0);
    }
    baseline.sort((a, b) => a - b);
    const base50 = percentile(baseline, 50);

    // (a) sequential offline answers (warm-up first).
    const small = OFFLINE_TASKS.filter((t) => {
      const parsed = parseRequest(t.request);
      return parsed && synthesize(parsed.task).circuit.numQubits <= 10;
    });
    for (const t of small.slice(0, 5)) await timeStream(system, key, t.request);
    const circuitTimings: Timing[] = [];
    for (let round = 0; round < 2; round++) for (const t of small) circuitTimings.push(await timeStream(system, key, t.request));
    const conceptTimings: Timing[] = [];
    for (let round = 0; round < 5; round++) for (const q of CONCEPTS) conceptTimings.push(await timeStream(system, key, q));
    const c = stats(circuitTimings);
    const k = stats(conceptTimings);
    const inProc = [...inProcess].sort((a, b) => a - b);
    console.log(
      `\n(a) offline answers, sequential, end to end (gateway → NATS → assistant → JetStream → SSE); baseline = GET /v0/coda/agents p50 ${fmt(base50)} ms (p99 ${fmt(percentile(baseline, 99))} ms); engine alone in process p50 ${fmt(percentile(inProc, 50), 2)} ms, p99 ${fmt(percentile(inProc, 99), 2)} ms`,
    );
    table(
      ['answers', 'n', 'ok', 'first token p50', 'p99', 'completed p50', 'p99', 'first token / completed p50 ÷ baseline p50', 'target'],
      [
        [
          `circuits ≤ 10 qubits (${small.length} requests × 2)`,
          String(c.n),
          String(c.ok),
          `${fmt(c.firstP50)} ms`,
          `${fmt(c.firstP99)} ms`,
          `${fmt(c.doneP50)} ms`,
          `${fmt(c.doneP99)} ms`,
          `${fmt(c.firstP50 / base50, 2)} / ${fmt(c.doneP50 / base50, 2)}`,
          `first token ≤ 50 ms at p50 ${c.firstP50 <= 50 ? 'PASS' : 'FAIL'}, p99 ${c.firstP99 <= 50 ? 'PASS' : 'FAIL'}; completed ≤ 300 ms at p50 ${c.doneP50 <= 300 ? 'PASS' : 'FAIL'}, p99 ${c.doneP99 <= 300 ? 'PASS' : 'FAIL'}`,
        ],
        [
          `concepts (${CONCEPTS.length} questions × 5)`,
          String(k.n),
          String(k.ok),
          `${fmt(k.firstP50)} ms`,
          `${fmt(k.firstP99)} ms`,
          `${fmt(k.doneP50)} ms`,
          `${fmt(k.doneP99)} ms`,
          `${fmt(k.firstP50 / base50, 2)} / ${fmt(k.doneP50 / base50, 2)}`,
          '',
        ],
      ],
    );

    // (b) concurrent streams.
    const pids = { gateway: system.processes.get('gateway')?.pid, assistant: system.processes.get('assistant')?.pid };
    const before = { gateway: rssMiB(pids.gateway), assistant: rssMiB(pids.assistant) };
    const peak = { ...before };
    const sampler = setInterval(() => {
      peak.gateway = Math.max(peak.gateway, rssMiB(pids.gateway));
      peak.assistant = Math.max(peak.assistant, rssMiB(pids.assistant));
    }, 250);
    const requests = [...OFFLINE_TASKS.map((t) => t.request), ...CONCEPTS];
    const until = Date.now() + SECONDS * 1000;
    const all: Timing[] = [];
    const errors = new Map<string, number>();
    await Promise.all(
      Array.from({ length: STREAMS }, async (_, worker) => {
        for (let i = worker; Date.now() < until; i += STREAMS) {
          const t = await timeStream(system, key, requests[i % requests.length]);
          all.push(t);
          if (!t.ok) errors.set(t.error ?? 'unknown', (errors.get(t.error ?? 'unknown') ?? 0) + 1);
        }
      }),
    );
    clearInterval(sampler);
    await new Promise((r) => setTimeout(r, 2000));
    const after = { gateway: rssMiB(pids.gateway), assistant: rssMiB(pids.assistant) };
    const s = stats(all);
    console.log(`\n(b) ${STREAMS} concurrent streams for ${SECONDS} s (each client: one request after another over the task list and concept questions)`);
    table(
      ['streams', 'completed', 'errors', 'streams/s', 'completed p50', 'p99', 'gateway RSS before / peak / after', 'assistant RSS before / peak / after'],
      [
        [
          String(s.n),
          String(s.ok),
          String(s.n - s.ok),
          fmt(s.n / SECONDS),
          `${fmt(s.doneP50)} ms`,
          `${fmt(s.doneP99)} ms`,
          `${fmt(before.gateway, 0)} / ${fmt(peak.gateway, 0)} / ${fmt(after.gateway, 0)} MiB`,
          `${fmt(before.assistant, 0)} / ${fmt(peak.assistant, 0)} / ${fmt(after.assistant, 0)} MiB`,
        ],
      ],
    );
    if (errors.size) console.log('errors:', Object.fromEntries(errors));
  } finally {
    await system.stop();
  }

  console.log(
    `\n(c) offline success rate on ${OFFLINE_TASKS.length} requests (kinds × phrasings × sizes × frameworks): circuit returned, parses, simulated distribution matches the ideal (Hellinger ≥ 0.99)`,
  );
  const rows = [...perKind.entries()].map(([kind, r]) => [kind, String(r.n), String(r.ok), `${((100 * r.ok) / r.n).toFixed(0)} %`, `${fmt(r.ms / r.n, 2)} ms`]);
  const total = [...perKind.values()].reduce((a, r) => ({ n: a.n + r.n, ok: a.ok + r.ok }), { n: 0, ok: 0 });
  rows.push(['all', String(total.n), String(total.ok), `${((100 * total.ok) / total.n).toFixed(1)} %`, '']);
  table(['kind', 'requests', 'ok', 'success', 'engine time / request'], rows);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
