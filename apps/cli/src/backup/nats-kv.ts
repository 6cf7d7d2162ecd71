import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Kvm, type KV } from '@nats-io/kv';
import { replicatedKv, type NatsConnection, type QdcConfig } from '#qdc/platform';
import { BackupError, type BackupManifest, sha256OfFile } from './manifest.js';

type KvRecord = BackupManifest['nats']['kv'][number];

/** The KV bucket, or undefined when it was never created (its stream `KV_<bucket>` does not exist). */
async function openIfPresent(nats: NatsConnection, bucket: string): Promise<KV | undefined> {
  const jsm = await nats.jetstreamManager();
  const exists = await jsm.streams.info(`KV_${bucket}`).then(
    () => true,
    () => false,
  );
  return exists ? new Kvm(nats.raw).open(bucket) : undefined;
}

/** Every current entry of the bucket (deleted keys are not entries) to `nats/kv-<bucket>.ndjson`: {key, value (base64)}. */
export async function dumpKv(nats: NatsConnection, dir: string, bucket: string): Promise<KvRecord> {
  await mkdir(join(dir, 'nats'), { recursive: true });
  const file = `nats/kv-${bucket}.ndjson`;
  const out = createWriteStream(join(dir, file));
  const done = once(out, 'finish');
  let entries = 0;
  const kv = await openIfPresent(nats, bucket);
  if (kv) {
    const keys: string[] = [];
    for await (const key of await kv.keys()) keys.push(key);
    for (const key of keys.sort()) {
      const entry = await kv.get(key);
      if (entry?.operation !== 'PUT') continue; // deleted between the listing and the read
      if (!out.write(`${JSON.stringify({ key, value: Buffer.from(entry.value).toString('base64') })}\n`)) await once(out, 'drain');
      entries++;
    }
  }
  out.end();
  await done;
  const { sha256, bytes } = await sha256OfFile(join(dir, file));
  return { bucket, file, entries, bytes, sha256 };
}

/** The keys the bucket holds now (none when it does not exist). */
export async function kvKeys(nats: NatsConnection, bucket: string): Promise<string[]> {
  const kv = await openIfPresent(nats, bucket);
  if (!kv) return [];
  const keys: string[] = [];
  for await (const key of await kv.keys()) keys.push(key);
  return keys;
}

/**
 * Puts the backup's entries into the bucket (created with the services' settings, history 1 and QDC_NATS_REPLICAS,
 * when missing). `replace`: keys of the bucket that the backup does not hold are deleted first.
 */
export async function loadKv(nats: NatsConnection, config: QdcConfig, dir: string, record: KvRecord, replace: boolean): Promise<number> {
  const kv = (await openIfPresent(nats, record.bucket)) ?? (await replicatedKv(nats.raw, config, record.bucket, { history: 1 }));
  const entries: { key: string; value: string }[] = [];
  for await (const line of createInterface({ input: createReadStream(join(dir, record.file)), crlfDelay: Number.POSITIVE_INFINITY })) {
    if (line) entries.push(JSON.parse(line) as { key: string; value: string });
  }
  if (entries.length !== record.entries) throw new BackupError(`${record.file}: ${entries.length} entries, the manifest says ${record.entries}`);
  if (replace) {
    const keep = new Set(entries.map((e) => e.key));
    for await (const key of await kv.keys()) if (!keep.has(key)) await kv.delete(key);
  }
  for (const { key, value } of entries) await kv.put(key, Buffer.from(value, 'base64'));
  return entries.length;
}
