import type { FastifyInstance } from 'fastify';
import type { Span } from '@opentelemetry/api';
import { SpanKind, bindTraceContext, contextFromCarrier, markError, startSpan, tracingEnabled, withTraceContext } from '#qdc/platform';

/**
 * The server span of every HTTP request (when tracing is on): child of the caller's `traceparent` if it sent one,
 * named by route pattern when the answer goes out, and the active context for everything the request does — the
 * hooks, the Nest guard and handler, and the body's stream events (bound to the request), so NATS requests and
 * queued jobs it causes join the trace.
 */
export function registerTracing(app: FastifyInstance): void {
  if (!tracingEnabled()) return;
  const spans = new WeakMap<object, Span>();
  app.addHook('onRequest', (request, reply, done) => {
    const started = startSpan(request.method, {
      kind: SpanKind.SERVER,
      parent: contextFromCarrier(request.headers),
      attributes: { 'http.request.method': request.method, 'url.path': request.url.split('?')[0]!, 'qdc.request_id': request.id },
    });
    if (!started) return done();
    spans.set(request, started.span);
    bindTraceContext(started.context, request.raw);
    bindTraceContext(started.context, reply.raw);
    withTraceContext(started.context, done);
  });
  const finish = (request: object, status: number | undefined, route: string | undefined, method: string): void => {
    const span = spans.get(request);
    if (!span) return;
    spans.delete(request);
    if (route) {
      span.updateName(`${method} ${route}`);
      span.setAttribute('http.route', route);
    }
    if (status !== undefined) {
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) markError(span, undefined, `HTTP ${status}`);
    } else {
      markError(span, undefined, 'client went away before the answer');
    }
    span.end();
  };
  app.addHook('onResponse', (request, reply, done) => {
    finish(request, reply.statusCode, request.routeOptions.url, request.method);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    finish(request, undefined, request.routeOptions.url, request.method);
    done();
  });
}
