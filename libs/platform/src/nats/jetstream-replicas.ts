/**
 * Replicas of every JetStream stream, KV bucket and object store QDC creates: one setting, QDC_NATS_REPLICAS (1 on a
 * single nats-server, 3 on a 3-node cluster), applied here so that no creator forgets it. A stream, bucket or store
 * created before the setting changed is brought to it: a cluster moves a stream between R1 and R3 in place.
 * Creating or moving one waits up to QDC_NATS_TIMEOUT_MS (a cluster agrees on it first; the client's own 5 s is
 * short for that on a loaded machine); the bucket or store is then used with the connection's usual timeouts.
 */
import { jetstream, jetstreamManager, type JetStreamManager, type StreamInfo } from '@nats-io/jetstream';
import { Kvm, type KV, type KvOptions } from '@nats-io/kv';
import { Objm, type ObjectStore, type ObjectStoreOptions } from '@nats-io/obj';
import type { NatsConnection as Connection } from '@nats-io/transport-node';
import type { QdcConfig } from '../config/config.js';

type ReplicaSetting = Pick<QdcConfig, 'QDC_NATS_REPLICAS'>;
type StoreSettings = Pick<QdcConfig, 'QDC_NATS_REPLICAS' | 'QDC_NATS_TIMEOUT_MS'>;

/** For a stream's configuration, added and updated alike: `{ name, subjects, …, ...streamReplicas(config) }`. */
export const streamReplicas = (config: ReplicaSetting): { num_replicas: number } => ({ num_replicas: config.QDC_NATS_REPLICAS });

/** Brings an existing stream (its info) to the configured replicas; a stream that has them is left alone. */
export async function matchReplicas(jsm: JetStreamManager, info: StreamInfo, config: ReplicaSetting): Promise<StreamInfo> {
  const wanted = config.QDC_NATS_REPLICAS;
  if (info.config.num_replicas === wanted) return info;
  return jsm.streams.update(info.config.name, { num_replicas: wanted }).catch((error: Error) => {
    throw new Error(
      `stream ${info.config.name} has ${info.config.num_replicas} replica(s), QDC_NATS_REPLICAS is ${wanted}, and NATS refused the change: ${error.message}`,
    );
  });
}

/** A KV bucket (`KV_<bucket>` stream) with the configured replicas: created, or opened and brought to them. */
export async function replicatedKv(nc: Connection, config: StoreSettings, bucket: string, options: Partial<KvOptions> = {}): Promise<KV> {
  const timeout = config.QDC_NATS_TIMEOUT_MS;
  await new Kvm(jetstream(nc, { timeout })).create(bucket, { ...options, replicas: config.QDC_NATS_REPLICAS });
  const jsm = await jetstreamManager(nc, { timeout });
  await matchReplicas(jsm, await jsm.streams.info(`KV_${bucket}`), config);
  return new Kvm(nc).open(bucket);
}

/** An object store (`OBJ_<name>` stream) with the configured replicas: created, or opened and brought to them. */
export async function replicatedObjectStore(
  nc: Connection,
  config: StoreSettings,
  name: string,
  options: Partial<ObjectStoreOptions> = {},
): Promise<ObjectStore> {
  const timeout = config.QDC_NATS_TIMEOUT_MS;
  const admin = new Objm(jetstream(nc, { timeout }));
  // Two processes creating it at once: the second one's create fails, and it finds the first one's.
  await admin.create(name, { ...options, replicas: config.QDC_NATS_REPLICAS }).catch(() => admin.open(name));
  const jsm = await jetstreamManager(nc, { timeout });
  await matchReplicas(jsm, await jsm.streams.info(`OBJ_${name}`), config);
  return new Objm(nc).open(name);
}
