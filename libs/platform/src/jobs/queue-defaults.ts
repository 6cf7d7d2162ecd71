import type { DefaultJobOptions, QueueOptions, WorkerOptions } from 'bullmq';
import type { QdcConfig } from '../config/config.js';

/** Redis connection options for BullMQ from REDIS_URL (workers need maxRetriesPerRequest: null). */
export function redisConnection(config: QdcConfig): { url: string; maxRetriesPerRequest: null } {
  return { url: config.REDIS_URL, maxRetriesPerRequest: null };
}

/** The one set of job defaults: retried with backoff, completed jobs kept an hour, failed kept. */
export function defaultJobOptions(config: QdcConfig): DefaultJobOptions {
  return {
    attempts: config.QDC_JOB_ATTEMPTS,
    backoff: { type: 'exponential', delay: 200 },
    // Kept long enough that a retried request (same id) finds the finished job instead of rerunning.
    removeOnComplete: { age: 3600, count: 10_000 },
    removeOnFail: { age: 7 * 24 * 3600 },
  };
}

export function queueOptions(config: QdcConfig): QueueOptions {
  return {
    connection: redisConnection(config),
    prefix: `${config.QDC_NAMESPACE}:bull`,
    defaultJobOptions: defaultJobOptions(config),
  };
}

export function workerOptions(config: QdcConfig): WorkerOptions {
  return {
    connection: redisConnection(config),
    prefix: `${config.QDC_NAMESPACE}:bull`,
    concurrency: config.QDC_WORKER_CONCURRENCY,
    lockDuration: config.QDC_JOB_LOCK_MS,
    stalledInterval: Math.max(1000, Math.floor(config.QDC_JOB_LOCK_MS / 2)),
    // A job whose worker died is retried; only a job that keeps killing workers is failed.
    maxStalledCount: 3,
    autorun: false,
  };
}
