import { Body, Controller, Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '#qdc/contracts';
import { Caller, RequireScope } from '../auth/auth.decorators.js';
import { AssistantExceptionFilter } from './assistant-exception.filter.js';
import { AssistantStreamService } from './assistant-stream.service.js';

/** The unified assistant (SPEC §4): canonical `/v0/coda/agents`, legacy coda root `/v0/agents`. */
@Controller()
@RequireScope('coda')
@UseFilters(AssistantExceptionFilter)
export class AssistantController {
  constructor(private readonly assistant: AssistantStreamService) {}

  @Get(['v0/coda/agents', 'v0/agents'])
  agents(@Req() request: FastifyRequest) {
    return this.assistant.agents(request.id);
  }

  @Post(['v0/coda/agents', 'v0/agents'])
  stream(@Caller() caller: Principal, @Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.assistant.stream(caller, body, request, reply);
  }
}
