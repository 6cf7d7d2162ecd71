/**
 * A `text/event-stream` parser as the WHATWG HTML standard specifies it ("Parsing an event stream",
 * https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation): lines end in CRLF, LF
 * or CR; `data` lines join with LF; a blank line dispatches; comments (`:`) are skipped; `id` persists as the last
 * event id (and is ignored when it holds NUL). Text arrives in chunks split anywhere, even inside a CRLF.
 */

export interface SseMessage {
  /** The last event id after this message (the stream's, not only this message's): what `Last-Event-ID` resumes from. */
  id: string | undefined;
  /** The `event` field; `message` when none was given. */
  event: string;
  data: string;
  /** A `retry` field (reconnection time, ms), when this message carried one. */
  retry?: number;
}

export class SseParser {
  private buffer = '';
  /** A chunk ended in CR: an LF at the start of the next one belongs to the same line end. */
  private pendingCr = false;
  private started = false;
  private data: string[] = [];
  private eventType = '';
  private retry: number | undefined;
  private hasData = false;
  /** The last event id of the stream so far. */
  lastEventId: string | undefined;

  constructor(initialLastEventId?: string) {
    this.lastEventId = initialLastEventId;
  }

  /** Feeds decoded text; returns the messages it completed. */
  push(text: string): SseMessage[] {
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (this.pendingCr && text.length > 0) {
      this.pendingCr = false;
      if (text.startsWith('\n')) text = text.slice(1);
    }
    this.buffer += text;
    const out: SseMessage[] = [];
    let start = 0;
    for (;;) {
      const cr = this.buffer.indexOf('\r', start);
      const lf = this.buffer.indexOf('\n', start);
      if (cr < 0 && lf < 0) break;
      let end: number;
      let next: number;
      if (cr >= 0 && (lf < 0 || cr < lf)) {
        end = cr;
        if (cr + 1 === this.buffer.length) {
          // CR at the very end: the line is complete; an LF may still follow in the next chunk.
          this.pendingCr = true;
          next = cr + 1;
        } else next = this.buffer[cr + 1] === '\n' ? cr + 2 : cr + 1;
      } else {
        end = lf;
        next = lf + 1;
      }
      const message = this.line(this.buffer.slice(start, end));
      if (message) out.push(message);
      start = next;
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  /** The stream ended: an incomplete message (no blank line after it) is discarded, as the standard says. */
  end(): void {
    this.buffer = '';
    this.reset();
  }

  private reset(): void {
    this.data = [];
    this.hasData = false;
    this.eventType = '';
    this.retry = undefined;
  }

  private line(line: string): SseMessage | undefined {
    if (line === '') {
      if (!this.hasData) {
        this.reset();
        return undefined;
      }
      const message: SseMessage = { id: this.lastEventId, event: this.eventType || 'message', data: this.data.join('\n') };
      if (this.retry !== undefined) message.retry = this.retry;
      this.reset();
      return message;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.data.push(value);
        this.hasData = true;
        break;
      case 'event':
        this.eventType = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastEventId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retry = Number(value);
        break;
      default:
        break;
    }
    return undefined;
  }
}

/** Reads a response body of `text/event-stream` as messages (UTF-8, chunks split anywhere, even inside a character). */
export async function* readSse(body: ReadableStream<Uint8Array>, initialLastEventId?: string): AsyncGenerator<SseMessage, void, undefined> {
  const parser = new SseParser(initialLastEventId);
  const decoder = new TextDecoder('utf-8');
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
    yield* parser.push(decoder.decode());
    parser.end();
  } finally {
    // Stops the download when the consumer leaves the loop early (break, throw).
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
