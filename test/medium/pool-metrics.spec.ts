import pg from 'pg';
import { meterPool, metricsRegistry, unmeterPool } from '#qdc/platform';

/** The Postgres pool series against the real local Postgres: connection counts, waiting queries, query durations. */
describe('Postgres pool metrics', () => {
  const databaseUrl = (process.env.DATABASE_URL ?? 'postgresql://root@127.0.0.1:5432/qdc').replace(/\/[^/]*$/, '/postgres');
  let pool: pg.Pool;

  beforeAll(() => {
    pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    meterPool(pool);
  });
  afterAll(async () => {
    await pool.end();
    unmeterPool(pool);
  });

  const sample = async (pattern: RegExp): Promise<number> => {
    const match = (await metricsRegistry.metrics()).match(pattern);
    if (!match) throw new Error(`no sample matching ${pattern}`);
    return Number(match[1]);
  };

  it('counts open, idle and waiting connections and times queries by outcome', async () => {
    const okBefore = await sample(/^qdc_db_query_duration_seconds_count\{outcome="ok"[^}]*\} (\d+)$/m).catch(() => 0);
    // Two connections busy for a moment, two queries waiting behind them.
    const slow = Array.from({ length: 4 }, () => pool.query('SELECT pg_sleep(0.3)'));
    await new Promise((r) => setTimeout(r, 150));
    expect(await sample(/^qdc_db_pool_connections\{state="total"[^}]*\} (\d+)$/m)).toBe(2);
    expect(await sample(/^qdc_db_pool_connections\{state="idle"[^}]*\} (\d+)$/m)).toBe(0);
    expect(await sample(/^qdc_db_pool_waiting(?:\{[^}]*\})? (\d+)$/m)).toBe(2);
    await Promise.all(slow);
    expect(await sample(/^qdc_db_pool_connections\{state="idle"[^}]*\} (\d+)$/m)).toBe(2);
    expect(await sample(/^qdc_db_pool_waiting(?:\{[^}]*\})? (\d+)$/m)).toBe(0);
    // pool.query drops a connection whose query failed.
    await expect(pool.query('SELECT * FROM no_such_table_for_metrics')).rejects.toThrow(/does not exist/);
    // A checked-out client's promise-style query (what Prisma does inside a transaction).
    const client = await pool.connect();
    await client.query('SELECT 1');
    client.release();

    expect(await sample(/^qdc_db_pool_connections\{state="total"[^}]*\} (\d+)$/m)).toBe(1);
    expect(await sample(/^qdc_db_query_duration_seconds_count\{outcome="ok"[^}]*\} (\d+)$/m)).toBe(okBefore + 5);
    expect(await sample(/^qdc_db_query_duration_seconds_count\{outcome="error"[^}]*\} (\d+)$/m)).toBe(1);
    // The slow queries fall in the buckets above 0.25 s.
    expect(await sample(/^qdc_db_query_duration_seconds_bucket\{le="0\.25",outcome="ok"[^}]*\} (\d+)$/m)).toBe(okBefore + 1);
  });
});
