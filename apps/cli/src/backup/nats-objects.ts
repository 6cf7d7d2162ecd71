import { createWriteStream } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';
import { Objm, type ObjectStore } from '@nats-io/obj';
import { replicatedObjectStore, type NatsConnection, type QdcConfig } from '#qdc/platform';
import { BackupError, type BackupManifest, sha256OfFile } from './manifest.js';

type ObjectStoreRecord = NonNullable<BackupManifest['nats']['objects']>[number];

/** The object store, or undefined when it was never created (its stream `OBJ_<bucket>` does not exist). */
async function openIfPresent(nats: NatsConnection, bucket: string): Promise<ObjectStore | undefined> {
  const jsm = await nats.jetstreamManager();
  const exists = await jsm.streams.info(`OBJ_${bucket}`).then(
    () => true,
    () => false,
  );
  return exists ? new Objm(nats.raw).open(bucket) : undefined;
}

/**
 * Every object of the store to `nats/obj-<bucket>.bin`, one after the other: a JSON line {name, size, sha256} and then
 * exactly `size` bytes. Objects are read one at a time (an input file is at most the upload limit).
 */
export async function dumpObjectStore(nats: NatsConnection, dir: string, bucket: string): Promise<ObjectStoreRecord> {
  await mkdir(join(dir, 'nats'), { recursive: true });
  const file = `nats/obj-${bucket}.bin`;
  const out = createWriteStream(join(dir, file));
  const done = once(out, 'finish');
  let objects = 0;
  const store = await openIfPresent(nats, bucket);
  if (store) {
    const names = (await store.list()).filter((i) => !i.deleted).map((i) => i.name);
    for (const name of names.sort()) {
      const object = await store.get(name);
      if (!object) continue; // removed between the listing and the read (its result was deleted)
      const chunks: Uint8Array[] = [];
      for await (const chunk of object.data) chunks.push(chunk);
      const error = await object.error;
      if (error) throw new BackupError(`object ${name} of ${bucket} did not read back whole: ${error.message}`);
      const bytes = Buffer.concat(chunks);
      const sha256 = Buffer.from(object.info.digest.replace(/^SHA-256=/, ''), 'base64url').toString('hex');
      if (!out.write(`${JSON.stringify({ name, size: bytes.length, sha256 })}\n`)) await once(out, 'drain');
      if (!out.write(bytes)) await once(out, 'drain');
      objects++;
    }
  }
  out.end();
  await done;
  const { sha256, bytes } = await sha256OfFile(join(dir, file));
  return { bucket, file, objects, bytes, sha256 };
}

/** The names the store holds now (none when it does not exist). */
export async function objectNames(nats: NatsConnection, bucket: string): Promise<string[]> {
  const store = await openIfPresent(nats, bucket);
  return store ? (await store.list()).filter((i) => !i.deleted).map((i) => i.name) : [];
}

/** The records of a dump file, each object's bytes read when its turn comes. */
async function* readDump(path: string): AsyncGenerator<{ name: string; size: number; sha256: string; bytes: Buffer }> {
  const handle = await open(path, 'r');
  try {
    let position = 0;
    for (;;) {
      // The header line: read a little, find its end.
      const probe = Buffer.alloc(4096);
      const { bytesRead } = await handle.read(probe, 0, probe.length, position);
      if (bytesRead === 0) return;
      const end = probe.subarray(0, bytesRead).indexOf(0x0a);
      if (end < 0) throw new BackupError(`${path}: a record header without its end at byte ${position}`);
      const header = JSON.parse(probe.subarray(0, end).toString('utf8')) as { name: string; size: number; sha256: string };
      position += end + 1;
      const bytes = Buffer.alloc(header.size);
      const read = await handle.read(bytes, 0, header.size, position);
      if (read.bytesRead !== header.size) throw new BackupError(`${path}: object ${header.name} is cut short`);
      position += header.size;
      yield { ...header, bytes };
    }
  } finally {
    await handle.close();
  }
}

/**
 * Puts the backup's objects into the store (created with the services' settings when missing) under their names. `replace`: objects of the store
 * that the backup does not hold are deleted first.
 */
export async function loadObjectStore(nats: NatsConnection, config: QdcConfig, dir: string, record: ObjectStoreRecord, replace: boolean): Promise<number> {
  const store = (await openIfPresent(nats, record.bucket)) ?? (await replicatedObjectStore(nats.raw, config, record.bucket));
  const names: string[] = [];
  for await (const { name } of readDump(join(dir, record.file))) names.push(name);
  if (names.length !== record.objects) throw new BackupError(`${record.file}: ${names.length} objects, the manifest says ${record.objects}`);
  if (replace) {
    const keep = new Set(names);
    for (const info of await store.list()) if (!info.deleted && !keep.has(info.name)) await store.delete(info.name);
  }
  for await (const { name, sha256, bytes } of readDump(join(dir, record.file))) {
    const info = await store.putBlob({ name }, bytes);
    const stored = Buffer.from(info.digest.replace(/^SHA-256=/, ''), 'base64url').toString('hex');
    if (stored !== sha256) throw new BackupError(`object ${name}: SHA-256 ${stored} after the restore, ${sha256} in the backup`);
  }
  return names.length;
}
