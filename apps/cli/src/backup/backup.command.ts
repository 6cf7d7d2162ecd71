import { readFile, readdir, mkdir, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { UsageError, parseCommandLine } from '../cli-args.js';
import { BackupError, type BackupManifest, MANIFEST_FILE, readVerifiedManifest } from './manifest.js';

/**
 * Nest, the platform library, pg and NATS clients, loaded when a command gets that far: a damaged backup is refused
 * without them. The NATS client's connection notices stay out of stdout (the command's report, a CronJob's log).
 */
async function services() {
  const [{ Logger }, contracts, platform, kv, objects, postgres] = await Promise.all([
    import('@nestjs/common'),
    import('#qdc/contracts'),
    import('#qdc/platform'),
    import('./nats-kv.js'),
    import('./nats-objects.js'),
    import('./postgres.js'),
  ]);
  Logger.overrideLogger(['warn', 'error']);
  return { ...platform, ...kv, ...objects, ...postgres, labStreamsBucket: contracts.labStreamsBucket };
}

/** State that is deliberately not in a backup (docs/operations/backup.md › What a backup holds). */
const NOT_INCLUDED = [
  'Redis (BullMQ queues inference and simulation, rate-limit counters): jobs in flight; drain or accept that runs in flight are lost (QPU jobs are recovered from Postgres)',
  'NATS object store <ns>-payloads: transit copies of large payloads, 1 h TTL; every stored result is in Postgres, every input in Postgres or <ns>-inputs',
  'lab-stream frame streams (unanalysed frames) and event streams (replay buffer kept for the duplicate window; the results are in Postgres)',
  'lab job streams <ns>-lab-<lab> (hand-overs of QPU jobs to lab nodes; the broker redoes them from Postgres)',
  'KV <ns>-lab-stream-leases and <ns>-lab-liveness, assistant run events <ns>-assistant-runs (memory, minutes)',
  'lab NATS identities (qdc lab add: the auth directory with auth.conf and credentials) and the API key pepper (configuration)',
];

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, { force: { type: 'boolean' } });
  const [command, dir, ...extra] = positionals;
  if (command !== 'create' && command !== 'restore')
    throw new UsageError(command ? `unknown command backup ${command}` : 'expected backup create or backup restore');
  if (!dir) throw new UsageError(`backup ${command} needs a directory`);
  if (extra.length) throw new UsageError(`unexpected argument(s) ${extra.join(' ')}`);
  if (values.force && command !== 'restore') throw new UsageError('--force is an option of backup restore');
  try {
    return command === 'create' ? await create(resolve(dir)) : await restore(resolve(dir), values.force === true);
  } catch (error) {
    if (!(error instanceof BackupError)) throw error;
    console.error(`error: ${error.message}`);
    return 1;
  }
}

