-- Outputs are stored as `json` (the text as sent, checked to be JSON) instead of `jsonb`: nothing queries inside
-- them, and parsing a batch's 1.5 MB output into jsonb took 3-4x as long as storing it as json (bench:perf (c)).
ALTER TABLE "model_results" ALTER COLUMN "output" SET DATA TYPE JSON USING "output"::json;

-- The type change may reset the column's compression; keep lz4 where the server has it (see 20261122091000).
DO $$
BEGIN
  EXECUTE 'ALTER TABLE "model_results" ALTER COLUMN "output" SET COMPRESSION lz4';
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'lz4 column compression not available (%), keeping the default', SQLERRM;
END
$$;
