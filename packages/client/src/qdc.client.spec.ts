import { decodeNpy } from '#qdc/arrays';
import { QdcApiError, QdcStreamInterruptedError, QdcTransportError } from './qdc-api.error.js';
import { createClient } from './qdc.client.js';

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: RequestInit['body'];
}

/** A fetch that records what was sent and answers from a queue. */
function fakeFetch(...answers: (Response | (() => Response))[]) {
  const sent: Sent[] = [];
  const fetch = async (url: string, init: RequestInit = {}) => {
    sent.push({ url, method: init.method ?? 'GET', headers: init.headers as Record<string, string>, body: init.body });
    const next = answers.shift();
    if (!next) throw new Error('no answer queued');
    return typeof next === 'function' ? next() : next;
  };
  return { fetch, sent };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

function factory(...answers: (Response | (() => Response))[]) {
  const mocks = fakeFetch(...answers);
  const sut = createClient({ baseUrl: 'http://qdc.test:8000/', token: 'coda_test', fetch: mocks.fetch });
  return { sut, mocks };
}

describe(createClient.name, () => {
  it('sends the key, a request id and the canonical path with the query', async () => {
    const { sut, mocks } = factory(json(200, []));
    await sut.models.list({ skip: 5, limit: 10 });
    expect(mocks.sent[0]!.url).toBe('http://qdc.test:8000/v0/control/models?skip=5&limit=10');
    expect(mocks.sent[0]!.headers.authorization).toBe('Bearer coda_test');
    expect(mocks.sent[0]!.headers['x-request-id']).toMatch(/^[0-9a-f-]{32,36}$/);
  });

  it('uploads an array as a .npy file part with the model and flags', async () => {
    const { sut, mocks } = factory(json(200, { id: 'r1', output: {} }));
    await sut.models.run({ model: 'coulomb-blockade-peak-detector-v2', data: [1, 2, 3], plot: true, darkMode: false }, { requestId: 'mine-1' });
    const { url, method, headers, body } = mocks.sent[0]!;
    expect([url, method, headers['x-request-id']]).toEqual(['http://qdc.test:8000/v0/control/models', 'POST', 'mine-1']);
    const form = body as FormData;
    expect(form.get('model')).toBe('coulomb-blockade-peak-detector-v2');
    expect([form.get('plot'), form.get('dark_mode')]).toEqual(['true', 'false']);
    const file = form.get('data') as File;
    expect(file.name).toBe('data.npy');
    const decoded = decodeNpy(new Uint8Array(await file.arrayBuffer()));
    expect([decoded.shape, [...decoded.data]]).toEqual([[3], [1, 2, 3]]);
  });

  it('sends file bytes as they are, named after their format', async () => {
    const { sut, mocks } = factory(json(200, {}), json(200, {}));
    await sut.models.run({ model: 'm', data: new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2]) });
    await sut.models.runBatch({ model: 'm', data: new Uint8Array([1, 2, 3]).buffer, fileName: 'scan.npy' });
    const first = (mocks.sent[0]!.body as FormData).get('data') as File;
    const second = (mocks.sent[1]!.body as FormData).get('data') as File;
    expect([first.name, first.size, second.name, mocks.sent[1]!.url]).toEqual(['data.pt', 6, 'scan.npy', 'http://qdc.test:8000/v0/control/models/batch']);
  });

  it('throws QdcApiError with the FastAPI detail and the request id', async () => {
    const { sut } = factory(json(404, { detail: 'Model not found' }, { 'x-request-id': 'req-404' }));
    const error = await sut.models.get('nope').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QdcApiError);
    expect(error).toMatchObject({ status: 404, detail: 'Model not found', requestId: 'req-404', error: undefined, success: undefined });
    expect((error as Error).message).toBe('404 Model not found (GET /v0/control/models/nope)');
  });

  it('keeps the validation list of a 422 and says every problem in the message', async () => {
    const detail = [
      { loc: ['body', 'data'], msg: 'expected a 1-D array; got shape [2, 2]', type: 'value_error.shape' },
      { loc: ['body', 'plot'], msg: 'expected true, false, 1 or 0', type: 'bool_parsing' },
    ];
    const { sut } = factory(json(422, { detail }));
    const error = (await sut.models
      .run({
        model: 'm',
        data: [
          [1, 2],
          [3, 4],
        ],
      })
      .catch((e: unknown) => e)) as QdcApiError;
    expect(error.issues).toEqual(detail);
    expect(error.message).toBe('422 body.data: expected a 1-D array; got shape [2, 2]; body.plot: expected true, false, 1 or 0 (POST /v0/control/models)');
  });

  it('maps coda failures: success false, error, detail', async () => {
    const body = {
      success: false,
      error: 'shots must be from 10 to 10000',
      detail: [{ loc: ['body', 'shots'], msg: 'shots must be from 10 to 10000', type: 'too_small' }],
    };
    const { sut } = factory(json(422, body, { 'x-request-id': 'req-c' }));
    const error = (await sut.qpus.submit({ code: 'x', backend: 'b', shots: 1 }).catch((e: unknown) => e)) as QdcApiError;
    expect(error).toMatchObject({ status: 422, success: false, error: 'shots must be from 10 to 10000', requestId: 'req-c' });
    expect(error.issues).toHaveLength(1);
    expect(error.message).toBe('422 body.shots: shots must be from 10 to 10000 (POST /v0/coda/qpus)');
  });

  it('keeps a body that is not JSON as text, and a 5xx error id', async () => {
    const { sut } = factory(new Response('<html>bad gateway</html>', { status: 502 }), json(500, { detail: 'Internal Server Error', error_id: 'e-1' }));
    expect(await sut.results.get('r').catch((e: QdcApiError) => [e.status, e.body, e.message])).toEqual([
      502,
      '<html>bad gateway</html>',
      '502 <html>bad gateway</html> (GET /v0/control/model-results/r)',
    ]);
    expect(await sut.results.get('r').catch((e: QdcApiError) => e.errorId)).toBe('e-1');
  });

  it('sends a 503 with Retry-After again with the same request id; a submission only with an Idempotency-Key', async () => {
    const unavailable = () => json(503, { detail: 'results is restarting' }, { 'retry-after': '0' });
    const { sut, mocks } = factory(unavailable, json(200, { id: 'r' }), unavailable, unavailable, json(200, { success: true }));
    expect(await sut.results.get('r')).toEqual({ id: 'r' });
    expect(mocks.sent[0]!.headers['x-request-id']).toBe(mocks.sent[1]!.headers['x-request-id']);
    await expect(sut.qpus.submit({ code: 'c', backend: 'b' })).rejects.toMatchObject({ status: 503, retryAfterSeconds: 0 });
    expect(await sut.qpus.submit({ code: 'c', backend: 'b' }, { idempotencyKey: 'k-1' })).toEqual({ success: true });
    expect(mocks.sent.map((s) => s.headers['idempotency-key'])).toEqual([undefined, undefined, undefined, 'k-1', 'k-1']);
  });

  it('reports a network failure as QdcTransportError with the request id it sent', async () => {
    const mocks = {
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    };
    const sut = createClient({ baseUrl: 'http://qdc.test', fetch: mocks.fetch });
    const error = (await sut.qpus.list({ requestId: 'net-1' }).catch((e: unknown) => e)) as QdcTransportError;
    expect(error).toBeInstanceOf(QdcTransportError);
    expect([error.requestId, error.message]).toEqual(['net-1', 'GET http://qdc.test/v0/coda/qpus failed: fetch failed']);
  });

  it('polls a QPU job until it ends, telling each status change once', async () => {
    const status = (s: string, extra: object = {}) => json(200, { success: true, job_id: 'j', status: s, ...extra });
    const { sut, mocks } = factory(status('queued'), status('queued'), status('running'), status('completed', { results: { '00': 6, '11': 4 } }));
    const seen: string[] = [];
    const final = await sut.qpus.wait('j', { intervalMs: 1, onStatus: (s) => seen.push(s.status) });
    expect(seen).toEqual(['queued', 'running', 'completed']);
    expect(final.results).toEqual({ '00': 6, '11': 4 });
    expect(mocks.sent.every((s) => s.url === 'http://qdc.test:8000/v0/coda/qpus/status' && s.body === '{"job_id":"j"}')).toBe(true);
  });

  it('downloads bytes', async () => {
    const { sut } = factory(new Response(new Uint8Array([0x50, 0x4b, 5]), { status: 200, headers: { 'content-type': 'application/zip' } }));
    expect([...(await sut.results.download('r'))]).toEqual([0x50, 0x4b, 5]);
  });
});

