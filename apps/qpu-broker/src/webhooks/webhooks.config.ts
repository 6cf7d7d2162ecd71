import type { QdcConfig } from '#qdc/platform';
import type { BackoffPolicy } from './webhook-backoff.js';
import type { WebhookUrlPolicy } from './webhook-url.js';

/** The webhook settings of QdcConfig (libs/platform config.ts), as the webhook code uses them. */
export const webhookUrlPolicy = (config: QdcConfig): WebhookUrlPolicy => ({
  allowLocalHttp: config.QDC_WEBHOOK_ALLOW_LOCAL_HTTP,
  allowPrivateNetworks: config.QDC_WEBHOOK_ALLOW_PRIVATE_NETWORKS,
});

export const webhookBackoff = (config: QdcConfig): BackoffPolicy => ({
  baseMs: config.QDC_WEBHOOK_BACKOFF_BASE_MS,
  maxMs: config.QDC_WEBHOOK_BACKOFF_MAX_MS,
  windowMs: config.QDC_WEBHOOK_RETRY_WINDOW_MS,
});
