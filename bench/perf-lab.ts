/**
 * `npm run bench:lab` — QPU job latency through a lab node (`qdc node start --simulate`: gateway → broker →
 * Postgres → JetStream work queue → node → broker) vs the built-in simulated device (BullMQ → simulation
 * worker), same run, same 100-shot Bell circuit on noiseless 2-qubit devices without device time; jobs
 * alternate between the two devices so both see the same machine load. Completion is observed on the
 * broker's `qpu.job.status-changed.v1` events. The live instrument streams table comes first (perf-lab-streams.ts).
 */
import { connect } from '@nats-io/transport-node';
import { startSystem } from '../test/medium/system.harness.js';
import { BELL_QISKIT, writeTestDevices } from '../test/medium/qpu.fixtures.js';
import { killHard, startNode, writeLabDevice } from '../test/medium/lab-node.fixtures.js';
import { percentile } from './perf/http-load.js';
import { benchStreams } from './perf-lab-streams.js';

const JOBS = Number(process.env.BENCH_LAB_JOBS ?? 40);

async function main(): Promise<void> {
  const devices = writeTestDevices([{ id: 'bench-2', shotTimeUs: 0, qubits: 2 }]);
  const sut = await startSystem({ workers: Number(process.env.BENCH_LAB_WORKERS ?? 2), env: { QDC_QPU_DEVICES_DIR: devices, LOG_LEVEL: 'warn' } });
  const node = startNode(sut, 'bench-node', [
    '--device',
    writeLabDevice({ id: 'bench-lab-2', lab: 'bench-lab', shotTimeUs: 0 }),
    '--simulate',
    '--node-id',
    'bench',
  ]);
  try {
    await benchStreams(sut);
    const token = await sut.createKey('bench', 'coda');
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    for (let t = Date.now(); ; ) {
      const res = await fetch(`${sut.baseUrl}/v0/coda/qpus`, { headers });
      const body = (await res.json()) as { devices: { id: string; status: string }[] };
      if (body.devices.some((d) => d.id === 'bench-lab-2' && d.status === 'online')) break;
      if (Date.now() - t > 30_000) throw new Error(`lab node never registered; logs in ${sut.logDir}`);
      await new Promise((r) => setTimeout(r, 100));
    }
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
    const runJob = async (backend: string): Promise<{ ms: number; ok: boolean }> => {
      const t0 = performance.now();
      const res = await fetch(`${sut.baseUrl}/v0/coda/qpus`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ code: BELL_QISKIT, source_framework: 'qiskit', backend, shots: 100 }),
      });
      const body = (await res.json()) as { job_id?: string };
      if (res.status !== 200 || !body.job_id) return { ms: performance.now() - t0, ok: false };
      const status = early.get(body.job_id) ?? (await new Promise<string>((done) => waiting.set(body.job_id!, done)));
      waiting.delete(body.job_id);
      early.delete(body.job_id);
      return { ms: performance.now() - t0, ok: status === 'completed' };
    };
    for (let i = 0; i < 5; i++) await Promise.all([runJob('bench-2'), runJob('bench-lab-2')]); // warm-up
    const lab: number[] = [];
    const builtIn: number[] = [];
    let errors = 0;
    for (let i = 0; i < JOBS; i++) {
      for (const [backend, into] of [
        ['bench-lab-2', lab],
        ['bench-2', builtIn],
      ] as const) {
        const r = await runJob(backend);
        into.push(r.ms);
        if (!r.ok) errors += 1;
      }
    }
    await nc.drain();
    lab.sort((a, b) => a - b);
    builtIn.sort((a, b) => a - b);
    const rows = [
      ['metric', 'lab node (--simulate)', 'baseline (built-in simulated device)', 'ratio'],
      [
        'p50 submit → completed, ms',
        percentile(lab, 50).toFixed(1),
        percentile(builtIn, 50).toFixed(1),
        (percentile(lab, 50) / percentile(builtIn, 50)).toFixed(2),
      ],
      [
        'p99 submit → completed, ms',
        percentile(lab, 99).toFixed(1),
        percentile(builtIn, 99).toFixed(1),
        (percentile(lab, 99) / percentile(builtIn, 99)).toFixed(2),
      ],
    ];
    const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
    console.log(`\nLab node vs built-in device: 100-shot Bell, noiseless 2-qubit devices, ${JOBS} sequential jobs each (alternating), ${errors} errors`);
    for (const r of rows) console.log(`| ${r.map((cell, c) => cell.padEnd(widths[c]!)).join(' | ')} |`);
    if (errors) process.exitCode = 1;
  } finally {
    await killHard(node);
    await sut.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