describe('admin: lab credentials and lab streams', () => {
  it('lists, issues (no retry: the seed is answered once) and revokes lab credentials', async () => {
    const created = {
      lab: 'lab-a',
      public_key: 'UABC',
      added_at: '2026-12-01T00:00:00.000Z',
      credentials: { lab: 'lab-a', namespace: 'qdc', nkey_seed: 'SUXYZ' },
      reloaded: true,
    };
    const { sut, mocks } = factory(json(200, []), json(201, created), json(200, { ...created, revoked_at: '2026-12-01T00:01:00.000Z' }));
    expect(await sut.admin.labCredentials.list()).toEqual([]);
    expect((await sut.admin.labCredentials.create({ lab: 'lab-a' })).credentials.nkey_seed).toBe('SUXYZ');
    expect((await sut.admin.labCredentials.revoke('lab-a')).revoked_at).toBe('2026-12-01T00:01:00.000Z');
    expect(mocks.sent.map((s) => `${s.method} ${s.url}`)).toEqual([
      'GET http://qdc.test:8000/v0/admin/lab-credentials',
      'POST http://qdc.test:8000/v0/admin/lab-credentials',
      'DELETE http://qdc.test:8000/v0/admin/lab-credentials/lab-a',
    ]);
    expect(JSON.parse(mocks.sent[1]!.body as string)).toEqual({ lab: 'lab-a' });
  });

  it('does not send a create again after a lost answer', async () => {
    const { sut, mocks } = factory(json(503, { detail: 'NATS down' }), json(201, {}));
    await expect(sut.admin.labCredentials.create({ lab: 'lab-a' })).rejects.toMatchObject({ status: 503 });
    expect(mocks.sent).toHaveLength(1);
  });

  it('lists one lab’s streams and removes a stream by lab and name', async () => {
    const { sut, mocks } = factory(json(200, []), json(200, { deleted: ['lab-a/s1'] }), new Response(new Uint8Array([0x50, 0x4b]), { status: 200 }));
    await sut.admin.labStreams.list({ lab: 'lab-a' });
    expect(await sut.admin.labStreams.remove('lab-a', 's1')).toEqual({ deleted: ['lab-a/s1'] });
    expect([...(await sut.admin.labStreams.downloadResult('lab-a', 's1', 'r1'))]).toEqual([0x50, 0x4b]);
    expect(mocks.sent.map((s) => `${s.method} ${s.url}`)).toEqual([
      'GET http://qdc.test:8000/v0/admin/lab-streams?lab=lab-a',
      'DELETE http://qdc.test:8000/v0/admin/lab-streams/lab-a/s1',
      'GET http://qdc.test:8000/v0/admin/lab-streams/lab-a/s1/results/r1/download',
    ]);
  });
});

