import { readSse } from '@qdc/client';
import { requestError } from './request-error.js';
import type { ConsoleApi } from './console-api.js';

export type EventStreamState = 'connecting' | 'open' | 'reconnecting' | 'ended' | 'failed';

export interface FollowOptions<E> {
  api: ConsoleApi;
  path: string;
  /** Resume after this event (sent as Last-Event-ID). */
  lastEventId?: string;
  signal: AbortSignal;
  onEvent(event: E, id: string | undefined): void;
  onState?(state: EventStreamState, detail?: string): void;
  /** After this event the stream is over: stop reading. */
  isTerminal?(event: E): boolean;
  /** The server closed the stream after this (last) event: is that its natural end, or a drop to resume from? */
  closedAfter?(event: E | undefined): 'end' | 'resume';
}

const MAX_BACKOFF_MS = 10_000;

/**
 * Follows a `text/event-stream` GET route with fetch streaming (so the request carries the Authorization header,
 * which EventSource cannot send), resuming with Last-Event-ID after a dropped connection, a 429 (another stream
 * still holds a slot) or a 5xx, with backoff. Ends on a terminal event, on abort, or on an answer that retrying
 * cannot change (401 signs out, 403, 404, 422: `failed` with the server's message).
 */
export async function followEventStream<E>(options: FollowOptions<E>): Promise<void> {
  const { signal } = options;
  let lastEventId = options.lastEventId;
  let failures = 0;
  const state = (s: EventStreamState, detail?: string) => {
    if (!signal.aborted) options.onState?.(s, detail);
  };
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
    });

  state('connecting');
  while (!signal.aborted) {
    let retryAfterMs: number | undefined;
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
      const response = await options.api.fetch(options.path, { headers, signal });
      if (!response.ok || !response.body) {
        const error = await requestError(response, 'GET', options.path);
        if (response.status === 429 || response.status >= 500) {
          retryAfterMs = error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : undefined;
          throw error;
        }
        state('failed', response.status === 401 ? 'signed out' : error.message);
        return;
      }
      state('open');
      let last: E | undefined;
      for await (const message of readSse(response.body, lastEventId)) {
        lastEventId = message.id;
        let event: E;
        try {
          event = JSON.parse(message.data) as E;
        } catch {
          continue; // not an event of this route's contract
        }
        failures = 0;
        last = event;
        options.onEvent(event, message.id);
        if (options.isTerminal?.(event)) {
          state('ended');
          return;
        }
      }
      if ((options.closedAfter?.(last) ?? 'resume') === 'end') {
        state('ended');
        return;
      }
    } catch (error) {
      if (signal.aborted) return;
      failures++;
      state('reconnecting', (error as Error).message);
    }
    await pause(retryAfterMs ?? Math.min(MAX_BACKOFF_MS, 500 * 2 ** Math.min(failures, 5)));
    if (!signal.aborted) state('reconnecting');
  }
}
