import { z } from 'zod';
import { Subjects } from '../subjects.js';
import {
  WebhookCreateRequest,
  WebhookDeleteResponse,
  WebhookDeliveriesRequest,
  WebhookDeliveryDto,
  WebhookDto,
  WebhookListRequest,
  WebhookRef,
  WebhookWithSecretDto,
} from '../webhooks.js';
import { defineRpc } from './define.js';

/** apps/qpu-broker: an owner's webhooks and their deliveries (docs/webhooks.md). */
export const WebhooksRpc = {
  create: defineRpc({ subject: Subjects.WebhookCreate, request: WebhookCreateRequest, response: WebhookWithSecretDto }),
  list: defineRpc({ subject: Subjects.WebhookList, request: WebhookListRequest, response: z.array(WebhookDto) }),
  delete: defineRpc({ subject: Subjects.WebhookDelete, request: WebhookRef, response: WebhookDeleteResponse }),
  rotateSecret: defineRpc({ subject: Subjects.WebhookRotateSecret, request: WebhookRef, response: WebhookWithSecretDto }),
  deliveries: defineRpc({ subject: Subjects.WebhookDeliveries, request: WebhookDeliveriesRequest, response: z.array(WebhookDeliveryDto) }),
} as const;