describe('event streams', () => {
  const sse = (text: string, status = 200) =>
    new Response(new TextEncoder().encode(text), { status, headers: { 'content-type': 'text/event-stream; charset=utf-8', 'x-request-id': 'req-s' } });

  it('yields typed events with their SSE ids and stops at the terminal event', async () => {
    const { sut, mocks } = factory(
      sse(
        ': keepalive\n\nid: run:1\ndata: {"type":"token","content":"Hi"}\n\nid: run:2\ndata: {"type":"completed","thread_id":"t"}\n\nid: run:3\ndata: {"type":"token","content":"late"}\n\n',
      ),
    );
    const stream = sut.agents.stream({ messages: [{ role: 'user', content: 'a Bell state' }] });
    const events = [];
    for await (const e of stream) events.push(e);
    expect(events).toEqual([
      { type: 'token', content: 'Hi', eventId: 'run:1' },
      { type: 'completed', thread_id: 't', eventId: 'run:2' },
    ]);
    expect(stream.lastEventId).toBe('run:2');
    expect(mocks.sent[0]!.headers.accept).toBe('text/event-stream');
    expect(mocks.sent[0]!.headers['last-event-id']).toBeUndefined();
  });

  it('resumes with Last-Event-ID and throws QdcStreamInterruptedError when the stream ends early', async () => {
    const { sut, mocks } = factory(sse('id: run:5\ndata: {"type":"token","content":"x"}\n\n'));
    const stream = sut.agents.stream({ messages: [{ role: 'user', content: 'q' }] }, { lastEventId: 'run:4' });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const e of stream) seen.push(e.eventId!);
    })().catch((e: unknown) => e);
    expect(mocks.sent[0]!.headers['last-event-id']).toBe('run:4');
    expect(seen).toEqual(['run:5']);
    expect(error).toBeInstanceOf(QdcStreamInterruptedError);
    expect((error as QdcStreamInterruptedError).lastEventId).toBe('run:5');
  });

  it('follows a QPU job to its results, and ends without a drop after a cancelled job’s last status', async () => {
    const { sut, mocks } = factory(
      sse('id: 1\ndata: {"type":"status","status":"queued","at":"t0"}\n\nid: 3\ndata: {"type":"results","results":{"00":7}}\n\n'),
      sse('id: 2\ndata: {"type":"status","status":"cancelled","at":"t1"}\n\n'),
    );
    const completed = [];
    for await (const e of sut.qpus.events('job-1')) completed.push(e);
    expect(completed.map((e) => [e.type, e.eventId])).toEqual([
      ['status', '1'],
      ['results', '3'],
    ]);
    expect(mocks.sent[0]).toMatchObject({ method: 'GET', url: 'http://qdc.test:8000/v0/coda/qpus/jobs/job-1/events' });
    const cancelled = [];
    for await (const e of sut.qpus.events('job-2', { lastEventId: '1' })) cancelled.push(e.type);
    expect(cancelled).toEqual(['status']);
    expect(mocks.sent[1]!.headers['last-event-id']).toBe('1');
  });

  it('throws the API error of a refused request from the first step', async () => {
    const { sut } = factory(json(422, { success: false, error: 'messages must include a non-empty user message', detail: [] }));
    const stream = sut.agents.stream({ messages: [{ role: 'user', content: ' ' }] });
    await expect(stream[Symbol.asyncIterator]().next()).rejects.toMatchObject({ status: 422, error: 'messages must include a non-empty user message' });
  });
});
