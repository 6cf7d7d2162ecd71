import { Body, Controller, Delete, Get, Param, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { LabStreamCreateHttpRequest, LabStreamsRpc, type LabStreamDeleteResponse, type LabStreamDto, type Principal } from '#qdc/contracts';
import { RpcClient } from '#qdc/platform';
import { Caller, RequireScope } from '../auth/auth.decorators.js';
import { ApiError, ValidationFailed } from '../http/api-errors.js';
import { ModelResultsService } from '../model-results/model-results.service.js';

/**
 * Live instrument streams over HTTP, for `admin` keys (the CLI `qdc stream …` sends the same requests):
 * `POST /v0/admin/lab-streams {"lab", "name", "models": [...], "max_in_flight"?, "max_lag_ms"?}` declares (or
 * redefines) a stream and answers its subjects; `GET` lists them (`?lab=`); `DELETE /{lab}/{name}` removes one;
 * `GET /{lab}/{name}/results/{id}/download` is a stream result's download (its owner is the lab's, not the admin's).
 */
@Controller('v0/admin/lab-streams')
@RequireScope('admin')
export class AdminLabStreamsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly results: ModelResultsService,
  ) {}

  @Get()
  list(@Query('lab') lab?: string): Promise<LabStreamDto[]> {
    return this.rpc.call(LabStreamsRpc.list, { lab: lab || undefined });
  }

  @Post()
  create(@Body() body: unknown): Promise<LabStreamDto> {
    const parsed = LabStreamCreateHttpRequest.safeParse(typeof body === 'object' && body !== null ? body : {});
    if (!parsed.success) {
      throw new ValidationFailed(
        parsed.error.issues.map((i) => ({ loc: ['body', ...i.path.map((p) => (typeof p === 'number' ? p : String(p)))], msg: i.message, type: i.code })),
      );
    }
    return this.rpc.call(LabStreamsRpc.create, parsed.data);
  }

  @Delete(':lab/:name')
  remove(@Param('lab') lab: string, @Param('name') name: string): Promise<LabStreamDeleteResponse> {
    return this.rpc.call(LabStreamsRpc.delete, { lab, name });
  }

  /** The admin watching another owner's stream plots its frames from the results' inputs: read as the stream's owner. */
  @Get(':lab/:name/results/:id/download')
  async download(
    @Caller() caller: Principal,
    @Param('lab') lab: string,
    @Param('name') name: string,
    @Param('id') id: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const parsedLab = LabStreamCreateHttpRequest.shape.lab.safeParse(lab);
    const stream = parsedLab.success ? (await this.rpc.call(LabStreamsRpc.list, { lab: parsedLab.data })).find((s) => s.name === name) : undefined;
    if (!stream) throw new ApiError(404, `no lab stream '${name}' of lab '${lab}'`);
    const { fileName, zip } = await this.results.download({ ...caller, ownerId: stream.owner_id }, id);
    await reply.header('content-type', 'application/zip').header('content-disposition', `attachment; filename="${fileName}"`).send(zip);
  }
}
