import Fastify from 'fastify';
import { parseCorsOrigins, registerResponseHeaders } from './response-headers.js';

/** A bare Fastify server with the hook, on an ephemeral port (light-my-request's inject does not load under ESM jest). */
async function newServer(origins: string) {
  const app = Fastify({ genReqId: () => 'req-1' });
  registerResponseHeaders(app, parseCorsOrigins(origins));
  app.get('/v0/health', async () => ({ status: 'ok' }));
  app.get('/docs', async () => 'docs');
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  servers.push(app);
  const inject = async ({ method, url, headers = {} }: { method: string; url: string; headers?: Record<string, string> }) => {
    const res = await fetch(`${base}${url}`, { method, headers });
    await res.arrayBuffer();
    return { statusCode: res.status, headers: Object.fromEntries(res.headers) as Record<string, string | undefined> };
  };
  return { inject };
}

const servers: { close(): Promise<unknown> }[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe(registerResponseHeaders.name, () => {
  it('sends no CORS headers by default, whatever the origin, and still answers preflights as plain requests', async () => {
    const sut = await newServer('');
    const res = await sut.inject({ method: 'GET', url: '/v0/health', headers: { origin: 'https://console.lab.example' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await sut.inject({
      method: 'OPTIONS',
      url: '/v0/health',
      headers: { origin: 'https://console.lab.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('allows exactly the listed origins (a trailing slash in the setting is ignored)', async () => {
    const sut = await newServer(' https://a.example/ , https://b.example');
    const allowed = await sut.inject({ method: 'GET', url: '/v0/health', headers: { origin: 'https://a.example' } });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://a.example');
    expect(allowed.headers['vary']).toBe('Origin');
    const other = await sut.inject({ method: 'GET', url: '/v0/health', headers: { origin: 'https://a.example.evil' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('sends the security headers everywhere and the strict CSP on API answers only', async () => {
    const sut = await newServer('');
    const api = await sut.inject({ method: 'GET', url: '/v0/health' });
    expect(api.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'x-request-id': 'req-1',
    });
    expect(api.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    const docs = await sut.inject({ method: 'GET', url: '/docs' });
    expect(docs.headers['content-security-policy']).toBeUndefined();
    expect(docs.headers['x-frame-options']).toBe('DENY');
  });
});
