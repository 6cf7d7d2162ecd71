import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { EventBus } from './event-bus.js';
import { InputBlobStore } from './input-blob-store.js';
import { NatsConnection } from './nats-connection.js';
import { PayloadStore } from './payload-store.js';
import { RpcClient } from './rpc-client.js';
import { RpcDispatcher } from './rpc-dispatcher.js';
import { RpcServer } from './rpc-server.js';

/**
 * NATS for a process: one connection (NatsConnection), the payload store (inline or object store), the input store
 * (uploaded files: InputBlobStore), the typed RPC client, the event bus, and the RPC server that binds this process's @RpcHandler/@EventHandler methods.
 */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [NatsConnection, PayloadStore, InputBlobStore, RpcClient, EventBus, RpcDispatcher, RpcServer],
  exports: [NatsConnection, PayloadStore, InputBlobStore, RpcClient, EventBus],
})
export class NatsModule {}
