import { Injectable } from '@nestjs/common';
import {
  WebhookCreateHttpRequest,
  WebhookDeliveryStatus,
  WebhooksRpc,
  type Principal,
  type WebhookDeleteResponse,
  type WebhookDeliveryDto,
  type WebhookDto,
  type WebhookWithSecretDto,
} from '#qdc/contracts';
import { RpcClient } from '#qdc/platform';
import { invalid } from '../http/api-errors.js';
import { parseBody } from '../http/parse-body.js';
import { intQuery } from '../http/query.js';

/** `/v0/webhooks`: validates what the caller sent and asks the broker (which owns webhooks) for the caller's owner. */
@Injectable()
export class WebhooksService {
  constructor(private readonly rpc: RpcClient) {}

  create(caller: Principal, body: unknown): Promise<WebhookWithSecretDto> {
    const { url, events, description } = parseBody(WebhookCreateHttpRequest, body, { objectRequired: true });
    return this.rpc.call(WebhooksRpc.create, { ownerId: caller.ownerId, url, events, description: description ?? null });
  }

  list(caller: Principal): Promise<WebhookDto[]> {
    return this.rpc.call(WebhooksRpc.list, { ownerId: caller.ownerId });
  }

  delete(caller: Principal, id: string): Promise<WebhookDeleteResponse> {
    return this.rpc.call(WebhooksRpc.delete, { ownerId: caller.ownerId, webhookId: id });
  }

  rotateSecret(caller: Principal, id: string): Promise<WebhookWithSecretDto> {
    return this.rpc.call(WebhooksRpc.rotateSecret, { ownerId: caller.ownerId, webhookId: id });
  }

  deliveries(caller: Principal, id: string, query: { skip?: string; limit?: string; status?: string }): Promise<WebhookDeliveryDto[]> {
    const status = query.status || undefined;
    if (status !== undefined && !WebhookDeliveryStatus.safeParse(status).success)
      throw invalid(['query', 'status'], `expected one of ${WebhookDeliveryStatus.options.join(', ')}; got '${status}'`, 'enum');
    return this.rpc.call(WebhooksRpc.deliveries, {
      ownerId: caller.ownerId,
      webhookId: id,
      skip: intQuery(query.skip, 'skip', 0, 0, Number.MAX_SAFE_INTEGER),
      limit: intQuery(query.limit, 'limit', 100, 1, 1000),
      status: status as WebhookDeliveryStatus | undefined,
    });
  }
}
