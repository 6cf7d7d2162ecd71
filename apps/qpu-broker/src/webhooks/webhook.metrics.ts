import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { metricsRegistry } from '#qdc/platform';
import { WebhooksRepository } from './webhooks.repository.js';

/** What one attempt led to: delivered (2xx), retry (another attempt scheduled by the backoff), failed (for good: the retry window is over). */
export type DeliveryOutcome = 'delivered' | 'retry' | 'failed';

const deliveries = new Counter({
  name: 'qdc_webhook_deliveries_total',
  help: 'Webhook delivery attempts this process made, by event type and outcome (delivered, retry, failed: for good)',
  labelNames: ['event', 'outcome'],
  registers: [metricsRegistry],
});

const deliveryDuration = new Histogram({
  name: 'qdc_webhook_delivery_duration_seconds',
  help: "Webhook delivery attempts, from sending the POST to the receiver's answer (or the timeout), by event type and outcome",
  labelNames: ['event', 'outcome'],
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [metricsRegistry],
});

/** Counts one attempt of a delivery of `event` and how long its POST took. */
export function countDeliveryAttempt(event: string, outcome: DeliveryOutcome, durationMs: number): void {
  deliveries.inc({ event, outcome });
  deliveryDuration.observe({ event, outcome }, durationMs / 1000);
}

let countDue: (() => Promise<number>) | undefined;

/** The outbox backlog, counted in webhook_deliveries when Prometheus scrapes (the same on every replica: it is one table). */
new Gauge({
  name: 'qdc_webhook_outbox_pending',
  help: 'Webhook deliveries due and not delivered yet (pending, their next attempt time passed), counted at scrape time by the qpu-broker',
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    const due = await countDue?.().catch(() => undefined);
    if (due !== undefined) this.set(due);
  },
});

/** Points the `qdc_webhook_outbox_pending` gauge at the broker's deliveries table. */
@Injectable()
export class WebhookMetrics implements OnModuleInit {
  constructor(private readonly deliveries: WebhooksRepository) {}

  onModuleInit(): void {
    countDue = () => this.deliveries.countDue();
  }
}
