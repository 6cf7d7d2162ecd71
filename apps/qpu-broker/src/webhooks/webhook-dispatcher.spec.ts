import { jest } from '@jest/globals';
import { type EventBus, type QdcConfig, metricsRegistry } from '#qdc/platform';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import { WebhookMetrics } from './webhook.metrics.js';
import type { AttemptOutcome, SignedDelivery, WebhookSender } from './webhook-sender.js';
import type { AttemptRecord, DueDelivery, WebhooksRepository } from './webhooks.repository.js';

const config = {
  QDC_WEBHOOK_TIMEOUT_MS: 10_000,
  QDC_WEBHOOK_BACKOFF_BASE_MS: 10_000,
  QDC_WEBHOOK_BACKOFF_MAX_MS: 3_600_000,
  QDC_WEBHOOK_RETRY_WINDOW_MS: 86_400_000,
} as QdcConfig;

const due = (over: Partial<DueDelivery> = {}): DueDelivery => ({
  id: 'd1',
  webhookId: 'w1',
  eventType: 'qpu.job.status',
  data: '{"job_id":"j1","status":"completed"}',
  createdAt: new Date('2026-11-28T12:00:00Z'),
  attempts: 0,
  firstAttemptAt: null,
  url: 'https://hooks.example.org/q',
  secret: 'whsec_x',
  ...over,
});

function factory(claimed: DueDelivery[], outcomes: AttemptOutcome[]) {
  const recorded: [string, AttemptRecord][] = [];
  const sent: SignedDelivery[] = [];
  const mocks = {
    repository: {
      claimDue: jest.fn(async () => claimed),
      recordAttempt: jest.fn(async (id: string, record: AttemptRecord) => {
        recorded.push([id, record]);
      }),
    },
    sender: {
      send: jest.fn(async (delivery: SignedDelivery) => {
        sent.push(delivery);
        return outcomes.shift()!;
      }),
    },
    events: { listen: jest.fn() },
  };
  const sut = new WebhookDispatcher(
    mocks.repository as unknown as WebhooksRepository,
    mocks.sender as unknown as WebhookSender,
    mocks.events as unknown as EventBus,
    config,
  );
  sut.random = () => 0.5;
  return { sut, mocks, recorded, sent };
}

/** A series' value in the process registry: `series` is the counter itself or a histogram's `_count` (0 before the first observation). */
async function seriesValue(metric: string, series: string, labels: Record<string, string>): Promise<number> {
  const { values } = (await metricsRegistry.getSingleMetric(metric)!.get()) as {
    values: { value: number; labels: Record<string, unknown>; metricName?: string }[];
  };
  const match = values.find((v) => (v.metricName ?? metric) === series && Object.entries(labels).every(([k, l]) => v.labels[k] === l));
  return match?.value ?? 0;
}

/** Attempts counted for qpu.job.status by outcome, and attempts timed (the histogram's count). */
async function attemptMetrics(outcome: 'delivered' | 'retry' | 'failed'): Promise<{ counted: number; timed: number }> {
  const labels = { event: 'qpu.job.status', outcome };
  return {
    counted: await seriesValue('qdc_webhook_deliveries_total', 'qdc_webhook_deliveries_total', labels),
    timed: await seriesValue('qdc_webhook_delivery_duration_seconds', 'qdc_webhook_delivery_duration_seconds_count', labels),
  };
}

const ok: AttemptOutcome = { delivered: true, statusCode: 200, error: null, durationMs: 12 };
const failed: AttemptOutcome = { delivered: false, statusCode: 500, error: 'HTTP 500', durationMs: 8 };

