import { Injectable } from '@nestjs/common';
import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import { z } from 'zod';
import { defineRpc } from '#qdc/contracts';
import { EventBus } from './event-bus.js';
import { NatsConnection } from './nats-connection.js';
import { RpcClient, type CallOptions } from './rpc-client.js';

/**
 * @deprecated The former all-in-one NATS class, kept only as a thin view over NatsConnection, RpcClient and EventBus
 * while apps/assistant (another engineer's area) still calls it; removed when it calls them directly.
 */
@Injectable()
export class NatsService {
  constructor(
    private readonly connection: NatsConnection,
    private readonly rpc: RpcClient,
    private readonly events: EventBus,
  ) {}

  connect(): Promise<void> {
    return this.connection.connect();
  }

  get isConnected(): boolean {
    return this.connection.isConnected;
  }

  subject(name: string): string {
    return this.connection.subject(name);
  }

  jetstream(): JetStreamClient {
    return this.connection.jetstream();
  }

  jetstreamManager(): Promise<JetStreamManager> {
    return this.connection.jetstreamManager();
  }

  request<T>(subject: string, payload: unknown, options?: CallOptions): Promise<T> {
    return this.rpc.call(defineRpc({ subject, request: z.unknown(), response: z.unknown() }), payload, options) as Promise<T>;
  }

  publish(subject: string, payload: unknown): Promise<void> {
    return this.events.publishOn(subject, payload);
  }
}
