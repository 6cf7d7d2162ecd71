import { Counter, Gauge, Histogram } from 'prom-client';
import type { LabStreamEvent } from '#qdc/contracts';
import { metricsRegistry } from '#qdc/platform';

/** A stream as the metrics name it: `<lab>/<name>` (streams are declared by an admin, so the label stays bounded). */
export const streamLabel = (lab: string, name: string): string => `${lab}/${name}`;

const framesAnswered = new Counter({
  name: 'qdc_lab_stream_frames_total',
  help: 'Frames of live instrument streams answered by this process, by stream and event (result, error, dropped)',
  labelNames: ['stream', 'event'],
  registers: [metricsRegistry],
});

const framesDropped = new Counter({
  name: 'qdc_lab_stream_dropped_frames_total',
  help: 'Frames answered with a dropped event, by stream and reason (stale: waited past max_lag_ms; failed: analysis kept failing)',
  labelNames: ['stream', 'reason'],
  registers: [metricsRegistry],
});

const frameLatency = new Histogram({
  name: 'qdc_lab_stream_frame_latency_seconds',
  help: 'From a frame stored in JetStream to its result event, by stream',
  labelNames: ['stream'],
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers: [metricsRegistry],
});

/** Counts a frame's one event (called once per frame: not for a redelivered frame whose event was stored before). */
export function countFrameEvent(event: LabStreamEvent): void {
  const stream = streamLabel(event.lab, event.stream);
  framesAnswered.inc({ stream, event: event.type });
  if (event.type === 'dropped') framesDropped.inc({ stream, reason: event.reason });
  if (event.type === 'result') frameLatency.observe({ stream }, event.latency_ms / 1000);
}

/** Frames of one held stream not answered yet: not delivered (`num_pending`) plus delivered and unacknowledged. */
export interface StreamBacklog {
  stream: string;
  pending: number;
}

let readBacklogs: (() => Promise<StreamBacklog[]>) | undefined;

new Gauge({
  name: 'qdc_lab_stream_pending_frames',
  help: 'Frames of a live stream not answered yet (in its JetStream consumer), read at scrape time by the replica holding the stream',
  labelNames: ['stream'],
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    const backlogs = await readBacklogs?.().catch(() => undefined);
    for (const { stream, pending } of backlogs ?? []) this.set({ stream }, pending);
  },
});

/** Where the pending-frames gauge reads the streams this process consumes (LabStreamConsumers). */
export function meterStreamBacklogs(read: () => Promise<StreamBacklog[]>): void {
  readBacklogs = read;
}
