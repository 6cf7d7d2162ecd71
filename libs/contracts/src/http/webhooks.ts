import { z } from 'zod';
import { WebhookDeliveryDto, WebhookDeliveryStatus, WebhookDto, WebhookEventType, WebhookWithSecretDto } from '../webhooks.js';

/** `/v0/webhooks` (any valid key; a webhook belongs to the key's owner): docs/webhooks.md. */

/** `POST /v0/webhooks`. */
export const WebhookCreateHttpRequest = z
  .object({
    url: z.string({ error: 'url must be a string (an https:// URL)' }).max(2000).meta({
      description: 'https:// URL that receives the POSTs; http://localhost and http://127.0.0.1 only where the deployment allows them',
    }),
    events: z
      .array(WebhookEventType, { error: `events must be a list of event types (${WebhookEventType.options.join(', ')})` })
      .min(1)
      .meta({ description: 'the event types to receive' }),
    description: z.string().max(500).nullish(),
  })
  .meta({ id: 'WebhookCreateRequest' });
export type WebhookCreateHttpRequest = z.input<typeof WebhookCreateHttpRequest>;

export const WebhookHttp = WebhookDto;
export type WebhookHttp = z.infer<typeof WebhookHttp>;
export const WebhooksHttpResponse = z.array(WebhookHttp);
export type WebhooksHttpResponse = z.infer<typeof WebhooksHttpResponse>;
/** The creation and rotation answer: the only ones holding the secret. */
export const WebhookWithSecretHttp = WebhookWithSecretDto;
export type WebhookWithSecretHttp = z.infer<typeof WebhookWithSecretHttp>;

export const WebhookHttpParams = z.object({ id: z.string().meta({ description: 'the webhook id (UUID)' }) });
export type WebhookHttpParams = z.infer<typeof WebhookHttpParams>;

export const WebhookDeliveriesHttpQuery = z.object({
  skip: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(1000).default(100),
  status: WebhookDeliveryStatus.optional().meta({ description: 'only deliveries in this state' }),
});
export type WebhookDeliveriesHttpQuery = z.input<typeof WebhookDeliveriesHttpQuery>;

export const WebhookDeliveryHttp = WebhookDeliveryDto;
export type WebhookDeliveryHttp = z.infer<typeof WebhookDeliveryHttp>;
export const WebhookDeliveriesHttpResponse = z.array(WebhookDeliveryHttp);
export type WebhookDeliveriesHttpResponse = z.infer<typeof WebhookDeliveriesHttpResponse>;
