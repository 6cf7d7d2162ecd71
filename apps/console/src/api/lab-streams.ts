/**
 * Live instrument streams: the admin routes to list, declare and remove them, which the typed client has no methods
 * for yet (shapes from libs/contracts/src/http/admin.ts), and following a stream's events with the client's
 * `admin.labStreamEvents`.
 */
import type { LabStreamEvent, StreamEvent } from '@qdc/client';
import type { LabStreamCreateHttpRequest, LabStreamDeleteHttpResponse, LabStreamHttp } from '../../../../libs/contracts/src/http/index.js';
import { requestJson } from './api-json.js';
import type { ConsoleApi } from './console-api.js';
import { followEventStream, type EventStreamState } from './event-stream.js';

export type { LabStreamEvent };
export type LabStream = LabStreamHttp;
export type LabStreamModelOutcome = Extract<LabStreamEvent, { type: 'result' }>['results'][number];

const enc = encodeURIComponent;

export const labStreams = {
  /** `GET /v0/admin/lab-streams` (admin): every declared stream, or one lab's. */
  list: (api: ConsoleApi, lab?: string) => requestJson<LabStreamHttp[]>(api, 'GET', `/v0/admin/lab-streams${lab ? `?lab=${enc(lab)}` : ''}`),
  /** `POST /v0/admin/lab-streams` (admin): declares or redefines a stream. */
  create: (api: ConsoleApi, body: LabStreamCreateHttpRequest) => requestJson<LabStreamHttp>(api, 'POST', '/v0/admin/lab-streams', body),
  /** `DELETE /v0/admin/lab-streams/{lab}/{name}` (admin). */
  remove: (api: ConsoleApi, lab: string, name: string) =>
    requestJson<LabStreamDeleteHttpResponse>(api, 'DELETE', `/v0/admin/lab-streams/${enc(lab)}/${enc(name)}`),
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
