import type { QpuJobStatus } from '@qdc/client';
import type { ConsoleApi } from './console-api.js';
import { followEventStream, type EventStreamState } from './event-stream.js';

/** One event of `GET /v0/coda/qpus/jobs/{job_id}/events` (SPEC §7). */
export type QpuJobEvent =
  | { type: 'status'; status: QpuJobStatus; at: string }
  | { type: 'results'; results: Record<string, number> }
  | { type: 'error'; error: string };

const TERMINAL_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/** The stream is over after the outcome, or after `cancelled` (which has none). */
export function isTerminalJobEvent(event: QpuJobEvent): boolean {
  return event.type !== 'status' || event.status === 'cancelled';
}

/**
 * Follows a QPU job's state changes by server push until its outcome. A clean close right after a terminal status
 * (a job completed without results) is the end too; any other close is a dropped connection, resumed.
 */
export function followQpuJob(
  api: ConsoleApi,
  jobId: string,
  signal: AbortSignal,
  onEvent: (event: QpuJobEvent) => void,
  onState?: (state: EventStreamState, detail?: string) => void,
): Promise<void> {
  return followEventStream<QpuJobEvent>({
    api,
    path: `/v0/coda/qpus/jobs/${encodeURIComponent(jobId)}/events`,
    signal,
    onEvent,
    onState,
    isTerminal: isTerminalJobEvent,
    closedAfter: (last) => (last?.type === 'status' && TERMINAL_STATUSES.has(last.status) ? 'end' : 'resume'),
  });
}
