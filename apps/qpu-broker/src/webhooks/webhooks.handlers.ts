import { Injectable } from '@nestjs/common';
import { WebhooksRpc, type WebhookCreateRequest, type WebhookDeliveriesRequest, type WebhookListRequest, type WebhookRef } from '#qdc/contracts';
import { RpcHandler } from '#qdc/platform';
import { WebhooksService } from './webhooks.service.js';

/** NATS consumers of the webhook routes: parse, delegate, reply. */
@Injectable()
export class WebhooksHandlers {
  constructor(private readonly webhooks: WebhooksService) {}

  @RpcHandler(WebhooksRpc.create)
  create(msg: WebhookCreateRequest) {
    return this.webhooks.create(msg);
  }

  @RpcHandler(WebhooksRpc.list)
  list(msg: WebhookListRequest) {
    return this.webhooks.list(msg);
  }

  @RpcHandler(WebhooksRpc.delete)
  delete(msg: WebhookRef) {
    return this.webhooks.delete(msg);
  }

  @RpcHandler(WebhooksRpc.rotateSecret)
  rotateSecret(msg: WebhookRef) {
    return this.webhooks.rotateSecret(msg);
  }

  @RpcHandler(WebhooksRpc.deliveries)
  deliveries(msg: WebhookDeliveriesRequest) {
    return this.webhooks.deliveries(msg);
  }
}
