import { Body, Controller, HttpCode, Post, Req, UseFilters } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { RequireScope } from '../auth/auth.decorators.js';
import { CodaExceptionFilter } from './coda-exception.filter.js';
import { CodaToolsService } from './coda-tools.service.js';

/**
 * Circuit tools (SPEC §4). Canonical `/v0/coda/tools/<tool>`; the legacy un-prefixed form
 * `/v0/coda/<tool>`; and both under the legacy coda root `/v0` (`/v0/tools/<tool>`, `/v0/<tool>`).
 */
const paths = (tool: string) => [`v0/coda/tools/${tool}`, `v0/coda/${tool}`, `v0/tools/${tool}`, `v0/${tool}`];

@Controller()
@RequireScope('coda')
@UseFilters(CodaExceptionFilter)
export class CodaToolsController {
  constructor(private readonly tools: CodaToolsService) {}

  @Post(paths('transpile'))
  @HttpCode(200)
  transpile(@Body() body: unknown, @Req() request: FastifyRequest) {
    return this.tools.transpile(body, request.id);
  }

  @Post(paths('simulate'))
  @HttpCode(200)
  simulate(@Body() body: unknown, @Req() request: FastifyRequest) {
    return this.tools.simulate(body, request.id);
  }

  @Post(paths('to-openqasm3'))
  @HttpCode(200)
  toOpenQasm3(@Body() body: unknown, @Req() request: FastifyRequest) {
    return this.tools.toOpenQasm3(body, request.id);
  }

  @Post(paths('estimate-resources'))
  @HttpCode(200)
  estimateResources(@Body() body: unknown, @Req() request: FastifyRequest) {
    return this.tools.estimateResources(body, request.id);
  }

  @Post(paths('split-circuit'))
  @HttpCode(200)
  split(@Body() body: unknown, @Req() request: FastifyRequest) {
    return this.tools.split(body, request.id);
  }
}
