import { Controller, Get, Query } from '@nestjs/common';
import { RequireScope } from '../auth/auth.decorators.js';
import { AgentsService } from './agents.service.js';

/**
 * `GET /v0/control/agents` (SPEC §3). Only the canonical control path: `GET /v0/agents` is the coda assistant's
 * list (SPEC §1). The runs (`POST .../agents/{agent_id}`) are AgentsRunRoute, for their 8 MiB body limit.
 */
@Controller('v0/control/agents')
@RequireScope('control')
export class AgentsController {
  constructor(private readonly agents: AgentsService) {}

  @Get()
  list(@Query('skip') skip?: string, @Query('limit') limit?: string) {
    return this.agents.list(skip, limit);
  }
}
