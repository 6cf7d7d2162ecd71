-- Uploaded arrays (.npy/.pt of float data) do not compress: lz4 took a 10 MB batch input to 96 % of its size and
-- cost Postgres 10-25 ms of CPU per 10 MB insert (bench:perf (c) input staging). Stored out of line, uncompressed.
-- Applies to values written from now on. (Prisma's schema language has no column storage; this lives only here.)
ALTER TABLE "input_files" ALTER COLUMN "bytes" SET STORAGE EXTERNAL;
