/**
 * Replicas of every JetStream stream, KV bucket and object store QDC creates: one setting, QDC_NATS_REPLICAS (1 on a
 * single nats-server, 3 on a 3-node cluster), applied here so that no creator forgets it. A stream, bucket or store
 * created before the setting changed is brought to it: a cluster moves a stream between R1 and R3 in place.
 */
import { jetstreamManager, type JetStreamManager, type StreamInfo } from '@nats-io/jetstream';
import { Kvm, type KV, type KvOptions } from '@nats-io/kv';
import { Objm, type ObjectStore, type ObjectStoreOptions } from '@nats-io/obj';
import type { NatsConnection as Connection } from '@nats-io/transport-node';
import type { QdcConfig } from '../config/config.js';

type ReplicaSetting = Pick<QdcConfig, 'QDC_NATS_REPLICAS'>;

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
export async function replicatedKv(nc: Connection, config: ReplicaSetting, bucket: string, options: Partial<KvOptions> = {}): Promise<KV> {
  const kv = await new Kvm(nc).create(bucket, { ...options, replicas: config.QDC_NATS_REPLICAS });
  const jsm = await jetstreamManager(nc);
  await matchReplicas(jsm, await jsm.streams.info(`KV_${bucket}`), config);
  return kv;
}

/** An object store (`OBJ_<name>` stream) with the configured replicas: created, or opened and brought to them. */
export async function replicatedObjectStore(
  nc: Connection,
  config: ReplicaSetting,
  name: string,
  options: Partial<ObjectStoreOptions> = {},
): Promise<ObjectStore> {
  const objm = new Objm(nc);
  // Two processes creating it at once: the second one's create fails, and it opens the first one's.
  const store = await objm.create(name, { ...options, replicas: config.QDC_NATS_REPLICAS }).catch(() => objm.open(name));
  const jsm = await jetstreamManager(nc);
  await matchReplicas(jsm, await jsm.streams.info(`OBJ_${name}`), config);
  return store;
}
