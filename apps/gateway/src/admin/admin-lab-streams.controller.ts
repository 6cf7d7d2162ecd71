import { Body, Controller, Delete, Get, Param, Post, Query } from '@nestjs/common';
import { LabStreamCreateHttpRequest, LabStreamsRpc, type LabStreamDeleteResponse, type LabStreamDto } from '#qdc/contracts';
import { RpcClient } from '#qdc/platform';
import { RequireScope } from '../auth/auth.decorators.js';
import { ValidationFailed } from '../http/api-errors.js';

/**
 * Live instrument streams over HTTP, for `admin` keys (the CLI `qdc stream …` sends the same requests):
 * `POST /v0/admin/lab-streams {"lab", "name", "models": [...], "max_in_flight"?, "max_lag_ms"?}` declares (or
 * redefines) a stream and answers its subjects; `GET` lists them (`?lab=`); `DELETE /{lab}/{name}` removes one.
 */
@Controller('v0/admin/lab-streams')
@RequireScope('admin')
export class AdminLabStreamsController {
  constructor(private readonly rpc: RpcClient) {}

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
}
