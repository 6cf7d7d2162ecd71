import { Injectable } from '@nestjs/common';
import { PrismaService } from '#qdc/platform';
import type { WebhookAttemptDto, WebhookDeliveryStatus, WebhookEventType } from '#qdc/contracts';
import { isJobId as isUuid } from '../jobs/qpu-jobs.repository.js';

export interface WebhookRow {
  id: string;
  ownerId: string;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  secret: string;
  createdAt: Date;
}

export interface DeliveryRow {
  id: string;
  webhookId: string;
  eventType: WebhookEventType;
  status: WebhookDeliveryStatus;
  attempts: number;
  createdAt: Date;
  firstAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  attemptLog: WebhookAttemptDto[];
}

/** A claimed delivery: what the dispatcher needs to send it. */
export interface DueDelivery {
  id: string;
  webhookId: string;
  eventType: WebhookEventType;
  data: string;
  createdAt: Date;
  attempts: number;
  firstAttemptAt: Date | null;
  url: string;
  secret: string;
}

/** How an attempt ended, as stored. */
export interface AttemptRecord {
  attempt: WebhookAttemptDto;
  delivered: boolean;
  /** Pending: when to try again; null: failed for good (or delivered). */
  nextAttemptAt: Date | null;
}

const WEBHOOK_COLUMNS = 'id, owner_id, url, events, description, secret, created_at';
const DELIVERY_COLUMNS = `id, webhook_id, event_type, status, attempts, created_at, first_attempt_at, last_attempt_at, last_status_code, last_error,
  next_attempt_at, delivered_at, attempt_log`;

const toWebhook = (r: Record<string, unknown>): WebhookRow => ({
  id: r.id as string,
  ownerId: r.owner_id as string,
  url: r.url as string,
  events: r.events as WebhookEventType[],
  description: (r.description as string | null) ?? null,
  secret: r.secret as string,
  createdAt: r.created_at as Date,
});

const toDelivery = (r: Record<string, unknown>): DeliveryRow => ({
  id: r.id as string,
  webhookId: r.webhook_id as string,
  eventType: r.event_type as WebhookEventType,
  status: r.status as WebhookDeliveryStatus,
  attempts: r.attempts as number,
  createdAt: r.created_at as Date,
  firstAttemptAt: (r.first_attempt_at as Date | null) ?? null,
  lastAttemptAt: (r.last_attempt_at as Date | null) ?? null,
  lastStatusCode: (r.last_status_code as number | null) ?? null,
  lastError: (r.last_error as string | null) ?? null,
  nextAttemptAt: (r.next_attempt_at as Date | null) ?? null,
  deliveredAt: (r.delivered_at as Date | null) ?? null,
  attemptLog: r.attempt_log as WebhookAttemptDto[],
});

