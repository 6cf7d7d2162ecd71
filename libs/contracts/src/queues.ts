/**
 * BullMQ queues and job names, one place.
 * WARNING: renaming a queue strands the jobs already in Redis; add a new one and drain the old.
 */
export enum QueueName {
  Inference = 'inference',
  /** Run groups of the gateway's dynamic batching: small, short jobs, several at once per worker (see RunGroupJobData). */
  InferenceGroups = 'inference-groups',
  Simulation = 'simulation',
}

export enum JobName {
  RunModel = 'run-model',
  /** Concurrent small runs of one owner that the gateway's batcher grouped (see RunGroupJobData). */
  RunGroup = 'run-group',
  /** An instrument frame: every model of its stream, one job (see FrameJobData). */
  AnalyseFrame = 'analyse-frame',
  Simulate = 'simulate',
  RunQpuJob = 'run-qpu-job',
  PollQpuJob = 'poll-qpu-job',
}

/** One queue per simulated device (its global concurrency is 1: a device runs one job at a time). */
export const qpuDeviceQueueName = (deviceId: string): string => `qpu-${deviceId}`;
/** The family of the per-device queues, as job contracts name it (JobWorkerHost is given the queues themselves). */
export const QPU_DEVICE_QUEUES = 'qpu-<device>';
/** Delayed status polls of cloud QPU jobs (exponential backoff). */
export const QPU_POLL_QUEUE = 'qpu-poll';
/** BullMQ job ids of QPU jobs derive from the QPU job id, so a re-enqueued job never runs twice. */
export const qpuRunJobId = (jobId: string): string => `qpu-${jobId}`;
