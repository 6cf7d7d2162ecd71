import { SseParser, readSse, type SseMessage } from './sse.parser.js';

const STREAM = [
  ': keepalive',
  '',
  'id: 3f8a2a8e-8c1f-4d6c-9d1e-0c1b2a3d4e5f:1',
  'data: {"type":"token","content":"Hello"}',
  '',
  'id: 3f8a2a8e-8c1f-4d6c-9d1e-0c1b2a3d4e5f:2',
  'event: custom',
  'data: first line',
  'data:second line',
  'data',
  '',
  'retry: 2500',
  'data: {"type":"token","content":"é ✓ 😀"}',
  '',
  ': a comment between events',
  'id: 3f8a2a8e-8c1f-4d6c-9d1e-0c1b2a3d4e5f:3',
  'data: {"type":"completed"}',
  '',
  '',
].join('\n');

const EXPECTED: SseMessage[] = [
  { id: '3f8a2a8e-8c1f-4d6c-9d1e-0c1b2a3d4e5f:1', event: 'message', data: '{"type":"token","content":"Hello"}' },
  { id: '3f8a2a8e-8c1f-4d6c-9d1e-0c1b2a3d4e5f:2', event: 'custom', data: 'first line\nsecond line\n' },
  // No id field: the stream's last event id carries over (what Last-Event-ID would resume from).
  { id: '3f8a2a8e-8c1f-4d6c-9d1e-0c1b2a3d4e5f:2', event: 'message', data: '{"type":"token","content":"é ✓ 😀"}', retry: 2500 },
  { id: '3f8a2a8e-8c1f-4d6c-9d1e-0c1b2a3d4e5f:3', event: 'message', data: '{"type":"completed"}' },
];

function parseAll(chunks: string[]): SseMessage[] {
  const parser = new SseParser();
  return chunks.flatMap((c) => parser.push(c));
}

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(c);
      controller.close();
    },
  });
}

async function collect(body: ReadableStream<Uint8Array>): Promise<SseMessage[]> {
  const out: SseMessage[] = [];
  for await (const m of readSse(body)) out.push(m);
  return out;
}

describe(SseParser.name, () => {
  it('parses ids, comments, named events, multi-line data and retry', () => {
    expect(parseAll([STREAM])).toEqual(EXPECTED);
  });

  it('gives the same messages however the text is split (every split point, every chunk size)', () => {
    for (let cut = 0; cut <= STREAM.length; cut++) expect(parseAll([STREAM.slice(0, cut), STREAM.slice(cut)])).toEqual(EXPECTED);
    for (const size of [1, 2, 3, 7, 13]) {
      const chunks: string[] = [];
      for (let i = 0; i < STREAM.length; i += size) chunks.push(STREAM.slice(i, i + size));
      expect(parseAll(chunks)).toEqual(EXPECTED);
    }
  });

  it('accepts CRLF and CR line ends, also a CRLF split between two chunks', () => {
    const crlf = STREAM.replaceAll('\n', '\r\n');
    const cr = STREAM.replaceAll('\n', '\r');
    for (const text of [crlf, cr]) {
      for (let cut = 0; cut <= text.length; cut++) expect(parseAll([text.slice(0, cut), text.slice(cut)])).toEqual(EXPECTED);
    }
  });

  it('skips a leading byte order mark, dispatches nothing for blank lines without data, ignores an id holding NUL', () => {
    const parser = new SseParser();
    expect(parser.push('\ufeffid: a\n\n\n')).toEqual([]);
    expect(parser.lastEventId).toBe('a');
    expect(parser.push('id: b\0c\ndata: x\n\n')).toEqual([{ id: 'a', event: 'message', data: 'x' }]);
    expect(parser.push('id\ndata: y\n\n')).toEqual([{ id: '', event: 'message', data: 'y' }]);
  });

  it('drops an event the stream ended in the middle of', async () => {
    const bytes = new TextEncoder().encode('id: 1\ndata: whole\n\nid: 2\ndata: cut off');
    expect(await collect(streamOf([bytes]))).toEqual([{ id: '1', event: 'message', data: 'whole' }]);
  });
});

describe(readSse.name, () => {
  it('decodes UTF-8 split inside a character', async () => {
    const bytes = new TextEncoder().encode(STREAM);
    for (const size of [1, 2, 3, 5]) {
      const chunks: Uint8Array[] = [];
      for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
      expect(await collect(streamOf(chunks))).toEqual(EXPECTED);
    }
  });

  it('starts from the id it resumes from and cancels the body when the reader stops early', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: a\n\ndata: b\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const m of readSse(body, 'run:7')) {
      expect(m).toEqual({ id: 'run:7', event: 'message', data: 'a' });
      break;
    }
    expect(cancelled).toBe(true);
  });
});
