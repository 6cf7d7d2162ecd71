import type { QpuJobStatus } from '#qdc/contracts';

/**
 * The job state machine (SPEC §4): queued → running → completed | failed | cancelled, and
 * queued → cancelled | failed (a job that cannot be dispatched). Terminal states never change.
 */
const NEXT: Record<QpuJobStatus, readonly QpuJobStatus[]> = {
  queued: ['running', 'cancelled', 'failed'],
  running: ['completed', 'failed', 'cancelled'],
  completed: [],
  failed: [],
  cancelled: [],
};

export const canTransition = (from: QpuJobStatus, to: QpuJobStatus): boolean => NEXT[from].includes(to);

export const isTerminal = (status: QpuJobStatus): boolean => NEXT[status].length === 0;
