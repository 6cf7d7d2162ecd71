import Fastify, { type FastifyInstance } from 'fastify';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HttpAdapterHost } from '@nestjs/core';
import { CONSOLE_CSP, ConsoleStaticRoute } from './console-static.route.js';

const INDEX = `<!doctype html><html><head><script type="module" src="/assets/app-1a2b.js"></script></head><body>${'<!-- pad -->'.repeat(200)}</body></html>`;
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});`;

/** A real listening Fastify (light-my-request's inject does not load under jest's ESM mode). */
async function serve(fastify: FastifyInstance) {
  const base = await fastify.listen({ port: 0, host: '127.0.0.1' });
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${url}`, { headers: { 'accept-encoding': 'identity', ...headers } });
    return { status: res.status, headers: Object.fromEntries(res.headers), bytes: Buffer.from(await res.arrayBuffer()) };
  };
  return get;
}

const servers: FastifyInstance[] = [];
afterAll(async () => Promise.all(servers.map((s) => s.close())));

async function newConsoleStaticRoute(files: Record<string, string> = { 'index.html': INDEX, 'assets/app-1a2b.js': SCRIPT }) {
  const dir = mkdtempSync(join(tmpdir(), 'qdc-console-'));
  for (const [name, body] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), body);
  }
  const fastify: FastifyInstance = Fastify();
  const host = { httpAdapter: { getInstance: () => fastify } } as unknown as HttpAdapterHost;
  const sut = new ConsoleStaticRoute(host, { QDC_CONSOLE_DIR: dir });
  sut.onModuleInit();
  servers.push(fastify);
  return { sut, get: await serve(fastify) };
}

describe(ConsoleStaticRoute.name, () => {
  it('answers every console page with index.html, no-cache, under the console CSP', async () => {
    const { get } = await newConsoleStaticRoute();
    for (const url of ['/', '/models', '/models/pinch-off-classifier-v0', '/results/3f0c', '/qpus', '/assistant', '/lab-streams/lab-a/sweep', '/admin']) {
      const res = await get(url);
      expect([url, res.status, res.bytes.toString()]).toEqual([url, 200, INDEX]);
      expect(res.headers).toMatchObject({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', 'content-security-policy': CONSOLE_CSP });
    }
    expect(CONSOLE_CSP).toContain("default-src 'self'");
    expect(CONSOLE_CSP).not.toContain('unsafe-inline');
  });

  it('serves hashed assets as immutable, gzipped for clients that accept it, and revalidates by ETag', async () => {
    const { get } = await newConsoleStaticRoute();
    const plain = await get('/assets/app-1a2b.js');
    expect([plain.status, plain.bytes.toString(), plain.headers['cache-control'], plain.headers['content-type']]).toEqual([
      200,
      SCRIPT,
      'public, max-age=31536000, immutable',
      'text/javascript; charset=utf-8',
    ]);
    const gzipped = await get('/assets/app-1a2b.js', { 'accept-encoding': 'gzip' });
    // fetch decodes gzip itself: the header and the size on the wire say it was sent compressed.
    expect([gzipped.headers['content-encoding'], gzipped.bytes.toString()]).toEqual(['gzip', SCRIPT]);
    expect(Number(gzipped.headers['content-length'])).toBeLessThan(SCRIPT.length / 10);
    const etag = (await get('/')).headers.etag!;
    const again = await get('/', { 'if-none-match': etag });
    expect([again.status, again.bytes.length]).toEqual([304, 0]);
  });

  it('answers 404 in the API shape for a file that is not there, and for every page when the console is not built', async () => {
    const { get } = await newConsoleStaticRoute();
    const missing = await get('/assets/nope.js');
    expect([missing.status, JSON.parse(missing.bytes.toString())]).toEqual([404, { detail: 'Not Found' }]);
    const { get: unbuilt } = await newConsoleStaticRoute({});
    expect((await unbuilt('/')).status).toBe(404);
  });
});