describe(WebhookDispatcher.name, () => {
  it('sends the envelope around the stored data, signed with the webhook’s secret, and records a delivery', async () => {
    const { sut, mocks, recorded, sent } = factory([due()], [ok]);
    expect(await sut.round()).toBe(1);
    expect(mocks.repository.claimDue).toHaveBeenCalledWith(16, 40_000);
    expect(sent).toEqual([
      {
        id: 'd1',
        url: 'https://hooks.example.org/q',
        secret: 'whsec_x',
        body: '{"id":"d1","type":"qpu.job.status","created_at":"2026-11-28T12:00:00.000Z","data":{"job_id":"j1","status":"completed"}}',
      },
    ]);
    expect(recorded).toEqual([
      ['d1', { delivered: true, nextAttemptAt: null, attempt: { attempt: 1, at: expect.any(String), status_code: 200, error: null, duration_ms: 12 } }],
    ]);
  });

  it('schedules a failed attempt again by the backoff (third attempt: 40 s step, jitter at its middle → 30 s)', async () => {
    const first = new Date(Date.now() - 60_000);
    const { sut, recorded } = factory([due({ attempts: 2, firstAttemptAt: first })], [failed]);
    const before = Date.now();
    await sut.round();
    const [[, record]] = recorded as [[string, AttemptRecord]];
    expect(record).toMatchObject({ delivered: false, attempt: { attempt: 3, status_code: 500, error: 'HTTP 500' } });
    const wait = record.nextAttemptAt!.getTime() - before;
    expect(wait).toBeGreaterThanOrEqual(30_000);
    expect(wait).toBeLessThan(31_000);
  });

  it('fails a delivery for good once the retry window since its first attempt is over', async () => {
    const { sut, recorded } = factory([due({ attempts: 40, firstAttemptAt: new Date(Date.now() - 86_400_001) })], [failed]);
    await sut.round();
    expect(recorded[0]![1]).toMatchObject({ delivered: false, nextAttemptAt: null, attempt: { attempt: 41 } });
  });

  it('sends one webhook’s deliveries one after the other, in the order claimed', async () => {
    const order: string[] = [];
    const { sut, mocks } = factory([due({ id: 'a' }), due({ id: 'b' }), due({ id: 'c', webhookId: 'w2' })], []);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    mocks.sender.send.mockImplementation(async (d: SignedDelivery) => {
      order.push(`start ${d.id}`);
      if (d.id === 'a') await gate;
      order.push(`end ${d.id}`);
      return ok;
    });
    const round = sut.round();
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['start a', 'start c', 'end c']);
    release();
    await round;
    expect(order).toEqual(['start a', 'start c', 'end c', 'end a', 'start b', 'end b']);
  });
});

describe('webhook metrics', () => {
  it('counts and times each attempt by event and outcome: delivered, retry, failed for good', async () => {
    const before = { delivered: await attemptMetrics('delivered'), retry: await attemptMetrics('retry'), failed: await attemptMetrics('failed') };
    await factory([due()], [ok]).sut.round();
    await factory([due({ attempts: 2, firstAttemptAt: new Date() })], [failed]).sut.round();
    await factory([due({ attempts: 40, firstAttemptAt: new Date(Date.now() - 86_400_001) })], [failed]).sut.round();
    await factory([due({ attempts: 41, firstAttemptAt: new Date(Date.now() - 86_400_001) })], [failed]).sut.round();
    expect(await attemptMetrics('delivered')).toEqual({ counted: before.delivered.counted + 1, timed: before.delivered.timed + 1 });
    expect(await attemptMetrics('retry')).toEqual({ counted: before.retry.counted + 1, timed: before.retry.timed + 1 });
    expect(await attemptMetrics('failed')).toEqual({ counted: before.failed.counted + 2, timed: before.failed.timed + 2 });
  });

  it('exports the deliveries due now, counted when scraped', async () => {
    let due = 3;
    const repository = { countDue: jest.fn(async () => due) };
    new WebhookMetrics(repository as unknown as WebhooksRepository).onModuleInit();
    expect(await metricsRegistry.metrics()).toMatch(/^qdc_webhook_outbox_pending 3$/m);
    due = 0;
    expect(await metricsRegistry.metrics()).toMatch(/^qdc_webhook_outbox_pending 0$/m);
    expect(repository.countDue).toHaveBeenCalledTimes(2);
  });
});
