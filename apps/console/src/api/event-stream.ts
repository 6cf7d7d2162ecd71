import { QdcApiError, QdcStreamInterruptedError, type StreamEvent } from '@qdc/client';
import type { ConsoleApi } from './console-api.js';

export type EventStreamState = 'connecting' | 'open' | 'reconnecting' | 'ended' | 'failed';

export interface FollowOptions<E> {
  /** Says when a stream's answer arrives (connected before its first event). */
  api: Pick<ConsoleApi, 'onAnswer'>;
  /** Opens the client's event stream, e.g. `client.qpus.events(id, { lastEventId, signal, requestId })`. */
  open(lastEventId: string | undefined, signal: AbortSignal, requestId: string): AsyncIterable<StreamEvent<E>>;
  signal: AbortSignal;
  onEvent(event: StreamEvent<E>): void;
  onState?(state: EventStreamState, detail?: string): void;
  lastEventId?: string;
  /** First wait before reopening (doubles per failure in a row, up to 10 s); default 250 ms. */
  backoffMs?: number;
}

const MAX_BACKOFF_MS = 10_000;

/**
 * Keeps one of the client's event streams (fetch streaming, so the request carries the Authorization header, which
 * EventSource cannot send) going until it ends by itself: after a dropped connection, a 429 (another stream still
 * holds a slot; its Retry-After is honoured) or a 5xx it opens the stream again after the last event it received
 * (Last-Event-ID), with backoff. An answer that retrying cannot change (401 — which has signed the session out —,
 * 403, 404, 422) ends it as `failed` with the server's message; aborting the signal ends it quietly.
 */
export async function followEventStream<E>(options: FollowOptions<E>): Promise<void> {
  const { signal } = options;
  let lastEventId = options.lastEventId;
  let failures = 0;
  const state = (s: EventStreamState, detail?: string) => {
    if (!signal.aborted) options.onState?.(s, detail);
  };
  state('connecting');
  while (!signal.aborted) {
    let waitMs: number;
    const requestId = newRequestId();
    const stopListening = options.api.onAnswer(requestId, (status) => {
      if (status >= 200 && status < 300) state('open');
    });
    try {
      for await (const event of options.open(lastEventId, signal, requestId)) {
        failures = 0;
        lastEventId = event.eventId ?? lastEventId;
        options.onEvent(event);
      }
      state('ended');
      return;
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof QdcApiError && error.status !== 429 && error.status < 500) {
        state('failed', error.status === 401 ? 'signed out' : error.message);
        return;
      }
      if (error instanceof QdcStreamInterruptedError) lastEventId = error.lastEventId ?? lastEventId;
      failures++;
      const retryAfter = error instanceof QdcApiError ? error.retryAfterSeconds : undefined;
      waitMs = retryAfter !== undefined ? retryAfter * 1000 : Math.min(MAX_BACKOFF_MS, (options.backoffMs ?? 250) * 2 ** Math.min(failures - 1, 6));
      state('reconnecting', (error as Error).message);
    } finally {
      stopListening();
    }
    await pause(waitMs, signal);
  }
}

function newRequestId(): string {
  if (globalThis.crypto?.randomUUID) return globalThis.crypto.randomUUID();
  return Array.from({ length: 32 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
