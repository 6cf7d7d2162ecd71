import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { SpanKind, inSpan, jobTraceContext, markError, tracingEnabled } from '../tracing/tracing.js';

/**
 * Prometheus metrics of one process (`GET /metrics` on the gateway's port and on every other
 * service's probe port). One registry per process, as Prometheus scrapes per process; the
 * `service` label says which one.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: 'qdc_' });

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export function setMetricsService(service: string): void {
  metricsRegistry.setDefaultLabels({ service });
}

export const httpRequestDuration = new Histogram({
  name: 'qdc_http_request_duration_seconds',
  help: 'HTTP requests answered by the gateway, by method, route pattern and status',
  labelNames: ['method', 'route', 'status'],
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const natsRequestDuration = new Histogram({
  name: 'qdc_nats_request_duration_seconds',
  help: 'NATS requests this process sent, by subject and outcome (ok or the error code)',
  labelNames: ['subject', 'outcome'],
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const jobDuration = new Histogram({
  name: 'qdc_job_duration_seconds',
  help: 'Queue jobs processed by this worker, by queue, what ran (model id, ...) and outcome',
  labelNames: ['queue', 'name', 'outcome'],
  buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
  registers: [metricsRegistry],
});

export const runGroupSize = new Histogram({
  name: 'qdc_run_group_size',
  help: "Small runs per job sent by this gateway's dynamic batching (RunBatcher): 1 = the run went alone",
  buckets: [1, 2, 4, 8, 16, 32, 64],
  registers: [metricsRegistry],
});

/** The part of a BullMQ Queue the queue metrics read (a fake in unit tests). */
export interface CountedQueue {
  name: string;
  getJobCounts(...states: string[]): Promise<Record<string, number>>;
  /** `getWaiting(0, 0)` is the job that waited longest (the next one a worker takes). */
  getWaiting(start?: number, end?: number): Promise<{ timestamp: number; delay?: number; processedOn?: number }[]>;
  getWorkersCount(): Promise<number>;
}

const queues = new Set<CountedQueue>();
const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed', 'completed', 'prioritized'] as const;

/** Jobs per queue and state, read from Redis when Prometheus scrapes (KEDA can scale on `waiting`). */
new Gauge({
  name: 'qdc_queue_jobs',
  help: 'BullMQ jobs per queue and state, read at scrape time',
  labelNames: ['queue', 'state'],
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    await Promise.all(
      [...queues].map(async (queue) => {
        const counts = await queue.getJobCounts(...QUEUE_STATES).catch(() => undefined);
        if (!counts) return;
        for (const state of QUEUE_STATES) this.set({ queue: queue.name, state }, counts[state] ?? 0);
      }),
    );
  },
});

/**
 * How long the next job of each queue has been waiting: since it was added, or since its delay (a backoff before a
 * retry) ran out or its last attempt started, whichever is latest. 0 when nothing waits.
 */
new Gauge({
  name: 'qdc_queue_oldest_waiting_seconds',
  help: 'Seconds the oldest waiting job of the queue has been waiting (0 when none waits), read at scrape time',
  labelNames: ['queue'],
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    const now = Date.now();
    await Promise.all(
      [...queues].map(async (queue) => {
        const waiting = await queue.getWaiting(0, 0).catch(() => undefined);
        if (!waiting) return;
        const job = waiting[0];
        const since = job ? Math.max(job.timestamp + (job.delay ?? 0), job.processedOn ?? 0) : now;
        this.set({ queue: queue.name }, Math.max(0, now - since) / 1000);
      }),
    );
  },
});

/** Workers connected to each queue (BullMQ names its worker connections; read with CLIENT LIST at scrape time). */
new Gauge({
  name: 'qdc_queue_workers',
  help: 'Worker connections listening on the queue, read at scrape time',
  labelNames: ['queue'],
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    await Promise.all(
      [...queues].map(async (queue) => {
        const workers = await queue.getWorkersCount().catch(() => undefined);
        if (workers !== undefined) this.set({ queue: queue.name }, workers);
      }),
    );
  },
});

/** Exports the queue's job counts, oldest waiting job and workers (`qdc_queue_*`) from the process that produces its jobs. */
export function countQueue(queue: CountedQueue): void {
  queues.add(queue);
}

