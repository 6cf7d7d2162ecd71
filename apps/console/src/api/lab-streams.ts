/**
 * Live instrument streams, which the typed client has no methods for yet: the admin routes (list, declare, remove)
 * and the per-stream event stream (SPEC §7). The shapes are the contracts' (libs/contracts/src/lab-streams.ts).
 */
import type { LabStreamCreateRequest, LabStreamDeleteResponse, LabStreamDto, LabStreamEvent } from '../../../../libs/contracts/src/lab-streams.js';
import { requestJson } from './api-json.js';
import type { ConsoleApi } from './console-api.js';
import { followEventStream, type EventStreamState } from './event-stream.js';

export type { LabStreamDto, LabStreamEvent, LabStreamCreateRequest };
export type LabStreamModelOutcome = Extract<LabStreamEvent, { type: 'result' }>['results'][number];

const enc = encodeURIComponent;

export const labStreams = {
  /** `GET /v0/admin/lab-streams` (admin): every declared stream, or one lab's. */
  list: (api: ConsoleApi, lab?: string) => requestJson<LabStreamDto[]>(api, 'GET', `/v0/admin/lab-streams${lab ? `?lab=${enc(lab)}` : ''}`),
  /** `POST /v0/admin/lab-streams` (admin): declares or redefines a stream. */
  create: (api: ConsoleApi, body: LabStreamCreateRequest) => requestJson<LabStreamDto>(api, 'POST', '/v0/admin/lab-streams', body),
  /** `DELETE /v0/admin/lab-streams/{lab}/{name}` (admin). */
  remove: (api: ConsoleApi, lab: string, name: string) => requestJson<LabStreamDeleteResponse>(api, 'DELETE', `/v0/admin/lab-streams/${enc(lab)}/${enc(name)}`),
};

/**
 * Follows a stream's frame events (`GET /v0/lab-streams/{lab}/{name}/events`, for the lab owner's keys or admin)
 * from `lastSeq` on; it has no end, so any close is resumed with Last-Event-ID (the event's seq).
 */
export function followLabStream(
  api: ConsoleApi,
  lab: string,
  name: string,
  signal: AbortSignal,
  onEvent: (event: LabStreamEvent) => void,
  onState?: (state: EventStreamState, detail?: string) => void,
  lastSeq?: number,
): Promise<void> {
  return followEventStream<LabStreamEvent>({
    api,
    path: `/v0/lab-streams/${enc(lab)}/${enc(name)}/events`,
    lastEventId: lastSeq === undefined ? undefined : String(lastSeq),
    signal,
    onEvent,
    onState,
    closedAfter: () => 'resume',
  });
}
