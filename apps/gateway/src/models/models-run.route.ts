import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { withRequestId } from '#qdc/platform';
import { Authenticator } from '../auth/authenticator.js';
import { sendException } from '../http/exception.filter.js';
import { readMultipart } from '../http/multipart-upload.js';
import { MODELS_LIST_PATHS } from './models-list.route.js';
import { ModelsService } from './models.service.js';

/**
 * `POST /models` and `POST /models/batch` (both bases) as plain Fastify routes, like `GET /models`: a small run is a
 * few milliseconds end to end, and Nest's per-request pipeline (guard, interceptor, parameter factories, response
 * handling through RxJS) was about a tenth of the gateway's CPU per run (bench:perf (b), CPU profile). Same
 * Authenticator (401/403/429), request-id context and error mapping as the Nest routes, including errors raised
 * before the handler (a body that is not the multipart it claims to be).
 */
@Injectable()
export class ModelsRunRoute implements OnModuleInit {
  private readonly logger = new Logger('HTTP');

  constructor(
    private readonly host: HttpAdapterHost,
    private readonly authenticator: Authenticator,
    private readonly models: ModelsService,
  ) {}

  onModuleInit(): void {
    const fastify = this.host.httpAdapter.getInstance<FastifyInstance>();
    for (const base of MODELS_LIST_PATHS) {
      for (const batch of [false, true]) {
        fastify.route({
          method: 'POST',
          url: batch ? `${base}/batch` : base,
          handler: (request, reply) => withRequestId(request.id, () => this.run(request, reply, batch)),
          errorHandler: (error: FastifyError, request, reply) => this.fail(error, request, reply),
        });
      }
    }
  }

  private async run(request: FastifyRequest, reply: FastifyReply, batch: boolean): Promise<FastifyReply> {
    try {
      const principal = await this.authenticator.authenticate(request.headers.authorization, 'control');
      // A request id the client did not send was made here (requestIdFor): no earlier job can have it.
      const sent = request.headers['x-request-id'];
      const fresh = (Array.isArray(sent) ? sent[0] : sent) !== request.id;
      const result = await this.models.run(principal, await readMultipart(request, 'data'), batch, fresh);
      return reply.status(200).header('content-type', 'application/json; charset=utf-8').send(result);
    } catch (exception) {
      return this.fail(exception, request, reply);
    }
  }

  private fail(exception: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
    return sendException(reply, exception, request, this.logger);
  }
}
