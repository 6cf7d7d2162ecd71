import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { RETRY_AFTER_SECONDS } from './exception.filter.js';

/** What a request that arrives while the gateway drains is told (FastAPI-style, like every other error body). */
export const SHUTTING_DOWN_DETAIL = 'the gateway is shutting down; retry the request (another replica will answer)';

/** The shutdown state a draining gateway's request hook reads. */
export interface DrainState {
  shuttingDown: boolean;
}

/**
 * SIGTERM: requests that arrive after shutdown began (keep-alive connections, pipelined requests)
 * answer 503 `{"detail": …}` with `Retry-After` and `Connection: close`, before any middleware or
 * handler runs; those already in flight finish. Replaces the Fastify/Nest 503 (`{statusCode, error,
 * message}`), which both are told to leave off (`return503OnClosing: false`).
 */
export function registerDraining(app: FastifyInstance, state: DrainState): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (!state.shuttingDown) return done();
    if (request.raw.httpVersionMajor !== 2) reply.header('Connection', 'close');
    reply.code(503).header('Retry-After', String(RETRY_AFTER_SECONDS)).send({ detail: SHUTTING_DOWN_DETAIL });
  });
}

/** A Fastify adapter that records when Nest begins shutting down (before its shutdown hooks run) and when it closes. */
export class DrainingFastifyAdapter extends FastifyAdapter implements DrainState {
  shuttingDown = false;

  override beforeClose(): void {
    this.shuttingDown = true;
    super.beforeClose();
  }

  override async close(): Promise<void> {
    this.shuttingDown = true;
    await super.close();
  }
}
