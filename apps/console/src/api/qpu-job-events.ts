import type { QpuJobEvent, StreamEvent } from '@qdc/client';
import type { ConsoleApi } from './console-api.js';
import { followEventStream, type EventStreamState } from './event-stream.js';

/**
 * Follows a QPU job's state changes by server push (`client.qpus.events`, SPEC §7) until its outcome, resuming a
 * dropped connection after the last event received.
 */
export function followQpuJob(
  api: ConsoleApi,
  jobId: string,
  signal: AbortSignal,
  onEvent: (event: StreamEvent<QpuJobEvent>) => void,
  onState?: (state: EventStreamState, detail?: string) => void,
): Promise<void> {
  return followEventStream<QpuJobEvent>({
    api,
    open: (lastEventId, s, requestId) => api.client.qpus.events(jobId, { lastEventId, signal: s, requestId }),
    signal,
    onEvent,
    onState,
  });
}
