-- QPU broker tables (owned by apps/qpu-broker).

-- CreateTable
CREATE TABLE "qpu_jobs" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "device_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "source_framework" TEXT NOT NULL,
    "shots" INTEGER NOT NULL,
    "compiled" JSON NOT NULL,
    "compiled_stats" JSONB NOT NULL,
    "initial_layout" INTEGER[],
    "final_layout" INTEGER[],
    "estimated_cost_cents" INTEGER NOT NULL,
    "cost_cents" INTEGER,
    "counts" JSONB,
    "error" TEXT,
    "backend_job_id" TEXT,
    "submitted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "qpu_jobs_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "qpu_jobs_status_check" CHECK ("status" IN ('queued', 'running', 'completed', 'failed', 'cancelled'))
);

-- CreateTable
CREATE TABLE "qpu_job_events" (
    "id" BIGSERIAL NOT NULL,
    "job_id" UUID NOT NULL,
    "from_status" TEXT,
    "to_status" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "qpu_job_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "qpu_idempotency_keys" (
    "owner_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "body_hash" TEXT NOT NULL,
    "job_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "qpu_idempotency_keys_pkey" PRIMARY KEY ("owner_id","key")
);

-- CreateTable
CREATE TABLE "qpu_owner_budgets" (
    "owner_id" UUID NOT NULL,
    "budget_cents" INTEGER,
    "spent_cents" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "qpu_owner_budgets_pkey" PRIMARY KEY ("owner_id")
);

-- CreateIndex
CREATE INDEX "qpu_jobs_owner_id_submitted_at_idx" ON "qpu_jobs"("owner_id", "submitted_at" DESC);

-- CreateIndex
CREATE INDEX "qpu_jobs_device_id_status_submitted_at_idx" ON "qpu_jobs"("device_id", "status", "submitted_at");

-- CreateIndex
CREATE INDEX "qpu_jobs_status_idx" ON "qpu_jobs"("status");

-- CreateIndex
CREATE INDEX "qpu_job_events_job_id_id_idx" ON "qpu_job_events"("job_id", "id");

-- CreateIndex
CREATE INDEX "qpu_idempotency_keys_created_at_idx" ON "qpu_idempotency_keys"("created_at");

-- AddForeignKey
ALTER TABLE "qpu_job_events" ADD CONSTRAINT "qpu_job_events_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "qpu_jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
