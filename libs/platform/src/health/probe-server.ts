import { createServer, type Server } from 'node:http';
import { Logger } from '@nestjs/common';
import { metricsRegistry } from '../metrics/metrics.js';

export type ReadinessCheck = () => Promise<Record<string, boolean>>;

/**
 * Kubernetes probes for services without an HTTP API: `GET /livez` (process is up) and
 * `GET /readyz` (every dependency answers; 503 with the failing ones otherwise), and `GET /metrics` (Prometheus).
 */
export async function startProbeServer(port: number, ready: ReadinessCheck): Promise<Server> {
  const logger = new Logger('Probes');
  const server = createServer((req, res) => {
    const send = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/livez' || req.url === '/health') return send(200, { status: 'ok' });
    if (req.url === '/metrics') {
      metricsRegistry
        .metrics()
        .then((text) => {
          res.writeHead(200, { 'content-type': metricsRegistry.contentType });
          res.end(text);
        })
        .catch((error: Error) => send(500, { detail: `metrics failed: ${error.message}` }));
      return;
    }
    if (req.url === '/readyz') {
      ready()
        .then((checks) => {
          const ok = Object.values(checks).every(Boolean);
          send(ok ? 200 : 503, { status: ok ? 'ok' : 'unavailable', checks });
        })
        .catch((error: Error) => send(503, { status: 'unavailable', error: error.message }));
      return;
    }
    send(404, { detail: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(port, '0.0.0.0', resolve));
  logger.log(`probes on :${(server.address() as { port: number }).port} (/livez, /readyz, /metrics)`);
  return server;
}
