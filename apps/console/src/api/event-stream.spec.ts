import { QdcApiError, QdcStreamInterruptedError, type StreamEvent } from '@qdc/client';
import { followEventStream, type EventStreamState } from './event-stream.js';

type Tick = { type: 'tick'; n: number };
const tick = (n: number): StreamEvent<Tick> => ({ type: 'tick', n, eventId: String(n) });
const apiError = (status: number, retryAfter?: string) =>
  new QdcApiError({ status, body: { detail: `status ${status}` }, retryAfter, method: 'GET', url: 'http://x/v0/events' });

/** A scripted server: each open() plays the next script — events, then an end, an interruption or an error. */
function server(scripts: { events: number[]; ending: 'end' | 'drop' | QdcApiError }[]) {
  const opened: (string | undefined)[] = [];
  const listeners = new Map<string, (status: number) => void>();
  const api = {
    onAnswer: (requestId: string, listener: (status: number) => void) => {
      listeners.set(requestId, listener);
      return () => listeners.delete(requestId);
    },
  };
  const open = (lastEventId: string | undefined, _signal: AbortSignal, requestId: string) => {
    opened.push(lastEventId);
    const script = scripts.shift();
    if (!script) throw new Error('opened once too often');
    // The answer's headers: an API error is an error status, anything else a 200 event stream.
    listeners.get(requestId)?.(script.ending instanceof QdcApiError && script.events.length === 0 ? script.ending.status : 200);
    return (async function* () {
      for (const n of script.events) yield tick(n);
      if (script.ending === 'drop') throw new QdcStreamInterruptedError(script.events.length ? String(script.events.at(-1)) : lastEventId);
      if (script.ending instanceof QdcApiError) throw script.ending;
    })();
  };
  return { api, open, opened };
}

async function follow(s: ReturnType<typeof server>, lastEventId?: string) {
  const events: number[] = [];
  const states: EventStreamState[] = [];
  await followEventStream<Tick>({
    api: s.api,
    open: s.open,
    signal: new AbortController().signal,
    onEvent: (e) => events.push(e.n),
    onState: (state) => states.push(state),
    lastEventId,
    backoffMs: 1,
  });
  return { events, states };
}

describe('followEventStream', () => {
  it('is open once the answer arrives, and reopens a dropped stream after the last event received until it ends by itself', async () => {
    const s = server([
      { events: [1, 2], ending: 'drop' },
      { events: [], ending: 'drop' },
      { events: [3], ending: 'end' },
    ]);
    const { events, states } = await follow(s);
    expect(events).toEqual([1, 2, 3]);
    expect(s.opened).toEqual([undefined, '2', '2']);
    expect(states).toEqual(['connecting', 'open', 'reconnecting', 'open', 'reconnecting', 'open', 'ended']);
  });

  it('waits and retries on 429 and 5xx, resuming from where it was', async () => {
    const s = server([
      { events: [], ending: apiError(429, '0') },
      { events: [7], ending: apiError(503) },
      { events: [8], ending: 'end' },
    ]);
    expect((await follow(s, '6')).events).toEqual([7, 8]);
    expect(s.opened).toEqual(['6', '6', '7']);
  });

  it('gives up with the server’s message on an answer retrying cannot change', async () => {
    const s = server([{ events: [], ending: apiError(404) }]);
    const states: [EventStreamState, string | undefined][] = [];
    await followEventStream<Tick>({
      api: s.api,
      open: s.open,
      signal: new AbortController().signal,
      onEvent: () => undefined,
      onState: (st, d) => states.push([st, d]),
    });
    expect(states.at(-1)).toEqual(['failed', expect.stringContaining('status 404')]);
    expect(s.opened).toHaveLength(1);
  });

  it('stops quietly when aborted', async () => {
    const controller = new AbortController();
    const s = server([{ events: [1], ending: 'drop' }]);
    const states: EventStreamState[] = [];
    await followEventStream<Tick>({
      api: s.api,
      open: s.open,
      signal: controller.signal,
      onEvent: () => controller.abort(),
      onState: (st) => states.push(st),
    });
    expect(states).toEqual(['connecting', 'open']);
    expect(s.opened).toHaveLength(1);
  });
});
