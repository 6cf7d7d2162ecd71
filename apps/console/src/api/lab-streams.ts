/**
 * Live instrument streams: the client's admin routes to list, declare and remove them, and following a stream's
 * events with its `admin.labStreamEvents`.
 */
import type { LabStream, LabStreamCreateRequest, LabStreamEvent, StreamEvent } from '@qdc/client';
import type { ConsoleApi } from './console-api.js';
import { followEventStream, type EventStreamState } from './event-stream.js';

export type { LabStream, LabStreamEvent };
export type LabStreamModelOutcome = Extract<LabStreamEvent, { type: 'result' }>['results'][number];

export const labStreams = {
  /** `GET /v0/admin/lab-streams` (admin): every declared stream, or one lab's. */
  list: (api: ConsoleApi, lab?: string) => api.client.admin.labStreams.list({ lab }),
  /** `POST /v0/admin/lab-streams` (admin): declares or redefines a stream. */
  create: (api: ConsoleApi, body: LabStreamCreateRequest) => api.client.admin.labStreams.create(body),
  /** `DELETE /v0/admin/lab-streams/{lab}/{name}` (admin). */
  remove: (api: ConsoleApi, lab: string, name: string) => api.client.admin.labStreams.remove(lab, name),
};

/**
 * Follows a stream's frame events (the lab owner's keys or admin) from now on. It has no end: a dropped connection
 * is resumed after the last seq received.
 */
export function followLabStream(
  api: ConsoleApi,
  lab: string,
  name: string,
  signal: AbortSignal,
  onEvent: (event: StreamEvent<LabStreamEvent>) => void,
  onState?: (state: EventStreamState, detail?: string) => void,
): Promise<void> {
  return followEventStream<LabStreamEvent>({
    api,
    open: (lastEventId, s, requestId) => api.client.admin.labStreamEvents(lab, name, { lastEventId, signal: s, requestId }),
    signal,
    onEvent,
    onState,
  });
}
