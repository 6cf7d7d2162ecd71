-- Uploaded input files out of Postgres (#28 item 3): a large upload is kept in the JetStream object store bucket
-- `<ns>-inputs`; its row holds the object's key, its size and SHA-256 instead of the bytes. Small inputs (inline in
-- the job) and every row written before this migration keep their bytes here and are read as before: nothing moves.
ALTER TABLE "input_files" ALTER COLUMN "bytes" DROP NOT NULL;
ALTER TABLE "input_files" ADD COLUMN "blob_key" TEXT;
ALTER TABLE "input_files" ADD COLUMN "sha256" TEXT;
-- A row holds its bytes or names its object, never both nor neither.
ALTER TABLE "input_files" ADD CONSTRAINT "input_files_bytes_or_blob" CHECK (("bytes" IS NULL) <> ("blob_key" IS NULL));
-- Deleting a result asks whether another row names the same object; the orphan sweep asks which keys are named.
CREATE INDEX "input_files_blob_key_idx" ON "input_files"("blob_key");
