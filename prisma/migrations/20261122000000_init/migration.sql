-- CreateTable
CREATE TABLE "owners" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "owners_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "token_hint" TEXT NOT NULL,
    "scopes" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "model_results" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "job_id" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "input_file_name" TEXT NOT NULL,
    "input_file_size" INTEGER NOT NULL,
    "batch_size" INTEGER,
    "output" JSONB NOT NULL,

    CONSTRAINT "model_results_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "input_files" (
    "result_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "bytes" BYTEA NOT NULL,

    CONSTRAINT "input_files_pkey" PRIMARY KEY ("result_id")
);

-- CreateTable
CREATE TABLE "votes" (
    "result_id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "vote" SMALLINT NOT NULL,
    "feedback" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "votes_pkey" PRIMARY KEY ("result_id","owner_id")
);

-- CreateTable
CREATE TABLE "model_run_counters" (
    "model_id" TEXT NOT NULL,
    "runs" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "model_run_counters_pkey" PRIMARY KEY ("model_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "owners_name_key" ON "owners"("name");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_token_hash_key" ON "api_keys"("token_hash");

-- CreateIndex
CREATE INDEX "api_keys_owner_id_idx" ON "api_keys"("owner_id");

-- CreateIndex
CREATE UNIQUE INDEX "model_results_job_id_key" ON "model_results"("job_id");

-- CreateIndex
CREATE INDEX "model_results_owner_id_created_at_idx" ON "model_results"("owner_id", "created_at" DESC);

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "owners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "model_results" ADD CONSTRAINT "model_results_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "owners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "input_files" ADD CONSTRAINT "input_files_result_id_fkey" FOREIGN KEY ("result_id") REFERENCES "model_results"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "votes" ADD CONSTRAINT "votes_result_id_fkey" FOREIGN KEY ("result_id") REFERENCES "model_results"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "votes" ADD CONSTRAINT "votes_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "owners"("id") ON DELETE CASCADE ON UPDATE CASCADE;
