import { Controller, Get, Param } from '@nestjs/common';
import { RequireScope } from '../auth/auth.decorators.js';
import { ModelsService } from './models.service.js';

/** GET /models is ModelsListRoute and the runs (POST /models, /models/batch) are ModelsRunRoute: plain Fastify routes, see there. */
@Controller(['v0/control/models', 'v0/models'])
@RequireScope('control')
export class ModelsController {
  constructor(private readonly models: ModelsService) {}

  @Get(':modelId')
  get(@Param('modelId') modelId: string) {
    return this.models.get(modelId);
  }
}
