import type { HttpTransport } from './http.transport.js';
import { QdcStreamInterruptedError, QdcTransportError } from './qdc-api.error.js';
import { readSse } from './sse.parser.js';
import type { AssistantEvent, AssistantRequest } from './wire.types.js';

/** An assistant event with the SSE id it came under (`<run id>:<n>`): pass it as `lastEventId` to resume after it. */
export type AssistantStreamEvent = AssistantEvent & { readonly eventId: string | undefined };

export interface AssistantStreamOptions {
  /** Resume a run: the events after this id are replayed (the same body is sent again). */
  lastEventId?: string;
  signal?: AbortSignal;
  requestId?: string;
}

const TERMINAL = new Set(['completed', 'error', 'cancelled']);

/**
 * `POST /v0/coda/agents` as an async iterable of typed events: `token`s, `files`, then exactly one terminal event
 * (`completed`, `error`, `cancelled`), after which iteration ends. The request is sent when iteration starts; an API
 * error (422, 404 for an unknown run to resume) is thrown from the first step. A connection that ends before the
 * terminal event throws QdcStreamInterruptedError; `lastEventId` says where to resume.
 */
export class AssistantStream implements AsyncIterable<AssistantStreamEvent> {
  private last: string | undefined;
  private started = false;

  constructor(
    private readonly transport: HttpTransport,
    private readonly body: AssistantRequest,
    private readonly options: AssistantStreamOptions = {},
  ) {
    this.last = options.lastEventId;
  }

  /** The id of the last event received (or the one resumed from). */
  get lastEventId(): string | undefined {
    return this.last;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<AssistantStreamEvent, void, undefined> {
    if (this.started) throw new Error('an AssistantStream is read once; start another with agents.stream(body, { lastEventId })');
    this.started = true;
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (this.options.lastEventId) headers['last-event-id'] = this.options.lastEventId;
    const response = await this.transport.send({
      method: 'POST',
      path: '/v0/coda/agents',
      json: this.body,
      headers,
      signal: this.options.signal,
      requestId: this.options.requestId,
      retry: false,
    });
    const requestId = response.headers.get('x-request-id') ?? undefined;
    const type = response.headers.get('content-type') ?? '';
    if (!type.startsWith('text/event-stream') || !response.body) {
      await response.body?.cancel().catch(() => undefined);
      throw new QdcTransportError(`POST /v0/coda/agents answered ${response.status} ${type || 'without a content type'}, not an event stream`, requestId);
    }
    try {
      for await (const message of readSse(response.body, this.last)) {
        this.last = message.id;
        let event: AssistantEvent;
        try {
          event = JSON.parse(message.data) as AssistantEvent;
        } catch (error) {
          throw new QdcTransportError(`the assistant sent an event that is not JSON: ${message.data.slice(0, 120)}`, requestId, { cause: error });
        }
        yield { ...event, eventId: message.id };
        if (TERMINAL.has(event.type)) return;
      }
    } catch (error) {
      if (this.options.signal?.aborted || error instanceof QdcTransportError) throw error;
      throw new QdcStreamInterruptedError(this.last, { cause: error });
    }
    throw new QdcStreamInterruptedError(this.last);
  }
}
