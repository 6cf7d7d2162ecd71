// Input files staged while the model runs (real Postgres, the committed migrations): idempotent staging,
// linking on result creation, the fallback when nothing was staged, and the sweep of orphans.
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import pg from 'pg';
import { applyMigrations, ensureDatabase, type PrismaService } from '#qdc/platform';
import { ResultsRepository, StagedInputMissing, type NewResult } from '../../apps/results/src/results/results.repository.js';

describe('staged input files (real Postgres)', () => {
  const name = `qdc_staging_${Date.now().toString(36)}`;
  const url = `postgresql://root@127.0.0.1:5432/${name}`;
  let pool: pg.Pool;
  let repository: ResultsRepository;
  const ownerId = randomUUID();
  const bytes = new Uint8Array(2_000_000).map((_, i) => (i * 7) & 0xff);

  const result = (jobId: string, inputBytes: Uint8Array | null): NewResult => ({
    id: randomUUID(),
    ownerId,
    jobId,
    model: 'coulomb-blockade-peak-detector-v2',
    inputFileName: 'big.npy',
    inputFileSize: bytes.length,
    batchSize: 10,
    outputJson: JSON.stringify({ outputs: [] }),
    input: inputBytes ? { bytes: inputBytes } : null,
  });

  beforeAll(async () => {
    await ensureDatabase(url);
    await applyMigrations(url, resolve('prisma/migrations'));
    pool = new pg.Pool({ connectionString: url, max: 4 });
    repository = new ResultsRepository({ pool } as unknown as PrismaService);
    await pool.query('INSERT INTO owners (id, name) VALUES ($1, $2)', [ownerId, 'lab']);
  });

  afterAll(async () => {
    await pool?.end();
    const admin = new pg.Client({ connectionString: 'postgresql://root@127.0.0.1:5432/postgres' });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  });

  it('stages once per job, then links the staged file to the new result without sending it again', async () => {
    await repository.stageInput('job-a', 'big.npy', bytes.length, bytes);
    await repository.stageInput('job-a', 'big.npy', bytes.length, bytes); // a retried job stages again: no-op
    expect(await repository.hasStagedInput('job-a')).toBe(true);
    const created = result('job-a', null);
    await repository.createWithRun(created);
    expect(await repository.hasStagedInput('job-a')).toBe(false);
    const file = await pool.query('SELECT result_id, name, size, bytes FROM input_files WHERE job_id = $1', ['job-a']);
    expect(file.rows).toHaveLength(1);
    expect(file.rows[0].result_id).toBe(created.id);
    expect(Buffer.compare(file.rows[0].bytes, Buffer.from(bytes))).toBe(0);
  });

  it('stores the file with the result when nothing was staged, and refuses to link a file that is not there', async () => {
    const created = result('job-b', bytes);
    await repository.createWithRun(created);
    expect((await pool.query('SELECT result_id FROM input_files WHERE job_id = $1', ['job-b'])).rows).toEqual([{ result_id: created.id }]);
    await expect(repository.createWithRun(result('job-c', null))).rejects.toBeInstanceOf(StagedInputMissing);
    // The failed transaction left nothing behind.
    expect((await pool.query("SELECT count(*)::int AS n FROM model_results WHERE job_id = 'job-c'")).rows).toEqual([{ n: 0 }]);
  });

  it('sweeps only staged files that are old and never got a result', async () => {
    await repository.stageInput('job-old', 'x.npy', 3, Uint8Array.of(1, 2, 3));
    await repository.stageInput('job-new', 'y.npy', 3, Uint8Array.of(4, 5, 6));
    await pool.query("UPDATE input_files SET staged_at = now() - interval '2 hours' WHERE job_id IN ('job-old', 'job-a')");
    expect(await repository.sweepStagedInputs(60 * 60 * 1000)).toBe(1);
    const left = (await pool.query('SELECT job_id FROM input_files ORDER BY job_id')).rows.map((r) => r.job_id);
    expect(left).toEqual(['job-a', 'job-b', 'job-new']);
  });

  it('keeps a stored input by reference next to older rows with bytes; a delete names the object only when no other row does', async () => {
    const sha256 = 'ef'.repeat(32);
    const one = { ...result('job-blob-1', null), input: { blobKey: 'blob-x', sha256 } };
    const two = { ...result('job-blob-2', null), input: { blobKey: 'blob-x', sha256 } };
    await repository.createWithRun(one);
    await repository.createWithRun(two);
    const row = async (jobId: string) =>
      (await pool.query('SELECT length(bytes) AS bytes, blob_key, sha256 FROM input_files WHERE job_id = $1', [jobId])).rows[0];
    expect(await row('job-blob-1')).toEqual({ bytes: null, blob_key: 'blob-x', sha256 });
    expect(await row('job-b')).toEqual({ bytes: bytes.length, blob_key: null, sha256: null }); // a row from before: its bytes
    expect(await repository.blobReferences(['blob-x', 'blob-y'])).toEqual(new Set(['blob-x']));
    expect(await repository.deleteOwned(ownerId, one.id)).toEqual({ deleted: true, unreferencedBlob: null });
    expect(await repository.deleteOwned(ownerId, two.id)).toEqual({ deleted: true, unreferencedBlob: 'blob-x' });
    expect(await repository.deleteOwned(ownerId, two.id)).toEqual({ deleted: false, unreferencedBlob: null });
    // A row holds its bytes or names its object: never neither.
    await expect(pool.query("INSERT INTO input_files (job_id, name, size) VALUES ('job-none', 'n', 0)")).rejects.toThrow(/input_files_bytes_or_blob/);
  });
});
