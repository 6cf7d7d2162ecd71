import { createReadStream, createWriteStream } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { createGunzip, createGzip } from 'node:zlib';
import pg from 'pg';
import { applyMigrations } from '#qdc/platform';
import { BackupError, type BackupManifest, type BackupTable, sha256OfFile } from './manifest.js';

const MIGRATIONS_TABLE = '_prisma_migrations';
const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** Text output of every type exactly as COPY writes it, so each value reads back through its type's input function. */
async function setTextFormats(client: pg.Client): Promise<void> {
  await client.query(
    "SET LOCAL bytea_output = 'hex'; SET LOCAL timezone = 'UTC'; SET LOCAL DateStyle = 'ISO, YMD'; SET LOCAL IntervalStyle = 'postgres'; SET LOCAL extra_float_digits = 3",
  );
}

async function tableNames(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ relname: string }>(
    `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') ORDER BY c.relname`,
  );
  return rows.map((r) => r.relname);
}

async function columnsOf(client: pg.Client, table: string): Promise<{ name: string; type: string }[]> {
  const { rows } = await client.query<{ name: string; type: string }>(
    `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type FROM pg_attribute a
      WHERE a.attrelid = (quote_ident(current_schema()) || '.' || quote_ident($1))::regclass
        AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = '' ORDER BY a.attnum`,
    [table],
  );
  return rows;
}

/** Tables in an order where every table comes after the tables its foreign keys point at. */
async function foreignKeyOrder(client: pg.Client, tables: string[]): Promise<string[]> {
  const { rows } = await client.query<{ child: string; parent: string }>(
    `SELECT c.relname AS child, p.relname AS parent FROM pg_constraint k
       JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE k.contype = 'f' AND n.nspname = current_schema()`,
  );
  const parents = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const { child, parent } of rows) if (child !== parent && parents.has(child) && parents.has(parent)) parents.get(child)!.add(parent);
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const next = tables.find((t) => !placed.has(t) && [...parents.get(t)!].every((p) => placed.has(p)));
    if (!next) throw new BackupError(`foreign keys form a cycle among ${tables.filter((t) => !placed.has(t)).join(', ')}`);
    ordered.push(next);
    placed.add(next);
  }
  return ordered;
}

/**
 * Dumps every table of the database's schema inside one REPEATABLE READ READ ONLY transaction (one snapshot: the
 * backup's consistency point), each table to `postgres/<table>.ndjson.gz`: one JSON array per row, each value as its
 * type's text form (what COPY writes) or null. Sequences and the applied migrations are recorded in the manifest.
 */
