import { createServer, type Server } from 'node:http';
import { Logger } from '@nestjs/common';

export type ReadinessCheck = () => Promise<Record<string, boolean>>;

/**
 * Kubernetes probes for services without an HTTP API: `GET /livez` (process is up) and
 * `GET /readyz` (every dependency answers; 503 with the failing ones otherwise).
 */
export async function startProbeServer(port: number, ready: ReadinessCheck): Promise<Server> {
  const logger = new Logger('Probes');
  const server = createServer((req, res) => {
    const send = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/livez' || req.url === '/health') return send(200, { status: 'ok' });
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
  logger.log(`probes on :${port} (/livez, /readyz)`);
  return server;
}
