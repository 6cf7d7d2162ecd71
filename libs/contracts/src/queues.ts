/**
 * BullMQ queues and job names, one place.
 * WARNING: renaming a queue strands the jobs already in Redis; add a new one and drain the old.
 */
export enum QueueName {
  Inference = 'inference',
  Simulation = 'simulation',
}

export enum JobName {
  RunModel = 'run-model',
  Simulate = 'simulate',
}

/** Simulation job ids derive from the request and what it asks, like inference jobs. */
export const simulationJobId = (digest: string): string => `sim-${digest}`;
