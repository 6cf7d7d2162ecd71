import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { withRequestId } from '#qdc/platform';
import { Authenticator } from '../auth/authenticator.js';
import { acceptsGzip } from '../http/accept-encoding.js';
import { sendException } from '../http/exception.filter.js';
import { intQuery } from '../http/query.js';
import { ModelsService } from './models.service.js';

/** Both bases of the list route (SPEC §1: `GET /v0/models` must work exactly as `GET /v0/control/models`). */
export const MODELS_LIST_PATHS = ['/v0/control/models', '/v0/models'] as const;

/**
 * `GET /models` as a plain Fastify route rather than a Nest controller method: it is the route clients poll, and
 * skipping Nest's per-request pipeline (guards, parameter factories, response handling) gave 10–30 % more
 * requests/s (bench:perf (a), A/B on one machine). It answers exactly as the Nest routes do: the same Authenticator (401/403/429), the same
 * query validation (422) and the same error mapping as the global exception filter; X-Request-Id comes from the
 * Fastify-level hook in main.ts. Clients that accept gzip (httpx and requests do by default) get the cached gzipped
 * page, a quarter of the bytes. GET /models/{id} and the runs stay in ModelsController.
 */
@Injectable()
export class ModelsListRoute implements OnModuleInit {
  private readonly logger = new Logger('HTTP');

  constructor(
    private readonly host: HttpAdapterHost,
    private readonly authenticator: Authenticator,
    private readonly models: ModelsService,
  ) {}

  onModuleInit(): void {
    const fastify = this.host.httpAdapter.getInstance<FastifyInstance>();
    for (const url of MODELS_LIST_PATHS) fastify.get(url, (request, reply) => withRequestId(request.id, () => this.list(request, reply)));
  }

  private async list(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    try {
      await this.authenticator.authenticate(request.headers.authorization, 'control');
      const query = request.query as Record<string, string | undefined>;
      const gzip = acceptsGzip(request.headers['accept-encoding']);
      const page = await this.models.listJson(intQuery(query.skip, 'skip', 0, 0, Number.MAX_SAFE_INTEGER), intQuery(query.limit, 'limit', 100, 1, 1000), gzip);
      reply.header('content-type', 'application/json; charset=utf-8').header('vary', 'accept-encoding');
      return (gzip ? reply.header('content-encoding', 'gzip') : reply).send(page);
    } catch (exception) {
      return sendException(reply, exception, request, this.logger);
    }
  }
}
