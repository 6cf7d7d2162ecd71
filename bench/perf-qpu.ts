/**
 * `npm run bench:qpu` — the QPU job path end to end (gateway → broker → Postgres → BullMQ → simulation
 * worker → broker), each number next to a baseline measured in the same run (the machines are noisy):
 *  (a) submit → completed latency of a 100-shot Bell job on a noiseless simulated device with no device
 *      time (p50, p99, sequential), vs the inline POST /tools/simulate round trip of the same circuit;
 *  (b) sustained completed jobs/s with 16 concurrent clients (each submits, waits for completion, repeats)
 *      on that one device (it runs one job at a time), vs /tools/simulate requests/s at concurrency 16;
 * then the compiler's routing benchmark (bench/qpu-routing.ts) when it is present.
 * Completion is observed on the broker's `qpu.job.status-changed.v1` events, as a client that polls would see it at best.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { startSystem } from '../test/medium/system.harness.js';
import { BELL_QISKIT, writeTestDevices } from '../test/medium/qpu.fixtures.js';
import { percentile } from './perf/http-load.js';

const SEQUENTIAL_JOBS = Number(process.env.BENCH_QPU_JOBS ?? 60);
const SECONDS = Number(process.env.BENCH_QPU_SECONDS ?? 10);
const CONCURRENCY = 16;

async function main(): Promise<void> {
  const devices = writeTestDevices([{ id: 'bench-2', shotTimeUs: 0, qubits: 2 }]);
  const sut = await startSystem({ env: { QDC_QPU_DEVICES_DIR: devices, LOG_LEVEL: 'warn' } });
  try {
    const token = await sut.createKey('bench', 'coda');
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const nc = await connect({ servers: sut.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
    const waiting = new Map<string, (status: string) => void>();
    const early = new Map<string, string>();
    nc.subscribe(`${sut.namespace}.qpu.job.status-changed.v1`, {
      callback: (_err, msg) => {
        const e = JSON.parse(new TextDecoder().decode(msg.data)) as { jobId: string; to: string };
        if (e.to === 'queued' || e.to === 'running') return;
        const done = waiting.get(e.jobId);
        if (done) done(e.to);
        else early.set(e.jobId, e.to);
      },
    });
    await nc.flush();

    /** One job: submit, then resolve on its terminal event. Returns ms and whether it completed. */
    const runJob = async (): Promise<{ ms: number; ok: boolean }> => {
      const t0 = performance.now();
      const res = await fetch(`${sut.baseUrl}/v0/coda/qpus`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ code: BELL_QISKIT, source_framework: 'qiskit', backend: 'bench-2', shots: 100 }),
      });
      const body = (await res.json()) as { job_id?: string };
      if (res.status !== 200 || !body.job_id) return { ms: performance.now() - t0, ok: false };
      const status = early.get(body.job_id) ?? (await new Promise<string>((done) => waiting.set(body.job_id!, done)));
      waiting.delete(body.job_id);
      early.delete(body.job_id);
      return { ms: performance.now() - t0, ok: status === 'completed' };
    };
    const simulateOnce = async (): Promise<{ ms: number; ok: boolean }> => {
      const t0 = performance.now();
      const res = await fetch(`${sut.baseUrl}/v0/coda/tools/simulate`, { method: 'POST', headers, body: JSON.stringify({ code: BELL_QISKIT, shots: 100 }) });
      await res.arrayBuffer();
      return { ms: performance.now() - t0, ok: res.status === 200 };
    };

    for (let i = 0; i < 5; i++) await Promise.all([runJob(), simulateOnce()]); // warm-up
    const latencies = async (fn: () => Promise<{ ms: number; ok: boolean }>) => {
      const ms: number[] = [];
      let errors = 0;
      for (let i = 0; i < SEQUENTIAL_JOBS; i++) {
        const r = await fn();
        ms.push(r.ms);
        if (!r.ok) errors += 1;
      }
      ms.sort((a, b) => a - b);
      return { p50: percentile(ms, 50), p99: percentile(ms, 99), errors };
    };
    const throughput = async (fn: () => Promise<{ ms: number; ok: boolean }>) => {
      const end = performance.now() + SECONDS * 1000;
      let done = 0;
      let errors = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (performance.now() < end) {
            const r = await fn();
            if (r.ok) done += 1;
            else errors += 1;
          }
        }),
      );
      return { perSecond: done / ((performance.now() - t0) / 1000), errors };
    };

    const jobLatency = await latencies(runJob);
    // Where the time goes (from the stored events): submitted → taken by a worker → result stored.
    const [stages] = await sut.query<{ wait: number; run: number }>(
      `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM r.at - q.at) * 1000) AS wait,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM c.at - r.at) * 1000) AS run
       FROM qpu_job_events q JOIN qpu_job_events r ON r.job_id = q.job_id AND r.to_status = 'running'
       JOIN qpu_job_events c ON c.job_id = q.job_id AND c.to_status = 'completed' WHERE q.to_status = 'queued'`,
    );
    const simLatency = await latencies(simulateOnce);
    const jobRate = await throughput(runJob);
    const simRate = await throughput(simulateOnce);
    await nc.drain();

    const rows = [
      ['metric', 'QPU job', 'baseline (/tools/simulate)', 'ratio', 'errors'],
      [
        '(a) p50 submit → completed, ms',
        jobLatency.p50.toFixed(1),
        simLatency.p50.toFixed(1),
        (jobLatency.p50 / simLatency.p50).toFixed(2),
        String(jobLatency.errors),
      ],
      ['(a) p99 submit → completed, ms', jobLatency.p99.toFixed(1), simLatency.p99.toFixed(1), (jobLatency.p99 / simLatency.p99).toFixed(2), ''],
      [
        `(b) jobs/s at concurrency ${CONCURRENCY}, one device`,
        jobRate.perSecond.toFixed(1),
        simRate.perSecond.toFixed(1),
        (jobRate.perSecond / simRate.perSecond).toFixed(2),
        String(jobRate.errors),
      ],
    ];
    const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
    console.log(`\nQPU jobs: 100-shot Bell, noiseless 2-qubit device without device time; ${SEQUENTIAL_JOBS} sequential jobs, ${SECONDS} s closed loop`);
    for (const r of rows) console.log(`| ${r.map((cell, c) => cell.padEnd(widths[c]!)).join(' | ')} |`);
    console.log(
      `medians from the stored events (sequential phase): queued → running ${Number(stages!.wait).toFixed(1)} ms, running → completed ${Number(stages!.run).toFixed(1)} ms`,
    );
    if (jobLatency.errors || jobRate.errors) process.exitCode = 1;
  } finally {
    await sut.stop();
  }
  const routing = resolve('dist/bench/qpu-routing.js');
  if (existsSync(routing)) spawnSync(process.execPath, [routing], { stdio: 'inherit' });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
