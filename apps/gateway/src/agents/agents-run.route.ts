import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AGENT_BODY_LIMIT_BYTES } from '#qdc/contracts';
import { Authenticator } from '../auth/authenticator.js';
import { sendException } from '../http/exception.filter.js';
import { AgentsService } from './agents.service.js';

/** Control runs: canonical and the `/v0` alias (SPEC §1: `/v0` aliases every control route but `GET /v0/agents`). */
export const AGENT_RUN_PATHS = ['/v0/control/agents/:agentId', '/v0/agents/:agentId'] as const;

/**
 * `POST /agents/{agent_id}` as a plain Fastify route: Nest has no per-route body limit, and agent bodies may be
 * 8 MiB (images, SPEC §5) while every other JSON route keeps QDC_JSON_BODY_LIMIT_BYTES. Same Authenticator
 * (401/403/429) and error mapping as the Nest routes, including errors raised while reading the body (413, bad JSON).
 */
@Injectable()
export class AgentsRunRoute implements OnModuleInit {
  private readonly logger = new Logger('HTTP');

  constructor(
    private readonly host: HttpAdapterHost,
    private readonly authenticator: Authenticator,
    private readonly agents: AgentsService,
  ) {}

  onModuleInit(): void {
    const fastify = this.host.httpAdapter.getInstance<FastifyInstance>();
    for (const url of AGENT_RUN_PATHS) {
      fastify.route({
        method: 'POST',
        url,
        bodyLimit: AGENT_BODY_LIMIT_BYTES,
        handler: (request, reply) => this.run(request, reply),
        errorHandler: (error: FastifyError, request, reply) => this.fail(error, request, reply),
      });
    }
  }

  private async run(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    try {
      const principal = await this.authenticator.authenticate(request.headers.authorization, 'control');
      const { agentId } = request.params as { agentId: string };
      const answer = await this.agents.run(principal, agentId, request.body, request.id);
      return reply.status(200).header('content-type', 'application/json; charset=utf-8').send(answer);
    } catch (exception) {
      return this.fail(exception, request, reply);
    }
  }

  private fail(exception: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
    return sendException(reply, exception, request, this.logger);
  }
}
