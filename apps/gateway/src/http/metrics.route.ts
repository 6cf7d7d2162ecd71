import type { FastifyInstance } from 'fastify';
import { httpRequestDuration, metricsRegistry } from '#qdc/platform';

/**
 * `GET /metrics` (Prometheus text, no auth as SPEC §2 allows) and the latency histogram of every
 * answer, labelled by route pattern (`/v0/model-results/:id`, not the id) so labels stay bounded.
 */
export function registerMetrics(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    httpRequestDuration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    done();
  });
  app.get('/metrics', async (_request, reply) => {
    reply.header('content-type', metricsRegistry.contentType);
    return metricsRegistry.metrics();
  });
}
