/** A small SSE reader for tests: frames as sent (comments included), per the WHATWG event-stream format. */
export interface SseFrame {
  id?: string;
  data?: string;
  comment?: string;
  event?: Record<string, unknown>;
}

export interface SseRead {
  status: number;
  contentType: string | null;
  frames: SseFrame[];
  /** The JSON events, in order. */
  events: Record<string, unknown>[];
  raw: string;
}

/**
 * POSTs and reads the stream until it ends, or until `stopAfter` returns true for the frames so far
 * (then the connection is dropped, as a client that goes away; frames after that one are not returned).
 */
export function postSse(
  url: string,
  token: string,
  body: unknown,
  options: { headers?: Record<string, string>; stopAfter?: (frames: SseFrame[]) => boolean } = {},
): Promise<SseRead> {
  return readSse(url, token, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body), ...options });
}

/** GETs an event stream (the job and lab-stream event routes) and reads it like postSse. */
export function getSse(
  url: string,
  token: string,
  options: { headers?: Record<string, string>; stopAfter?: (frames: SseFrame[]) => boolean; signal?: AbortSignal } = {},
): Promise<SseRead> {
  return readSse(url, token, { method: 'GET', ...options });
}

async function readSse(
  url: string,
  token: string,
  options: { method: string; body?: string; headers?: Record<string, string>; stopAfter?: (frames: SseFrame[]) => boolean; signal?: AbortSignal },
): Promise<SseRead> {
  const controller = new AbortController();
  options.signal?.addEventListener('abort', () => controller.abort());
  const response = await fetch(url, {
    method: options.method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      accept: 'text/event-stream',
      ...options.headers,
    },
    body: options.body,
    signal: controller.signal,
  });
  const contentType = response.headers.get('content-type');
  if (!contentType?.startsWith('text/event-stream')) {
    const raw = await response.text();
    return { status: response.status, contentType, frames: [], events: [], raw };
  }
  const frames: SseFrame[] = [];
  let raw = '';
  let buffer = '';
  const decoder = new TextDecoder();
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      const text = decoder.decode(chunk, { stream: true });
      raw += text;
      buffer += text;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const frame: SseFrame = {};
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) frame.comment = line.slice(1).trim();
          else if (line.startsWith('id:')) frame.id = line.slice(3).trim();
          else if (line.startsWith('data:')) frame.data = (frame.data ? `${frame.data}\n` : '') + line.slice(5).replace(/^ /, '');
        }
        if (frame.data !== undefined) frame.event = JSON.parse(frame.data) as Record<string, unknown>;
        frames.push(frame);
        // Checked per frame, not per chunk: a loaded server may send the whole stream in one chunk, and the
        // client that stops here has seen exactly these frames (the rest of the chunk is what it missed).
        if (options.stopAfter?.(frames)) {
          controller.abort();
          break;
        }
      }
      if (controller.signal.aborted) break;
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  }
  return { status: response.status, contentType, frames, events: frames.filter((f) => f.event).map((f) => f.event!), raw };
}

const TERMINAL = new Set(['completed', 'error', 'cancelled']);

/** The official client's stream invariants: JSON events with a non-empty type, exactly one terminal event, last. */
export function assertStreamInvariants(events: Record<string, unknown>[]): void {
  expect(events.length).toBeGreaterThanOrEqual(1);
  for (const e of events) {
    expect(typeof e.type).toBe('string');
    expect((e.type as string).length).toBeGreaterThan(0);
  }
  const terminal = events.map((e, i) => (TERMINAL.has(e.type as string) ? i : -1)).filter((i) => i >= 0);
  expect(terminal).toEqual([events.length - 1]);
}

export const tokensOf = (events: Record<string, unknown>[]): string =>
  events
    .filter((e) => e.type === 'token')
    .map((e) => e.content as string)
    .join('');
