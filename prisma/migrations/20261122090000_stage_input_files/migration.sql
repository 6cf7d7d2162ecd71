-- Input files are stored while the model runs ("staged", keyed by the inference job id) and linked to
-- their result when it is created; a staged file whose job never produced a result is swept later.

-- DropPrimaryKey
ALTER TABLE "input_files" DROP CONSTRAINT "input_files_pkey";

-- AddColumns
ALTER TABLE "input_files" ADD COLUMN "job_id" TEXT;
ALTER TABLE "input_files" ADD COLUMN "staged_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
UPDATE "input_files" AS f SET "job_id" = r."job_id" FROM "model_results" AS r WHERE r."id" = f."result_id";
ALTER TABLE "input_files" ALTER COLUMN "job_id" SET NOT NULL;
ALTER TABLE "input_files" ALTER COLUMN "result_id" DROP NOT NULL;

-- CreatePrimaryKey
ALTER TABLE "input_files" ADD CONSTRAINT "input_files_pkey" PRIMARY KEY ("job_id");

-- CreateIndex
CREATE UNIQUE INDEX "input_files_result_id_key" ON "input_files"("result_id");

-- CreateIndex
CREATE INDEX "input_files_staged_at_idx" ON "input_files"("staged_at");