/** Seconds since `start` (a `performance.now()` reading). */
export const secondsSince = (start: number): number => (performance.now() - start) / 1000;

/**
 * Runs one queue job and records its duration: `ok`, `rejected` (a final error answer) or `failed` (thrown, retried).
 * Given the job's data, the run is also a span, child of the producer's (the trace context the data carries).
 */
export async function timeJob<T>(queue: string, name: string, run: () => Promise<T>, jobData?: object): Promise<T> {
  if (jobData === undefined || !tracingEnabled()) return timed(queue, name, run);
  const attributes = { 'messaging.system': 'bullmq', 'messaging.destination.name': queue, 'qdc.job.name': name };
  return inSpan(`bullmq process ${queue}`, { kind: SpanKind.CONSUMER, parent: jobTraceContext(jobData), attributes }, async (span) => {
    const outcome = await timed(queue, name, run);
    const answer = outcome as { ok?: boolean; error?: unknown } | undefined;
    if (answer?.ok === false) markError(span, answer.error);
    return outcome;
  });
}

async function timed<T>(queue: string, name: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    const outcome = await run();
    const rejected = (outcome as { ok?: boolean } | undefined)?.ok === false;
    jobDuration.observe({ queue, name, outcome: rejected ? 'rejected' : 'ok' }, secondsSince(started));
    return outcome;
  } catch (error) {
    // BullMQ's DelayedError is a job re-delaying itself (a cloud QPU job's next poll), not a failure.
    jobDuration.observe({ queue, name, outcome: (error as Error)?.name === 'DelayedError' ? 'delayed' : 'failed' }, secondsSince(started));
    throw error;
  }
}

/** A pg pool as the metrics read it (pg.Pool). */
export interface MeteredPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  on(event: 'connect', listener: (client: { query: (...args: unknown[]) => unknown }) => void): unknown;
}

const pools = new Set<MeteredPool>();

/** Connections of this process's Postgres pools, read at scrape time (summed over pools: Prisma's and any raw one). */
new Gauge({
  name: 'qdc_db_pool_connections',
  help: 'Postgres pool connections by state (total = open, idle = open and unused)',
  labelNames: ['state'],
  registers: [metricsRegistry],
  collect() {
    this.reset();
    if (pools.size === 0) return;
    let total = 0;
    let idle = 0;
    for (const pool of pools) {
      total += pool.totalCount;
      idle += pool.idleCount;
    }
    this.set({ state: 'total' }, total);
    this.set({ state: 'idle' }, idle);
  },
});

new Gauge({
  name: 'qdc_db_pool_waiting',
  help: 'Queries waiting for a free Postgres pool connection',
  registers: [metricsRegistry],
  collect() {
    this.reset();
    if (pools.size === 0) return;
    let waiting = 0;
    for (const pool of pools) waiting += pool.waitingCount;
    this.set(waiting);
  },
});

export const dbQueryDuration = new Histogram({
  name: 'qdc_db_query_duration_seconds',
  help: 'Postgres queries this process ran (through Prisma or the raw pool), by outcome (ok or error)',
  labelNames: ['outcome'],
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

/**
 * Exports the pool's connection counts and times every query on its connections: promise-style (Prisma's pg adapter
 * in transactions) and callback-style (pool.query, which Prisma uses otherwise). Streaming queries pass through.
 */
export function meterPool(pool: MeteredPool): void {
  pools.add(pool);
  pool.on('connect', (client) => {
    const query = client.query.bind(client);
    client.query = (...args: unknown[]) => {
      if (typeof (args[0] as { submit?: unknown } | undefined)?.submit === 'function') return query(...args);
      const started = performance.now();
      const observe = (failed: boolean) => dbQueryDuration.observe({ outcome: failed ? 'error' : 'ok' }, secondsSince(started));
      const callback = args.at(-1);
      if (typeof callback === 'function') {
        return query(...args.slice(0, -1), (error: unknown, result: unknown) => {
          observe(!!error);
          return callback(error, result);
        });
      }
      const result = query(...args) as Promise<unknown>;
      result.then(
        () => observe(false),
        () => observe(true),
      );
      return result;
    };
  });
}

/** Stops reading a pool that was ended. */
export function unmeterPool(pool: MeteredPool): void {
  pools.delete(pool);
}