async function qdcVersion(migrations: string): Promise<string> {
  const pkg = JSON.parse(await readFile(join(migrations, '../../package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/**
 * The KV buckets are read first, then every table in one Postgres snapshot (the consistency point): a stream
 * definition's owner row is written before its KV entry, so every definition in the backup finds its owner. The input
 * store is read after the snapshot: an input's object is written before its row, so every row finds its object (only
 * a result deleted while the backup runs may have lost its object by then: its restored download is a 404).
 */
async function create(dir: string): Promise<number> {
  const existing = await readdir(dir).catch(() => undefined);
  if (existing?.length) throw new BackupError(`${dir} is not empty; a backup goes into a new or empty directory`);
  await mkdir(dir, { recursive: true });
  const { loadConfig, connectNatsClient, dumpKv, dumpObjectStore, dumpPostgres, inputsBucket, migrationsDir, labStreamsBucket } = await services();
  const config = loadConfig();
  const nats = await connectNatsClient(config, 'qdc-backup');
  try {
    const kv = [];
    // KV buckets whose entries are durable state: the live stream definitions.
    for (const bucket of [labStreamsBucket(config.QDC_NAMESPACE)]) kv.push(await dumpKv(nats.connection, dir, bucket));
    const postgres = await dumpPostgres(config.DATABASE_URL, dir);
    const objects = [await dumpObjectStore(nats.connection, dir, inputsBucket(config.QDC_NAMESPACE))];
    const manifest: BackupManifest = {
      format: 'qdc-backup',
      format_version: 1,
      created_at: new Date().toISOString(),
      qdc_version: await qdcVersion(migrationsDir()),
      namespace: config.QDC_NAMESPACE,
      postgres,
      nats: { kv, objects },
      not_included: NOT_INCLUDED,
    };
    // The manifest is written last and renamed into place: a directory without it is an unfinished backup.
    await writeFile(join(dir, `${MANIFEST_FILE}.partial`), `${JSON.stringify(manifest, null, 2)}\n`);
    await rename(join(dir, `${MANIFEST_FILE}.partial`), join(dir, MANIFEST_FILE));
    const rows = postgres.tables.reduce((n, t) => n + t.rows, 0);
    console.log(
      `backup ${dir}: ${postgres.tables.length} tables, ${rows} rows (snapshot ${postgres.snapshot_at}, migration ${postgres.migrations.at(-1)?.name ?? 'none'}), ` +
        [...kv.map((k) => `${k.entries} entries of KV ${k.bucket}`), ...objects.map((o) => `${o.objects} objects (${o.bytes} bytes) of ${o.bucket}`)].join(
          ', ',
        ),
    );
    return 0;
  } finally {
    await nats.close();
  }
}

const sameMigrations = (a: { name: string; checksum: string }[], b: { name: string; checksum: string }[]): boolean =>
  a.length === b.length && a.every((m, i) => m.name === b[i]!.name && m.checksum === b[i]!.checksum);

/**
 * Verifies the whole backup, then checks the target: the same namespace, a schema this build can recreate, and no
 * data (unless `force`). Only then: the schema (when the database has none), all tables in one transaction, the KV.
 */
async function restore(dir: string, force: boolean): Promise<number> {
  const manifest = await readVerifiedManifest(dir);
  const {
    loadConfig,
    connectNatsClient,
    checkMigrations,
    createSchema,
    ensureDatabase,
    inspectPostgres,
    kvKeys,
    loadKv,
    loadObjectStore,
    loadPostgres,
    migrationsDir,
    objectNames,
  } = await services();
  const config = loadConfig();
  if (manifest.namespace !== config.QDC_NAMESPACE) {
    throw new BackupError(
      `the backup is of namespace '${manifest.namespace}', QDC_NAMESPACE is '${config.QDC_NAMESPACE}' (stream definitions name their namespace's subjects); restore with QDC_NAMESPACE=${manifest.namespace}`,
    );
  }
  await checkMigrations(manifest, migrationsDir());
  await ensureDatabase(config.DATABASE_URL);
  const target = await inspectPostgres(config.DATABASE_URL);
  if (target.migrations && !sameMigrations(target.migrations, manifest.postgres.migrations)) {
    throw new BackupError(
      `the target database has a schema at migration ${target.migrations.at(-1)?.name ?? '(none recorded)'} and the backup is at ${manifest.postgres.migrations.at(-1)?.name}; ` +
        'restore into an empty database (drop and recreate it); the services migrate it further when they start',
    );
  }
  const nats = await connectNatsClient(config, 'qdc-restore');
  try {
    const occupied: string[] = target.tablesWithRows.map((t) => `table ${t}`);
    for (const record of manifest.nats.kv) {
      const keys = await kvKeys(nats.connection, record.bucket);
      if (keys.length) occupied.push(`KV ${record.bucket} (${keys.length} keys)`);
    }
    for (const record of manifest.nats.objects ?? []) {
      const names = await objectNames(nats.connection, record.bucket);
      if (names.length) occupied.push(`object store ${record.bucket} (${names.length} objects)`);
    }
    if (occupied.length && !force) {
      throw new BackupError(
        `the target already holds data, nothing was restored: ${occupied.join(', ')}. Restore into an empty system, or pass --force to replace it (its tables are emptied in the restore's transaction)`,
      );
    }
    if (!target.migrations) await createSchema(config.DATABASE_URL, manifest, migrationsDir());
    const rows = await loadPostgres(config.DATABASE_URL, dir, manifest, force);
    let entries = 0;
    for (const record of manifest.nats.kv) entries += await loadKv(nats.connection, config, dir, record, force);
    let objects = 0;
    for (const record of manifest.nats.objects ?? []) objects += await loadObjectStore(nats.connection, config, dir, record, force);
    console.log(
      `restored ${dir} (snapshot ${manifest.postgres.snapshot_at}): ${rows} rows in ${manifest.postgres.tables.length - 1} tables, ` +
        `${manifest.postgres.sequences.length} sequences, ${entries} KV entries, ${objects} stored input files`,
    );
    return 0;
  } finally {
    await nats.close();
  }
}
