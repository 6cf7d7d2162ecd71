import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { QpuEvents } from '#qdc/contracts';
import { EventBus, QDC_CONFIG, type QdcConfig } from '#qdc/platform';
import { nextRetry } from './webhook-backoff.js';
import { WebhookSender } from './webhook-sender.js';
import { deliveryBody } from './webhook-signature.js';
import { countDeliveryAttempt } from './webhook.metrics.js';
import { webhookBackoff } from './webhooks.config.js';
import { WebhooksRepository, type DueDelivery } from './webhooks.repository.js';

/** Deliveries taken per round (sent concurrently across webhooks, in event order within one webhook). */
const CLAIM_BATCH = 16;
/** With nothing due, the table is asked again after this long (a wake-up comes sooner: a job event, a lab-stream event). */
const IDLE_POLL_MS = 1_000;
/** A claim outlives the attempt by this much before another dispatcher may take the delivery. */
const CLAIM_MARGIN_MS = 30_000;
/** Delivered and failed deliveries are kept this long (the deliveries list), then deleted. */
export const FINISHED_DELIVERY_RETENTION_MS = 7 * 24 * 3600 * 1000;
const RETENTION_SWEEP_EVERY_MS = 3600 * 1000;

/**
 * The Postgres-driven scheduler of webhook deliveries: claims due rows (SKIP LOCKED, so any number of broker replicas
 * share the work), POSTs each signed, and records the attempt — delivered, or the next attempt by the backoff, or
 * failed once the retry window is over. Everything it needs is in the table, so a restart resumes where it stopped
 * (an attempt in flight at a crash is made again after its claim expires: receivers dedupe by delivery id).
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private running = false;
  private loop?: Promise<void>;
  private wakeUp?: () => void;
  private wakeRequested = false;
  /** The soonest retry this process scheduled (so a short backoff does not wait for the idle poll). */
  private soonestRetry = Number.POSITIVE_INFINITY;

  constructor(
    private readonly deliveries: WebhooksRepository,
    private readonly sender: WebhookSender,
    private readonly events: EventBus,
    @Inject(QDC_CONFIG) private readonly config: QdcConfig,
  ) {}

  /** Jitter source of the backoff (a spec fixes it). */
  random: () => number = Math.random;

  onApplicationBootstrap(): void {
    // A job's state change was committed with its deliveries (by this or another replica): look now.
    this.events.listen(QpuEvents.jobStatusChanged, () => this.wake());
    this.running = true;
    this.loop = this.run();
  }

  async onModuleDestroy(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
  }

  /** New deliveries may be due. */
  wake(): void {
    this.wakeRequested = true;
    this.wakeUp?.();
  }

  private async run(): Promise<void> {
    let lastSweep = 0;
    while (this.running) {
      this.wakeRequested = false;
      if (Date.now() - lastSweep > RETENTION_SWEEP_EVERY_MS) {
        lastSweep = Date.now();
        await this.deliveries
          .deleteFinishedBefore(new Date(Date.now() - FINISHED_DELIVERY_RETENTION_MS))
          .catch((error: Error) => this.logger.warn(`webhook retention sweep failed: ${error.message}`));
      }
      let claimed = 0;
      try {
        claimed = await this.round();
      } catch (error) {
        this.logger.warn(`webhook round failed (retrying): ${(error as Error).message}`);
      }
      if (!this.running) break;
      if (claimed === CLAIM_BATCH || this.wakeRequested) continue;
      const untilRetry = this.soonestRetry - Date.now();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, Math.min(IDLE_POLL_MS, untilRetry)));
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = undefined;
      if (this.soonestRetry <= Date.now()) this.soonestRetry = Number.POSITIVE_INFINITY;
    }
  }

  /** Claims due deliveries and makes one attempt of each; returns how many were claimed. */
  async round(): Promise<number> {
    const due = await this.deliveries.claimDue(CLAIM_BATCH, this.config.QDC_WEBHOOK_TIMEOUT_MS + CLAIM_MARGIN_MS);
    const byWebhook = new Map<string, DueDelivery[]>();
    for (const delivery of due) byWebhook.set(delivery.webhookId, [...(byWebhook.get(delivery.webhookId) ?? []), delivery]);
    await Promise.all(
      [...byWebhook.values()].map(async (queue) => {
        for (const delivery of queue) await this.attempt(delivery);
      }),
    );
    return due.length;
  }

  private async attempt(delivery: DueDelivery): Promise<void> {
    const at = new Date();
    const body = deliveryBody({ id: delivery.id, type: delivery.eventType, createdAt: delivery.createdAt, data: delivery.data });
    const outcome = await this.sender.send({ id: delivery.id, url: delivery.url, secret: delivery.secret, body });
    const attempt = delivery.attempts + 1;
    const entry = { attempt, at: at.toISOString(), status_code: outcome.statusCode, error: outcome.error, duration_ms: outcome.durationMs };
    if (outcome.delivered) {
      countDeliveryAttempt(delivery.eventType, 'delivered', outcome.durationMs);
      await this.deliveries.recordAttempt(delivery.id, { attempt: entry, delivered: true, nextAttemptAt: null });
      return;
    }
    const decision = nextRetry(attempt, delivery.firstAttemptAt ?? at, new Date(), webhookBackoff(this.config), this.random);
    countDeliveryAttempt(delivery.eventType, decision.retry ? 'retry' : 'failed', outcome.durationMs);
    if (decision.retry) this.soonestRetry = Math.min(this.soonestRetry, decision.at.getTime());
    else this.logger.warn(`webhook delivery ${delivery.id} failed for good after ${attempt} attempts (${outcome.error})`);
    await this.deliveries.recordAttempt(delivery.id, { attempt: entry, delivered: false, nextAttemptAt: decision.retry ? decision.at : null });
  }
}
