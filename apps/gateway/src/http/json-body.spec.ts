import { FastifyAdapter } from '@nestjs/platform-fastify';
import { MAX_JSON_DEPTH, boundedJsonParser, jsonDeeperThan } from './json-body.js';

describe(boundedJsonParser.name, () => {
  let base: string;
  const adapter = new FastifyAdapter();
  const app = adapter.getInstance();
  beforeAll(async () => {
    // As main.ts does: Nest's application/json parser is this one.
    adapter.useBodyParser('application/json', false, { bodyLimit: 1024 * 1024 }, boundedJsonParser(app));
    app.post('/echo', async (request) => ({ got: request.body }));
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());
  const post = async (body: string, type = 'application/json') => {
    const res = await fetch(`${base}/echo`, { method: 'POST', headers: { 'content-type': type }, body });
    return { status: res.status, body: await res.json() };
  };

  it('parses ordinary JSON as Fastify does', async () => {
    expect(await post('{"data": {"x": [1, 2], "y": [[1, 2], [3, 4]]}, "s": "[[[[\\"{{"}')).toEqual({
      status: 200,
      body: {
        got: {
          data: {
            x: [1, 2],
            y: [
              [1, 2],
              [3, 4],
            ],
          },
          s: '[[[["{{',
        },
      },
    });
    expect((await post('{"a": 1', 'application/json; charset=utf-8')).status).toBe(400);
    expect((await post('{"__proto__": {"x": 1}}')).status).toBe(400);
  });

  it(`refuses a body nested deeper than ${MAX_JSON_DEPTH} levels with 400 (the filter's 422) before parsing it`, async () => {
    const res = await post(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(`expected a JSON body nested at most ${MAX_JSON_DEPTH} levels deep; got a deeper one`);
    expect((await post(`${'{"a":'.repeat(MAX_JSON_DEPTH)}1${'}'.repeat(MAX_JSON_DEPTH)}`)).status).toBe(200);
  });

  it('counts brackets inside strings as text', () => {
    expect(jsonDeeperThan(`["${'['.repeat(500)}"]`, 2)).toBe(false);
    expect(jsonDeeperThan('["\\"", [[[1]]]]', 3)).toBe(true);
  });
});
