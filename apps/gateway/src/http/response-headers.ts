import type { FastifyInstance } from 'fastify';

/**
 * Headers every answer carries, and CORS for the origins an operator lists (none by default: the
 * API is called by SDKs and scripts, not by browsers on other sites).
 */
const SECURITY_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};
/** JSON answers never need to load anything; the docs page (Swagger UI) does, so it is left out. */
const API_CSP = "default-src 'none'; frame-ancestors 'none'";
const CORS_METHODS = 'GET, POST, PUT, DELETE, OPTIONS';
const CORS_HEADERS = 'authorization, content-type, x-request-id, idempotency-key, last-event-id';

export function parseCorsOrigins(setting: string): Set<string> {
  return new Set(
    setting
      .split(',')
      .map((origin) => origin.trim().replace(/\/$/, ''))
      .filter(Boolean),
  );
}

export function registerResponseHeaders(app: FastifyInstance, corsOrigins: Set<string>): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    reply.headers(SECURITY_HEADERS);
    if (!request.url.startsWith('/docs')) reply.header('content-security-policy', API_CSP);
    const origin = request.headers.origin;
    if (origin && corsOrigins.has(origin)) {
      reply.header('access-control-allow-origin', origin);
      reply.header('vary', 'Origin');
      reply.header('access-control-expose-headers', 'x-request-id, retry-after');
      if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
        reply
          .header('access-control-allow-methods', CORS_METHODS)
          .header('access-control-allow-headers', CORS_HEADERS)
          .header('access-control-max-age', '600')
          .code(204)
          .send();
        return;
      }
    }
    done();
  });
}
