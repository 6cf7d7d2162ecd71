import { mkdtempSync, mkdirSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { applyMigrations, ensureDatabase } from '#qdc/platform';

describe('migrations (real Postgres)', () => {
  const name = `qdc_migrate_${Date.now().toString(36)}`;
  const url = `postgresql://root@127.0.0.1:5432/${name}`;
  const query = async (sql: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(sql)).rows;
    } finally {
      await client.end();
    }
  };

  afterAll(async () => {
    const admin = new pg.Client({ connectionString: 'postgresql://root@127.0.0.1:5432/postgres' });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  });

  it('creates the database, applies every migration once, and records them like prisma migrate deploy', async () => {
    expect(await ensureDatabase(url)).toBe(true);
    expect(await ensureDatabase(url)).toBe(false);
    const dir = resolve('prisma/migrations');
    const [first, second] = await Promise.all([applyMigrations(url, dir), applyMigrations(url, dir)]);
    expect(first.applied.length + second.applied.length).toBeGreaterThan(0);
    expect(first.applied.length === 0 || second.applied.length === 0).toBe(true);
    const again = await applyMigrations(url, dir);
    expect(again.applied).toEqual([]);
    const rows = await query('SELECT migration_name, finished_at IS NOT NULL AS done, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name');
    expect(rows.every((r) => r.done && r.applied_steps_count === 1)).toBe(true);
    const tables = (await query("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")).map((r) => r.tablename);
    expect(tables).toEqual([
      '_prisma_migrations',
      'api_keys',
      'assistant_messages',
      'assistant_threads',
      'assistant_usage',
      'input_files',
      'lab_devices',
      'model_results',
      'model_run_counters',
      'owners',
      'qpu_idempotency_keys',
      'qpu_job_events',
      'qpu_jobs',
      'qpu_owner_budgets',
      'votes',
      'webhook_deliveries',
      'webhooks',
    ]);
    // Uploaded arrays are stored uncompressed (20261126041500): lz4 gained ~4 % on float data for 10-25 ms per 10 MB.
    const [storage] = await query("SELECT attstorage FROM pg_attribute WHERE attrelid = 'input_files'::regclass AND attname = 'bytes'");
    expect(storage).toEqual({ attstorage: 'e' });
  });

  it('refuses to run when an applied migration was edited', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qdc-migrations-'));
    cpSync(resolve('prisma/migrations'), dir, { recursive: true });
    const [firstName] = (await query('SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name LIMIT 1')).map((r) => r.migration_name);
    mkdirSync(join(dir, firstName), { recursive: true });
    writeFileSync(join(dir, firstName, 'migration.sql'), '-- edited\nSELECT 1;');
    await expect(applyMigrations(url, dir)).rejects.toThrow(/edited after it was applied/);
  });

  it('keeps existing results and their input files through the later migrations', async () => {
    const other = `${name}_upgrade`;
    const otherUrl = `postgresql://root@127.0.0.1:5432/${other}`;
    const dir = mkdtempSync(join(tmpdir(), 'qdc-migrations-first-'));
    cpSync(resolve('prisma/migrations/20261122000000_init'), join(dir, '20261122000000_init'), { recursive: true });
    await ensureDatabase(otherUrl);
    const client = new pg.Client({ connectionString: otherUrl });
    await client.connect();
    try {
      await applyMigrations(otherUrl, dir);
      await client.query(`INSERT INTO owners (id, name) VALUES ('00000000-0000-4000-8000-000000000001', 'lab')`);
      await client.query(`INSERT INTO model_results (id, owner_id, job_id, model, input_file_name, input_file_size, output)
        VALUES ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', 'run-old', 'm', 'a.npy', 3, '{}')`);
      await client.query(`INSERT INTO input_files (result_id, name, size, bytes) VALUES ('00000000-0000-4000-8000-000000000002', 'a.npy', 3, '\\x010203')`);
      const report = await applyMigrations(otherUrl, resolve('prisma/migrations'));
      expect(report.applied.length).toBeGreaterThan(0);
      const rows = (await client.query('SELECT job_id, result_id, size, bytes FROM input_files')).rows;
      expect(rows).toEqual([{ job_id: 'run-old', result_id: '00000000-0000-4000-8000-000000000002', size: 3, bytes: Buffer.from([1, 2, 3]) }]);
    } finally {
      await client.end();
      const admin = new pg.Client({ connectionString: 'postgresql://root@127.0.0.1:5432/postgres' });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "${other}" WITH (FORCE)`);
      await admin.end();
    }
  });
});