/**
 * Postgres access for webhooks and their deliveries (tables owned by the broker). QPU job deliveries are inserted by
 * QpuJobsRepository's transition statements (same transaction as the state change); the rest is here.
 */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly prisma: PrismaService) {}

  async create(row: Omit<WebhookRow, 'createdAt'>): Promise<WebhookRow> {
    const r = await this.prisma.pool.query(
      `INSERT INTO webhooks (id, owner_id, url, events, description, secret) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${WEBHOOK_COLUMNS}`,
      [row.id, row.ownerId, row.url, row.events, row.description, row.secret],
    );
    return toWebhook(r.rows[0]);
  }

  async list(ownerId: string): Promise<WebhookRow[]> {
    const r = await this.prisma.pool.query(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE owner_id = $1 ORDER BY created_at DESC, id`, [ownerId]);
    return r.rows.map(toWebhook);
  }

  /** The owner's webhook; another owner's is not found (SPEC §2). */
  async find(ownerId: string, id: string): Promise<WebhookRow | null> {
    if (!isUuid(id)) return null;
    const r = await this.prisma.pool.query(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = $1 AND owner_id = $2`, [id, ownerId]);
    return r.rows[0] ? toWebhook(r.rows[0]) : null;
  }

  /** Deletes the webhook and (cascade) its deliveries; false when the owner has no such webhook. */
  async delete(ownerId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const r = await this.prisma.pool.query('DELETE FROM webhooks WHERE id = $1 AND owner_id = $2', [id, ownerId]);
    return (r.rowCount ?? 0) > 0;
  }

  async setSecret(ownerId: string, id: string, secret: string): Promise<WebhookRow | null> {
    if (!isUuid(id)) return null;
    const r = await this.prisma.pool.query(`UPDATE webhooks SET secret = $3 WHERE id = $1 AND owner_id = $2 RETURNING ${WEBHOOK_COLUMNS}`, [
      id,
      ownerId,
      secret,
    ]);
    return r.rows[0] ? toWebhook(r.rows[0]) : null;
  }

  async deliveries(webhookId: string, query: { skip: number; limit: number; status?: WebhookDeliveryStatus }): Promise<DeliveryRow[]> {
    const r = await this.prisma.pool.query(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE webhook_id = $1 AND ($2::text IS NULL OR status = $2)
       ORDER BY created_at DESC, id DESC OFFSET $3 LIMIT $4`,
      [webhookId, query.status ?? null, query.skip, query.limit],
    );
    return r.rows.map(toDelivery);
  }

  /**
   * One delivery of an event to each of the owner's webhooks subscribed to its type and registered before the event
   * happened; an event seen again (a redelivered stream message) adds nothing. Returns how many were added.
   */
  async enqueue(ownerId: string, type: WebhookEventType, eventKey: string, data: string, createdAt: Date): Promise<number> {
    const r = await this.prisma.pool.query(
      `INSERT INTO webhook_deliveries (id, webhook_id, event_type, event_key, data, created_at, next_attempt_at)
       SELECT gen_random_uuid(), w.id, $2, $3, $4, $5, now() FROM webhooks w WHERE w.owner_id = $1 AND $2 = ANY(w.events) AND w.created_at <= $5
       ON CONFLICT (webhook_id, event_key) DO NOTHING`,
      [ownerId, type, eventKey, data, createdAt],
    );
    return r.rowCount ?? 0;
  }

  /**
   * Claims up to `limit` due deliveries (oldest due first; rows another dispatcher holds are skipped) and moves their
   * next attempt `leaseMs` ahead: a dispatcher that dies mid-attempt leaves them due again after that.
   */
  async claimDue(limit: number, leaseMs: number): Promise<DueDelivery[]> {
    const r = await this.prisma.pool.query(
      `WITH due AS (
         SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= now()
         ORDER BY next_attempt_at, created_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       UPDATE webhook_deliveries d SET next_attempt_at = now() + make_interval(secs => $2::double precision / 1000)
       FROM due, webhooks w WHERE d.id = due.id AND w.id = d.webhook_id
       RETURNING d.id, d.webhook_id, d.event_type, d.data, d.created_at, d.attempts, d.first_attempt_at, w.url, w.secret`,
      [limit, leaseMs],
    );
    return r.rows
      .map((row) => ({
        id: row.id,
        webhookId: row.webhook_id,
        eventType: row.event_type,
        data: row.data,
        createdAt: row.created_at,
        attempts: row.attempts,
        firstAttemptAt: row.first_attempt_at ?? null,
        url: row.url,
        secret: row.secret,
      }))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
  }

  /** Deliveries due now and not delivered yet (a range of the partial index on pending rows' next attempt); claimed ones are not due until their lease ends. */
  async countDue(): Promise<number> {
    const r = await this.prisma.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= now()",
    );
    return r.rows[0]?.n ?? 0;
  }

  /** Stores an attempt: its entry in the log, the last status, and delivered, pending (next attempt) or failed. */
  async recordAttempt(id: string, record: AttemptRecord): Promise<void> {
    const { attempt } = record;
    const status: WebhookDeliveryStatus = record.delivered ? 'delivered' : record.nextAttemptAt ? 'pending' : 'failed';
    await this.prisma.pool.query(
      `UPDATE webhook_deliveries SET status = $2, attempts = $3, first_attempt_at = COALESCE(first_attempt_at, $4), last_attempt_at = $4,
         last_status_code = $5, last_error = $6, next_attempt_at = $7, delivered_at = CASE WHEN $2 = 'delivered' THEN $4 ELSE NULL END,
         attempt_log = attempt_log || $8::jsonb
       WHERE id = $1 AND status = 'pending'`,
      [id, status, attempt.attempt, new Date(attempt.at), attempt.status_code, attempt.error, record.nextAttemptAt, JSON.stringify([attempt])],
    );
  }

  /** Retention: delivered and failed deliveries created before `before` (pending ones stay until they end). */
  async deleteFinishedBefore(before: Date): Promise<number> {
    const r = await this.prisma.pool.query("DELETE FROM webhook_deliveries WHERE status <> 'pending' AND created_at < $1", [before]);
    return r.rowCount ?? 0;
  }
}
