import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import type { Principal } from '#qdc/contracts';
import { Caller } from '../auth/auth.decorators.js';
import { WebhooksService } from './webhooks.service.js';

/** Signed webhooks of the caller's owner (docs/webhooks.md); any valid key. */
@Controller('v0/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  /** Body `{"url", "events": ["qpu.job.status", "lab_stream.result"], "description"?}`; the answer holds the secret, once. */
  @Post()
  create(@Caller() caller: Principal, @Body() body: unknown) {
    return this.webhooks.create(caller, body);
  }

  @Get()
  list(@Caller() caller: Principal) {
    return this.webhooks.list(caller);
  }

  @Delete(':id')
  delete(@Caller() caller: Principal, @Param('id') id: string) {
    return this.webhooks.delete(caller, id);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  rotateSecret(@Caller() caller: Principal, @Param('id') id: string) {
    return this.webhooks.rotateSecret(caller, id);
  }

  @Get(':id/deliveries')
  deliveries(@Caller() caller: Principal, @Param('id') id: string, @Query() query: { skip?: string; limit?: string; status?: string }) {
    return this.webhooks.deliveries(caller, id, query);
  }
}
