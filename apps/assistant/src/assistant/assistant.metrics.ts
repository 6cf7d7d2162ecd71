import { Gauge, Histogram } from 'prom-client';
import { metricsRegistry } from '#qdc/platform';

/** Assistant runs in progress in this process (each is one open event stream to a client, or a detached run). */
export const assistantRunsActive = new Gauge({
  name: 'qdc_assistant_runs_active',
  help: 'Assistant runs in progress in this process',
  registers: [metricsRegistry],
});

/** Finished assistant runs by how they ended (completed, error, cancelled). */
export const assistantRunDuration = new Histogram({
  name: 'qdc_assistant_run_duration_seconds',
  help: 'Assistant runs, from start to their terminal event, by status (completed, error, cancelled)',
  labelNames: ['status'],
  buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
  registers: [metricsRegistry],
});
