import { Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { LabCredentialCreateHttpRequest, QpuRpc, type CreatedLabCredentialDto, type LabCredentialDto, type RevokedLabCredentialDto } from '#qdc/contracts';
import { RpcClient } from '#qdc/platform';
import { RequireScope } from '../auth/auth.decorators.js';
import { ValidationFailed, invalid } from '../http/api-errors.js';

/**
 * Labs' NATS credentials over HTTP, for `admin` keys (the qpu-broker issues them as `qdc lab add|remove|list` does):
 * `POST /v0/admin/lab-credentials {"lab"}` answers the lab's credentials file with its nkey seed, once; `GET` lists
 * the labs' public keys; `DELETE /{lab}` revokes them (the reloaded nats-server cuts the lab's nodes off).
 */
@Controller('v0/admin/lab-credentials')
@RequireScope('admin')
export class AdminLabCredentialsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  list(): Promise<LabCredentialDto[]> {
    return this.rpc.call(QpuRpc.listLabCredentials, {});
  }

  @Post()
  create(@Body() body: unknown): Promise<CreatedLabCredentialDto> {
    const parsed = LabCredentialCreateHttpRequest.safeParse(typeof body === 'object' && body !== null ? body : {});
    if (!parsed.success) {
      throw new ValidationFailed(
        parsed.error.issues.map((i) => ({ loc: ['body', ...i.path.map((p) => (typeof p === 'number' ? p : String(p)))], msg: i.message, type: i.code })),
      );
    }
    return this.rpc.call(QpuRpc.createLabCredential, parsed.data);
  }

  @Delete(':lab')
  revoke(@Param('lab') lab: string): Promise<RevokedLabCredentialDto> {
    const parsed = LabCredentialCreateHttpRequest.shape.lab.safeParse(lab);
    if (!parsed.success)
      throw invalid(['path', 'lab'], `expected a lab id (${parsed.error.issues[0]?.message}); got ${JSON.stringify(lab)}`, 'string_pattern_mismatch');
    return this.rpc.call(QpuRpc.revokeLabCredential, { lab: parsed.data });
  }
}
