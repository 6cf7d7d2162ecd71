import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  RpcError,
  type WebhookCreateRequest,
  type WebhookDeleteResponse,
  type WebhookDeliveriesRequest,
  type WebhookDeliveryDto,
  type WebhookDto,
  type WebhookListRequest,
  type WebhookRef,
  type WebhookWithSecretDto,
} from '#qdc/contracts';
import { QDC_CONFIG, type QdcConfig } from '#qdc/platform';
import { newWebhookSecret } from './webhook-signature.js';
import { checkWebhookUrl } from './webhook-url.js';
import { webhookUrlPolicy } from './webhooks.config.js';
import { WebhooksRepository, type DeliveryRow, type WebhookRow } from './webhooks.repository.js';

/** Characters of the secret shown in listings ("whsec_" and four more). */
const SECRET_HINT_LENGTH = 10;

/** An owner's webhooks: registration (URL policy, a new secret shown once), listing, deletion, rotation, deliveries. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly webhooks: WebhooksRepository,
    @Inject(QDC_CONFIG) private readonly config: QdcConfig,
  ) {}

  async create(msg: WebhookCreateRequest): Promise<WebhookWithSecretDto> {
    const url = checkWebhookUrl(msg.url, webhookUrlPolicy(this.config));
    const secret = newWebhookSecret();
    const row = await this.webhooks.create({
      id: randomUUID(),
      ownerId: msg.ownerId,
      url,
      events: [...new Set(msg.events)],
      description: msg.description,
      secret,
    });
    return { ...toWebhookDto(row), secret };
  }

  async list(msg: WebhookListRequest): Promise<WebhookDto[]> {
    return (await this.webhooks.list(msg.ownerId)).map(toWebhookDto);
  }

  async delete(ref: WebhookRef): Promise<WebhookDeleteResponse> {
    if (!(await this.webhooks.delete(ref.ownerId, ref.webhookId))) throw notFound(ref.webhookId);
    return { detail: 'Webhook deleted' };
  }

  /** A new secret at once: every attempt from now on (retries of earlier deliveries too) is signed with it. */
  async rotateSecret(ref: WebhookRef): Promise<WebhookWithSecretDto> {
    const secret = newWebhookSecret();
    const row = await this.webhooks.setSecret(ref.ownerId, ref.webhookId, secret);
    if (!row) throw notFound(ref.webhookId);
    return { ...toWebhookDto(row), secret };
  }

  async deliveries(msg: WebhookDeliveriesRequest): Promise<WebhookDeliveryDto[]> {
    const webhook = await this.webhooks.find(msg.ownerId, msg.webhookId);
    if (!webhook) throw notFound(msg.webhookId);
    return (await this.webhooks.deliveries(webhook.id, msg)).map(toDeliveryDto);
  }
}

const notFound = (id: string) => new RpcError('not_found', `Webhook not found: '${id}'`);

export const toWebhookDto = (row: WebhookRow): WebhookDto => ({
  id: row.id,
  url: row.url,
  events: row.events,
  description: row.description,
  created_at: row.createdAt.toISOString(),
  secret_hint: row.secret.slice(0, SECRET_HINT_LENGTH),
});

export const toDeliveryDto = (row: DeliveryRow): WebhookDeliveryDto => ({
  id: row.id,
  webhook_id: row.webhookId,
  type: row.eventType,
  status: row.status,
  created_at: row.createdAt.toISOString(),
  attempts: row.attempts,
  last_attempt_at: row.lastAttemptAt?.toISOString() ?? null,
  last_status_code: row.lastStatusCode,
  last_error: row.lastError,
  next_attempt_at: row.status === 'pending' ? (row.nextAttemptAt?.toISOString() ?? null) : null,
  delivered_at: row.deliveredAt?.toISOString() ?? null,
  attempt_log: row.attemptLog,
});
