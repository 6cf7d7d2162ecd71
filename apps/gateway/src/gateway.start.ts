import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { QdcLogger, developmentSecrets, exitAfterGrace, hostService, inSingleProcess, initTracing, loadConfig, setMetricsService } from '#qdc/platform';
import { GatewayModule } from './gateway.module.js';
import { clientErrorHandler, requestIdFor } from './http/connection-level.js';
import { DrainingFastifyAdapter, registerDraining } from './http/draining.js';
import { boundedJsonParser } from './http/json-body.js';
import { registerMetrics } from './http/metrics.route.js';
import { registerTracing } from './http/tracing.hook.js';
import { parseCorsOrigins, registerResponseHeaders } from './http/response-headers.js';

/**
 * The gateway: the HTTP API on PORT. In the single-process mode (apps/all-in-one) the host owns the logger, the
 * metrics label and the signals, and closes the gateway first on SIGTERM.
 */
export async function startGateway(): Promise<NestFastifyApplication> {
  const config = loadConfig();
  const single = inSingleProcess();
  // Every `new Logger(Thing.name)` of the gateway writes through this one (JSON in production, request ids).
  if (!single) Logger.overrideLogger(new QdcLogger(config, 'gateway'));
  const adapter = new DrainingFastifyAdapter({
    bodyLimit: config.QDC_JSON_BODY_LIMIT_BYTES,
    // A request must arrive whole within this (a slow or stalled body: 408 from clientErrorHandler, connection closed);
    // Node checks the open connections every interval, so the interval bounds how late past the limit the 408 comes.
    requestTimeout: config.QDC_HTTP_REQUEST_TIMEOUT_MS,
    http: {
      headersTimeout: Math.min(60_000, config.QDC_HTTP_REQUEST_TIMEOUT_MS),
      connectionsCheckingInterval: Math.min(30_000, Math.max(250, Math.floor(config.QDC_HTTP_REQUEST_TIMEOUT_MS / 10))),
    },
    // Echo the caller's X-Request-Id (when short and plain), or make one; it travels on through NATS and BullMQ.
    requestIdHeader: false,
    genReqId: (request: { headers: Record<string, string | string[] | undefined> }) => requestIdFor(request.headers['x-request-id']),
    clientErrorHandler,
    multipart: { limits: { fileSize: config.QDC_UPLOAD_LIMIT_BYTES, files: 1, fields: 16, fieldSize: 64 * 1024 } },
    // The shutdown 503 is ours (registerDraining: FastAPI-style body, Retry-After), not Fastify's.
    return503OnClosing: false,
  });
  registerResponseHeaders(adapter.getInstance(), parseCorsOrigins(config.QDC_CORS_ORIGINS));
  registerDraining(adapter.getInstance(), adapter);
  adapter.useBodyParser('application/json', false, { bodyLimit: config.QDC_JSON_BODY_LIMIT_BYTES }, boundedJsonParser(adapter.getInstance()));
  if (!single) setMetricsService('gateway');
  registerMetrics(adapter.getInstance());
  if (initTracing(config, 'gateway')) registerTracing(adapter.getInstance());
  // SIGTERM: new requests get 503 (Connection: close, Retry-After, `{detail}`) while those in flight finish; NATS closes after the HTTP server.
  // Single-process mode: a boot error reaches the host (apps/all-in-one), which closes the other services and names this one.
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule, adapter, { bufferLogs: false, abortOnError: !single });
  if (!single) {
    app.enableShutdownHooks();
    exitAfterGrace('gateway', config.QDC_SHUTDOWN_GRACE_MS);
  }
  await app.listen(config.PORT, config.HOST);
  if (single) hostService({ name: 'gateway', app });
  for (const warning of developmentSecrets(config)) new Logger('gateway').warn(`development secret in use: ${warning}`);
  new Logger('gateway').log(`listening on http://${config.HOST}:${config.PORT} (docs at /docs)`);
  return app;
}
