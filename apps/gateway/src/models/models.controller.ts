import { Controller, Get, Header, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '#qdc/contracts';
import { Caller, RequireScope } from '../auth/auth.decorators.js';
import { readMultipart } from '../http/multipart-upload.js';
import { ModelsService } from './models.service.js';

/** GET /models itself is ModelsListRoute (a plain Fastify route, see there). */
@Controller(['v0/control/models', 'v0/models'])
@RequireScope('control')
export class ModelsController {
  constructor(private readonly models: ModelsService) {}

  @Get(':modelId')
  get(@Param('modelId') modelId: string) {
    return this.models.get(modelId);
  }

  @Post()
  @HttpCode(200)
  @Header('content-type', 'application/json; charset=utf-8')
  async run(@Caller() caller: Principal, @Req() request: FastifyRequest) {
    return this.models.run(caller, await readMultipart(request, 'data'), false);
  }

  @Post('batch')
  @HttpCode(200)
  @Header('content-type', 'application/json; charset=utf-8')
  async runBatch(@Caller() caller: Principal, @Req() request: FastifyRequest) {
    return this.models.run(caller, await readMultipart(request, 'data'), true);
  }
}
