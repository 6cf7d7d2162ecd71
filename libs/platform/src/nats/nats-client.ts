import type { QdcConfig } from '../config/config.js';
import { EventBus } from './event-bus.js';
import { NatsConnection } from './nats-connection.js';
import { PayloadStore } from './payload-store.js';
import { RpcClient } from './rpc-client.js';

/** NATS outside a Nest application (CLI commands, tests): the same pieces NatsModule provides, connected. */
export interface NatsClient {
  connection: NatsConnection;
  payloads: PayloadStore;
  rpc: RpcClient;
  events: EventBus;
  close(): Promise<void>;
}

export async function connectNatsClient(config: QdcConfig, name: string): Promise<NatsClient> {
  const connection = new NatsConnection(config, name);
  const payloads = new PayloadStore(connection, config);
  await connection.connect();
  return {
    connection,
    payloads,
    rpc: new RpcClient(connection, payloads, config),
    events: new EventBus(connection, payloads),
    close: () => connection.onApplicationShutdown(),
  };
}
