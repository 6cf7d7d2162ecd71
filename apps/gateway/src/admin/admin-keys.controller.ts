import { Body, Controller, Delete, Get, Param, Post, Query } from '@nestjs/common';
import { ApiKeyCreateHttpRequest, KeysRpc, type ApiKeyDto, type CreatedApiKeyDto, type KeysCreateRequest } from '#qdc/contracts';
import { RpcClient } from '#qdc/platform';
import { RequireScope } from '../auth/auth.decorators.js';
import { ValidationFailed } from '../http/api-errors.js';

/** API keys over HTTP, for `admin` keys (the CLI does the same against the database). */
@Controller('v0/admin/keys')
@RequireScope('admin')
export class AdminKeysController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  list(@Query('owner') owner?: string): Promise<ApiKeyDto[]> {
    return this.rpc.call(KeysRpc.list, { ownerName: owner || undefined });
  }

  /** Body `{"name", "owner", "scopes": ["control", "coda"]}` (ApiKeyCreateHttpRequest); the reply holds the token, once. */
  @Post()
  create(@Body() body: unknown): Promise<CreatedApiKeyDto> {
    const parsed = ApiKeyCreateHttpRequest.safeParse(typeof body === 'object' && body !== null ? body : {});
    if (!parsed.success) {
      throw new ValidationFailed(
        parsed.error.issues.map((i) => ({ loc: ['body', ...i.path.map((p) => (typeof p === 'number' ? p : String(p)))], msg: i.message, type: i.code })),
      );
    }
    const { name, owner, scopes } = parsed.data;
    const request: KeysCreateRequest = { name, ownerName: owner ?? name, scopes: scopes ?? ['control', 'coda'] };
    return this.rpc.call(KeysRpc.create, request);
  }

  @Delete(':id')
  revoke(@Param('id') id: string): Promise<ApiKeyDto> {
    return this.rpc.call(KeysRpc.revoke, { id });
  }
}
