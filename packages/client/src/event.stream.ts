import type { HttpTransport, SendRequest } from './http.transport.js';
import { QdcStreamInterruptedError, QdcTransportError } from './qdc-api.error.js';
import { readSse } from './sse.parser.js';

/** An event with the SSE id it came under: pass it as `lastEventId` to resume after it. */
export type StreamEvent<T> = T & { readonly eventId: string | undefined };

export interface EventStreamOptions {
  /** Resume: the events after this id are sent (as `Last-Event-ID`). */
  lastEventId?: string;
  signal?: AbortSignal;
  requestId?: string;
}

export interface EventStreamRules<T> {
  /** After this event the stream is over: iteration ends (and the connection is closed). */
  isTerminal(event: T): boolean;
  /** The server may close the stream after this event without it being a drop (default: only after a terminal one). */
  mayEndAfter?(event: T): boolean;
}

/**
 * One `text/event-stream` route as an async iterable of its typed JSON events, each with its SSE id. The request
 * is sent when iteration starts, so an API error (422, 404 for an unknown run or job) is thrown from the first step.
 * Iteration ends after a terminal event; a connection that ends before one throws QdcStreamInterruptedError, and
 * `lastEventId` says where to resume (`{ lastEventId }` on a new stream of the same request).
 */
export class EventStream<T extends { type: string }> implements AsyncIterable<StreamEvent<T>> {
  private last: string | undefined;
  private started = false;

  constructor(
    private readonly transport: HttpTransport,
    private readonly request: Pick<SendRequest, 'method' | 'path' | 'json'>,
    private readonly rules: EventStreamRules<T>,
    private readonly options: EventStreamOptions = {},
  ) {
    this.last = options.lastEventId;
  }

  /** The id of the last event received (or the one resumed from). */
  get lastEventId(): string | undefined {
    return this.last;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<StreamEvent<T>, void, undefined> {
    if (this.started) throw new Error('an event stream is read once; open another with { lastEventId } to resume');
    this.started = true;
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (this.options.lastEventId) headers['last-event-id'] = this.options.lastEventId;
    const response = await this.transport.send({
      ...this.request,
      headers,
      signal: this.options.signal,
      requestId: this.options.requestId,
      retry: false,
    });
    const requestId = response.headers.get('x-request-id') ?? undefined;
    const type = response.headers.get('content-type') ?? '';
    if (!type.startsWith('text/event-stream') || !response.body) {
      await response.body?.cancel().catch(() => undefined);
      throw new QdcTransportError(
        `${this.request.method} ${this.request.path} answered ${response.status} ${type || 'without a content type'}, not an event stream`,
        requestId,
      );
    }
    let previous: T | undefined;
    try {
      for await (const message of readSse(response.body, this.last)) {
        this.last = message.id;
        let event: T;
        try {
          event = JSON.parse(message.data) as T;
        } catch (error) {
          throw new QdcTransportError(`${this.request.path} sent an event that is not JSON: ${message.data.slice(0, 120)}`, requestId, { cause: error });
        }
        previous = event;
        yield { ...event, eventId: message.id };
        if (this.rules.isTerminal(event)) return;
      }
    } catch (error) {
      if (this.options.signal?.aborted || error instanceof QdcTransportError) throw error;
      throw new QdcStreamInterruptedError(this.last, { cause: error });
    }
    if (previous && this.rules.mayEndAfter?.(previous)) return;
    throw new QdcStreamInterruptedError(this.last);
  }
}
