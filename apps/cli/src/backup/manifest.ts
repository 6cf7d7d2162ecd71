import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** What `qdc backup create` writes next to the data files: versions, the consistency point, counts and checksums. */
export interface BackupManifest {
  format: 'qdc-backup';
  format_version: 1;
  created_at: string;
  qdc_version: string;
  namespace: string;
  postgres: {
    server_version: string;
    /** The consistency point: every table was read in one REPEATABLE READ READ ONLY snapshot taken at this time. */
    snapshot_at: string;
    schema: string;
    /** Applied migrations (name, SHA-256 of migration.sql) in the snapshot; restore recreates exactly these. */
    migrations: { name: string; checksum: string }[];
    tables: BackupTable[];
    sequences: { name: string; last_value: string; is_called: boolean }[];
  };
  nats: {
    kv: { bucket: string; file: string; entries: number; bytes: number; sha256: string }[];
    /** Object stores whose objects are durable state (the uploaded input files); absent in backups made before them. */
    objects?: { bucket: string; file: string; objects: number; bytes: number; sha256: string }[];
  };
  /** Stored state this backup leaves out on purpose (docs/operations/backup.md says why). */
  not_included: string[];
}

export interface BackupTable {
  name: string;
  columns: { name: string; type: string }[];
  rows: number;
  file: string;
  bytes: number;
  sha256: string;
}

export const MANIFEST_FILE = 'manifest.json';

export async function sha256OfFile(path: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** Thrown when a backup directory cannot be restored as it is; nothing has been touched when it is thrown. */
export class BackupError extends Error {}

/**
 * Reads the manifest and checks every data file it lists (size and SHA-256) before restore touches anything; a
 * missing, truncated or altered file is named.
 */
export async function readVerifiedManifest(dir: string): Promise<BackupManifest> {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8')) as BackupManifest;
  } catch (error) {
    throw new BackupError(`${join(dir, MANIFEST_FILE)}: not a readable backup manifest (${(error as Error).message})`);
  }
  if (manifest?.format !== 'qdc-backup' || manifest.format_version !== 1) {
    throw new BackupError(`${join(dir, MANIFEST_FILE)}: not a qdc backup of format version 1`);
  }
  const files = [...manifest.postgres.tables, ...manifest.nats.kv, ...(manifest.nats.objects ?? [])];
  const problems: string[] = [];
  for (const f of files) {
    const path = join(dir, f.file);
    const present = await stat(path).then(
      () => true,
      () => false,
    );
    if (!present) {
      problems.push(`${f.file}: missing`);
      continue;
    }
    const { sha256, bytes } = await sha256OfFile(path);
    if (bytes !== f.bytes || sha256 !== f.sha256)
      problems.push(`${f.file}: ${bytes} bytes, SHA-256 ${sha256}; the manifest says ${f.bytes} bytes, ${f.sha256}`);
  }
  if (problems.length) throw new BackupError(`backup ${dir} is damaged; nothing was restored:\n  ${problems.join('\n  ')}`);
  return manifest;
}
