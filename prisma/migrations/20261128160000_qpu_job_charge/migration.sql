-- How a job's estimate was paid at submission (SPEC §4 submit answer): `credits_applied_cents` from the owner's
-- remaining budget, `overage_cents` the rest (only with accept_overage). Jobs submitted before this were all
-- refused when over budget unless overage was accepted; their split is unknown, so they count as covered.
ALTER TABLE "qpu_jobs" ADD COLUMN "credits_applied_cents" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "qpu_jobs" ADD COLUMN "overage_cents" INTEGER NOT NULL DEFAULT 0;
UPDATE "qpu_jobs" SET "credits_applied_cents" = "estimated_cost_cents";