export async function dumpPostgres(databaseUrl: string, dir: string): Promise<BackupManifest['postgres']> {
  await mkdir(join(dir, 'postgres'), { recursive: true });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await setTextFormats(client);
    const {
      rows: [head],
    } = await client.query<{ at: Date; version: string; schema: string }>(
      "SELECT now() AS at, current_setting('server_version') AS version, current_schema() AS schema",
    );
    const names = await tableNames(client);
    if (!names.includes(MIGRATIONS_TABLE)) throw new BackupError('the database has no _prisma_migrations table: not a QDC database (or never migrated)');
    const migrations = (
      await client.query<{ name: string; checksum: string }>(
        `SELECT migration_name AS name, checksum FROM ${quote(MIGRATIONS_TABLE)}
          WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
      )
    ).rows;
    const tables: BackupTable[] = [];
    for (const name of names) tables.push(await dumpTable(client, dir, name));
    const sequences: BackupManifest['postgres']['sequences'] = [];
    const seqs = await client.query<{ relname: string }>(
      `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind = 'S' ORDER BY c.relname`,
    );
    for (const { relname } of seqs.rows) {
      const { rows } = await client.query<{ last_value: string; is_called: boolean }>(`SELECT last_value::text, is_called FROM ${quote(relname)}`);
      sequences.push({ name: relname, last_value: rows[0]!.last_value, is_called: rows[0]!.is_called });
    }
    await client.query('COMMIT');
    return { server_version: head!.version, snapshot_at: head!.at.toISOString(), schema: head!.schema, migrations, tables, sequences };
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function dumpTable(client: pg.Client, dir: string, name: string): Promise<BackupTable> {
  const columns = await columnsOf(client, name);
  const file = `postgres/${name}.ndjson.gz`;
  const gzip = createGzip({ level: 6 });
  const out = createWriteStream(join(dir, file));
  const done = once(out, 'finish');
  gzip.pipe(out);
  const cursor = `qdc_backup_${createHash('sha1').update(name).digest('hex').slice(0, 12)}`;
  const select = columns.map((c) => `${quote(c.name)}::text`).join(', ');
  await client.query(`DECLARE ${cursor} NO SCROLL CURSOR FOR SELECT ${select} FROM ${quote(name)}`);
  // Rows holding bytea (uploaded inputs, up to 64 MiB: 128 MiB of hex text) are fetched one at a time.
  const batch = columns.some((c) => c.type === 'bytea') ? 1 : 500;
  let rows = 0;
  for (;;) {
    const result = await client.query({ text: `FETCH ${batch} FROM ${cursor}`, rowMode: 'array' });
    for (const row of result.rows as (string | null)[][]) {
      if (!gzip.write(`${JSON.stringify(row)}\n`)) await once(gzip, 'drain');
      rows++;
    }
    if (result.rows.length < batch) break;
  }
  await client.query(`CLOSE ${cursor}`);
  gzip.end();
  await done;
  const { sha256, bytes } = await sha256OfFile(join(dir, file));
  return { name, columns, rows, file, bytes, sha256 };
}

/** What the target database holds now: its applied migrations and the tables that have rows. */
export async function inspectPostgres(
  databaseUrl: string,
): Promise<{ migrations: { name: string; checksum: string }[] | undefined; tablesWithRows: string[] }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const names = await tableNames(client);
    const migrations = names.includes(MIGRATIONS_TABLE)
      ? (
          await client.query<{ name: string; checksum: string }>(
            `SELECT migration_name AS name, checksum FROM ${quote(MIGRATIONS_TABLE)}
              WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
          )
        ).rows
      : undefined;
    const tablesWithRows: string[] = [];
    for (const name of names) {
      if (name === MIGRATIONS_TABLE) continue;
      const { rows } = await client.query(`SELECT 1 FROM ${quote(name)} LIMIT 1`);
      if (rows.length) tablesWithRows.push(name);
    }
    return { migrations: names.length ? (migrations ?? []) : undefined, tablesWithRows };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Checks that this build can recreate the backup's schema: every migration the backup was taken at is in
 * `migrationsDir` with the same checksum.
 */
export async function checkMigrations(manifest: BackupManifest, migrationsDir: string): Promise<void> {
  const here = new Set((await readdir(migrationsDir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name));
  const problems: string[] = [];
  for (const m of manifest.postgres.migrations) {
    if (!here.has(m.name)) {
      problems.push(`${m.name}: not in ${migrationsDir}`);
      continue;
    }
    const sql = await readFile(join(migrationsDir, m.name, 'migration.sql'), 'utf8');
    if (createHash('sha256').update(sql).digest('hex') !== m.checksum) problems.push(`${m.name}: migration.sql differs from the one the backup was taken at`);
  }
  if (problems.length) {
    throw new BackupError(
      `this qdc (${migrationsDir}) cannot recreate the backup's schema; restore with the QDC version that made it (${manifest.qdc_version}):\n  ${problems.join('\n  ')}`,
    );
  }
}

/** Creates the backup's schema in an empty database: exactly the backup's migrations, recorded as applied. */
export async function createSchema(databaseUrl: string, manifest: BackupManifest, migrationsDir: string): Promise<void> {
  const staging = await mkdtemp(join(tmpdir(), 'qdc-restore-migrations-'));
  try {
    for (const m of manifest.postgres.migrations) await cp(join(migrationsDir, m.name), join(staging, m.name), { recursive: true });
    await applyMigrations(databaseUrl, staging);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

const BATCH_BYTES = 8 * 1024 * 1024;
const BATCH_ROWS = 1000;

/**
 * Loads every table of the backup (but `_prisma_migrations`, which `createSchema` wrote) in one transaction, parents
 * before children, and sets the sequences: either all of it is committed or nothing. `replace` (restore --force)
 * empties the tables first, in the same transaction.
 */
export async function loadPostgres(databaseUrl: string, dir: string, manifest: BackupManifest, replace: boolean): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let total = 0;
  try {
    await client.query('BEGIN');
    await setTextFormats(client);
    const present = new Set(await tableNames(client));
    const tables = manifest.postgres.tables.filter((t) => t.name !== MIGRATIONS_TABLE);
    const missing = tables.filter((t) => !present.has(t.name)).map((t) => t.name);
    if (missing.length) throw new BackupError(`the target database has no table(s) ${missing.join(', ')}`);
    if (replace) {
      const all = [...present].filter((t) => t !== MIGRATIONS_TABLE);
      if (all.length) await client.query(`TRUNCATE ${all.map(quote).join(', ')} CASCADE`);
    }
    const byName = new Map(tables.map((t) => [t.name, t]));
    for (const name of await foreignKeyOrder(
      client,
      tables.map((t) => t.name),
    )) {
      total += await loadTable(client, dir, byName.get(name)!);
    }
    for (const s of manifest.postgres.sequences) {
      await client.query('SELECT setval($1::regclass, $2::bigint, $3)', [quote(s.name), s.last_value, s.is_called]);
    }
    await client.query('COMMIT');
    return total;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function loadTable(client: pg.Client, dir: string, table: BackupTable): Promise<number> {
  const target = new Map((await columnsOf(client, table.name)).map((c) => [c.name, c.type]));
  const wrong = table.columns.filter((c) => target.get(c.name) !== c.type);
  if (wrong.length || target.size !== table.columns.length) {
    throw new BackupError(`table ${table.name}: the target's columns differ from the backup's (${wrong.map((c) => c.name).join(', ') || 'column count'})`);
  }
  const insert = `INSERT INTO ${quote(table.name)} (${table.columns.map((c) => quote(c.name)).join(', ')})
    SELECT ${table.columns.map((c, i) => `(e.v->>${i})::${c.type}`).join(', ')} FROM json_array_elements($1::json) AS e(v)`;
  const lines = createInterface({ input: createReadStream(join(dir, table.file)).pipe(createGunzip()), crlfDelay: Number.POSITIVE_INFINITY });
  let batch: string[] = [];
  let size = 0;
  let rows = 0;
  const flush = async () => {
    if (!batch.length) return;
    await client.query(insert, [`[${batch.join(',')}]`]);
    rows += batch.length;
    batch = [];
    size = 0;
  };
  for await (const line of lines) {
    if (!line) continue;
    batch.push(line);
    size += line.length;
    if (size >= BATCH_BYTES || batch.length >= BATCH_ROWS) await flush();
  }
  await flush();
  if (rows !== table.rows) throw new BackupError(`table ${table.name}: read ${rows} rows, the manifest says ${table.rows}`);
  return rows;
}
