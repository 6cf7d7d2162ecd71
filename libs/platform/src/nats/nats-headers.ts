/** NATS headers QDC's own messages carry (besides X-Request-Id, REQUEST_ID_HEADER in libs/contracts and W3C trace context). */

/** Names an object-store key that holds a message body too large for NATS (PayloadStore decides). */
export const PAYLOAD_OBJECT_HEADER = 'Qdc-Payload-Object';
/** When the sender of a request stops waiting for the reply (epoch ms): a handler does not start work after it. */
export const DEADLINE_HEADER = 'Qdc-Deadline';
/** Names the subject a long request's handler publishes heartbeats on (see HEARTBEAT_AFTER_MS). */
export const HEARTBEAT_HEADER = 'Qdc-Heartbeat';

/**
 * Liveness of long requests (a queued simulation may take QDC_SIM_TIMEOUT_MS): a request whose timeout exceeds
 * HEARTBEAT_AFTER_MS names a heartbeat subject in its headers; the handling process publishes to it at once and every
 * HEARTBEAT_INTERVAL_MS until it replies; a beat names the process (its instance subject). After HEARTBEAT_LOST_MS
 * without a beat the caller pings that instance subject: NATS answers "no responders" at once when the process is
 * gone (kill -9, OOM: its subscriptions went with its connection), and the request answers `unavailable` (503 +
 * Retry-After) then instead of at its timeout; a process that is alive but busy (a long synchronous step) keeps the
 * request. A retry with the same request id finds the queued job again (job ids derive from request ids).
 */
export const HEARTBEAT_AFTER_MS = 30_000;
export const HEARTBEAT_INTERVAL_MS = 1_000;
export const HEARTBEAT_LOST_MS = 3_000;
/** Without any beat (so no instance to ping), the request is lost only after this long. */
export const HEARTBEAT_FIRST_BEAT_MS = 10_000;

/** Span attributes of a NATS request or handled message (OpenTelemetry messaging conventions). */
export const natsAttributes = (subject: string, requestId: string | undefined): Record<string, string> => ({
  'messaging.system': 'nats',
  'messaging.destination.name': subject,
  ...(requestId ? { 'qdc.request_id': requestId } : {}),
});
