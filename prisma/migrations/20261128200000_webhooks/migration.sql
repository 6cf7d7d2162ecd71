-- Signed webhooks (docs/webhooks.md), owned by apps/qpu-broker. A delivery row is written in the same transaction as
-- the event it reports (a QPU job's state change: qpu_jobs transition statement), or, for a lab stream's event, once
-- per event id read from the stream's JetStream event stream (UNIQUE (webhook_id, event_key)); the broker's
-- dispatcher claims due rows (FOR UPDATE SKIP LOCKED) and POSTs them, so a restart loses nothing.
CREATE TABLE "webhooks" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT[] NOT NULL,
    "description" TEXT,
    -- The HMAC key itself (it signs every attempt, so it cannot be stored as a hash); shown to the owner once.
    "secret" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhooks_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "webhook_deliveries" (
    "id" UUID NOT NULL,
    "webhook_id" UUID NOT NULL,
    "event_type" TEXT NOT NULL,
    -- What the delivery reports (`qpu.job.status:<qpu_job_events.id>`, `lab_stream.result:<lab>/<stream>:<frame id>@<seq>`): one delivery per event and webhook.
    "event_key" TEXT NOT NULL,
    -- The body's `data` as JSON text; the envelope {id, type, created_at, data} is built from the row, the same bytes on every attempt.
    "data" TEXT NOT NULL,
    -- pending | delivered | failed
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "first_attempt_at" TIMESTAMPTZ(3),
    "last_attempt_at" TIMESTAMPTZ(3),
    "last_status_code" INTEGER,
    "last_error" TEXT,
    -- When a dispatcher may take it (pending only); a claim moves it past the attempt's timeout, so a dispatcher that dies mid-attempt leaves it to another.
    "next_attempt_at" TIMESTAMPTZ(3),
    "delivered_at" TIMESTAMPTZ(3),
    -- [{attempt, at, status_code, error, duration_ms}], oldest first.
    "attempt_log" JSONB NOT NULL DEFAULT '[]',

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webhook_deliveries_status_check" CHECK ("status" IN ('pending', 'delivered', 'failed'))
);

CREATE INDEX "webhooks_owner_id_idx" ON "webhooks"("owner_id");
CREATE UNIQUE INDEX "webhook_deliveries_webhook_id_event_key_key" ON "webhook_deliveries"("webhook_id", "event_key");
CREATE INDEX "webhook_deliveries_webhook_id_created_at_idx" ON "webhook_deliveries"("webhook_id", "created_at" DESC);
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries"("next_attempt_at") WHERE "status" = 'pending';

ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_fkey" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE CASCADE;
