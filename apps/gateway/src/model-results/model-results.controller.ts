import { Body, Controller, Delete, Get, Param, Put, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Principal } from '#qdc/contracts';
import { Caller, RequireScope } from '../auth/auth.decorators.js';
import { dateBoundQuery, intQuery } from '../http/query.js';
import { ModelResultsService } from './model-results.service.js';

@Controller(['v0/control/model-results', 'v0/model-results'])
@RequireScope('control')
export class ModelResultsController {
  constructor(private readonly results: ModelResultsService) {}

  @Get()
  list(
    @Caller() caller: Principal,
    @Query('skip') skip?: string,
    @Query('limit') limit?: string,
    @Query('model_str_id') model?: string,
    @Query('start_date') startDate?: string,
    @Query('end_date') endDate?: string,
  ) {
    return this.results.list(caller, {
      skip: intQuery(skip, 'skip', 0, 0, Number.MAX_SAFE_INTEGER),
      limit: intQuery(limit, 'limit', 100, 1, 1000),
      model: model || undefined,
      startDate: dateBoundQuery(startDate, 'start_date', 'start'),
      endDate: dateBoundQuery(endDate, 'end_date', 'end'),
    });
  }

  @Get(':id')
  get(@Caller() caller: Principal, @Param('id') id: string) {
    return this.results.get(caller, id);
  }

  @Delete(':id')
  delete(@Caller() caller: Principal, @Param('id') id: string) {
    return this.results.delete(caller, id);
  }

  @Get(':id/download')
  async download(@Caller() caller: Principal, @Param('id') id: string, @Res() reply: FastifyReply) {
    const { fileName, zip } = await this.results.download(caller, id);
    await reply.header('content-type', 'application/zip').header('content-disposition', `attachment; filename="${fileName}"`).send(zip);
  }

  @Put(':id/vote')
  vote(@Caller() caller: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.results.putVote(caller, id, body);
  }

  @Delete(':id/vote')
  deleteVote(@Caller() caller: Principal, @Param('id') id: string) {
    return this.results.deleteVote(caller, id);
  }
}
