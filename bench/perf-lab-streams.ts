/**
 * Live instrument streams part of `npm run bench:lab`: frame-to-result latency (the instrument's JetStream publish →
 * the stream's event on its results subject, matched by frame id) for a 100-point pinch-off trace (JSON frame, both
 * pinch-off models: classifier and parameter extractor) and a 128×128 charge-stability map (`.npy` f4 frame,
 * charge-stability-diagram-segmenter-v0), each at 10 and 100 frames/s. The publisher never awaits an analysis
 * (its publishes are paced by a timer; the JetStream acks are collected). Same-run baseline: `POST /v0/models` of
 * the same trace with one model, sequential (the path a frame's analysis reuses). The trace also runs with the
 * classifier alone (one inference job per frame instead of two).
 */
import { jetstream } from '@nats-io/jetstream';
import { connect, headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { encodeNpy } from '#qdc/arrays';
import { generateChargeStabilityDiagram, generatePinchOffTrace } from '#qdc/device-physics';
import type { LabStreamDto, LabStreamEvent } from '#qdc/contracts';
import { multipart, type TestSystem } from '../test/medium/system.harness.js';
import { percentile } from './perf/http-load.js';

interface Case {
  stream: string;
  models: string[];
  label: string;
  frame: (i: number) => string | Uint8Array;
}

async function createStream(sut: TestSystem, admin: string, name: string, models: string[]): Promise<LabStreamDto> {
  const res = await fetch(`${sut.baseUrl}/v0/admin/lab-streams`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({ lab: 'bench-lab', name, models, max_in_flight: 32 }),
  });
  if (res.status !== 201) throw new Error(`stream create answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as LabStreamDto;
}

async function run(
  nc: NatsConnection,
  dto: LabStreamDto,
  c: Case,
  rate: number,
  frames: number,
): Promise<{ latencies: number[]; lost: number; errors: number; elapsedMs: number }> {
  const js = jetstream(nc);
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  let errors = 0;
  let received = 0;
  let lastAt = 0;
  let allIn: () => void = () => undefined;
  const done = new Promise<void>((r) => (allIn = r));
  const sub = nc.subscribe(dto.subjects.results, {
    callback: (_e, m) => {
      const event = m.json<LabStreamEvent>();
      const t0 = sentAt.get(event.frame_id);
      if (t0 === undefined) return;
      sentAt.delete(event.frame_id);
      if (event.type === 'result' && event.results.every((r) => 'result_id' in r)) latencies.push(performance.now() - t0);
      else errors += 1;
      lastAt = performance.now();
      if (++received === frames) allIn();
    },
  });
  await nc.flush();
  const acks: Promise<unknown>[] = [];
  const tag = `${c.stream}-${rate}-${Date.now().toString(36)}`;
  const start = performance.now();
  for (let i = 0; i < frames; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const id = `${tag}-${i}`;
    const h = natsHeaders();
    h.set('Nats-Msg-Id', id);
    sentAt.set(id, performance.now());
    acks.push(js.publish(dto.subjects.frames, c.frame(i), { headers: h }));
  }
  await Promise.all(acks);
  await Promise.race([done, new Promise((r) => setTimeout(r, 120_000))]);
  sub.unsubscribe();
  return { latencies: latencies.sort((a, b) => a - b), lost: sentAt.size, errors, elapsedMs: lastAt - start };
}

export async function benchStreams(sut: TestSystem): Promise<void> {
  const admin = await sut.createKey('bench-admin', 'admin');
  const control = await sut.createKey('bench-control', 'control');
  const nc = await connect({ servers: sut.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
  const traces = Array.from({ length: 64 }, (_, i) => JSON.stringify({ data: Array.from(generatePinchOffTrace(500 + i, { length: 100 }).trace) }));
  const maps = Array.from({ length: 8 }, (_, i) => {
    const d = generateChargeStabilityDiagram(900 + i, { rows: 128 });
    return encodeNpy({ shape: [128, 128], data: d.data }, { dtype: 'f4' });
  });
  const cases: Case[] = [
    { stream: 'trace-1', models: ['pinch-off-classifier-v0'], label: '100-point pinch-off trace (classifier)', frame: (i) => traces[i % traces.length]! },
    {
      stream: 'trace',
      models: ['pinch-off-classifier-v0', 'pinch-off-parameter-extractor-v0'],
      label: '100-point pinch-off trace (2 models)',
      frame: (i) => traces[i % traces.length]!,
    },
    { stream: 'map', models: ['charge-stability-diagram-segmenter-v0'], label: '128×128 map (segmenter)', frame: (i) => maps[i % maps.length]! },
  ];
  // Baseline: the same trace through POST /v0/models (one model), sequential.
  const traceNpy = encodeNpy({ shape: [100], data: generatePinchOffTrace(500, { length: 100 }).trace });
  const post = async () => {
    const t0 = performance.now();
    const res = await fetch(`${sut.baseUrl}/v0/models`, {
      method: 'POST',
      headers: { authorization: `Bearer ${control}` },
      body: multipart({ model: 'pinch-off-classifier-v0' }, { name: 'trace.npy', bytes: traceNpy }),
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`POST /models answered ${res.status}`);
    return performance.now() - t0;
  };
  for (let i = 0; i < 10; i++) await post();
  const baseline: number[] = [];
  for (let i = 0; i < 60; i++) baseline.push(await post());
  baseline.sort((a, b) => a - b);
  const base50 = percentile(baseline, 50);

  const rows = [['frames', 'rate', 'frames sent', 'p50 ms', 'p99 ms', 'p50 / POST /models p50', 'lost', 'error events']];
  const sustained = [['frames', 'offered', 'frames sent', 'frames/s answered', 'lost', 'error events']];
  for (const c of cases) {
    const dto = await createStream(sut, admin, c.stream, c.models);
    await new Promise((r) => setTimeout(r, 1000)); // the consumer starts from the KV watch
    await run(nc, dto, c, 20, 20); // warm-up
    for (const rate of [10, 100]) {
      const frames = rate === 10 ? 50 : 300;
      const r = await run(nc, dto, c, rate, frames);
      rows.push([
        c.label,
        `${rate}/s`,
        String(frames),
        percentile(r.latencies, 50).toFixed(1),
        percentile(r.latencies, 99).toFixed(1),
        (percentile(r.latencies, 50) / base50).toFixed(2),
        String(r.lost),
        String(r.errors),
      ]);
      if (r.lost || r.errors) process.exitCode = 1;
    }
    // Sustained throughput: frames offered faster than the target (250/s); answered frames per second from the first
    // publish to the last event.
    if (c.stream !== 'map') {
      const frames = 1000;
      const r = await run(nc, dto, c, 250, frames);
      sustained.push([c.label, '250/s', String(frames), ((frames - r.lost) / (r.elapsedMs / 1000)).toFixed(1), String(r.lost), String(r.errors)]);
      if (r.lost || r.errors) process.exitCode = 1;
    }
  }
  await nc.drain();
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => row[col]!.length)));
  console.log(
    `\nLive instrument streams: frame → result event (baseline POST /v0/models, 100-point trace, 1 model: p50 ${base50.toFixed(1)} ms, p99 ${percentile(baseline, 99).toFixed(1)} ms)`,
  );
  for (const row of rows) console.log(`| ${row.map((cell, col) => cell.padEnd(widths[col]!)).join(' | ')} |`);
  const sWidths = sustained[0]!.map((_, col) => Math.max(...sustained.map((row) => row[col]!.length)));
  console.log('\nLive instrument streams: sustained throughput (frames offered at 250/s)');
  for (const row of sustained) console.log(`| ${row.map((cell, col) => cell.padEnd(sWidths[col]!)).join(' | ')} |`);
}
