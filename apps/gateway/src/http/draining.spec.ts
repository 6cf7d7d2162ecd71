import { DrainingFastifyAdapter, SHUTTING_DOWN_DETAIL, registerDraining } from './draining.js';
import { registerResponseHeaders } from './response-headers.js';

/** The gateway's adapter with its hooks, on an ephemeral port (light-my-request's inject does not load under ESM jest). */
async function newDrainingServer() {
  const adapter = new DrainingFastifyAdapter({ genReqId: () => 'req-7', return503OnClosing: false });
  const app = adapter.getInstance();
  registerResponseHeaders(app, new Set());
  registerDraining(app, adapter);
  let handled = 0;
  app.post('/v0/models', async () => {
    handled += 1;
    return { ok: true };
  });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  servers.push(app);
  const post = async () => {
    const res = await fetch(`${base}/v0/models`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    return { status: res.status, headers: Object.fromEntries(res.headers) as Record<string, string | undefined>, body: await res.text() };
  };
  return { sut: adapter, mocks: { post, handled: () => handled } };
}

const servers: { close(): Promise<unknown> }[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe(registerDraining.name, () => {
  it('serves normally until shutdown begins', async () => {
    const { mocks } = await newDrainingServer();
    expect((await mocks.post()).status).toBe(200);
    expect(mocks.handled()).toBe(1);
  });

  it('once Nest begins shutting down, answers 503 {"detail"} with Retry-After and Connection: close, without running the handler', async () => {
    const { sut, mocks } = await newDrainingServer();
    sut.beforeClose();
    const res = await mocks.post();
    expect(res.status).toBe(503);
    expect(JSON.parse(res.body)).toEqual({ detail: SHUTTING_DOWN_DETAIL });
    expect(res.headers).toMatchObject({ 'retry-after': '2', connection: 'close', 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'req-7' });
    expect(mocks.handled()).toBe(0);
  });
});
