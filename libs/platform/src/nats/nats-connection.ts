import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { connect, type Msg, type NatsConnection as Connection, type Subscription } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { RpcError, natsServerOptions, qualify } from '#qdc/contracts';
import { QDC_CONFIG, SERVICE_NAME } from '../config/config.module.js';
import type { QdcConfig } from '../config/config.js';
import { DependencyUnavailable } from '../service/connection-errors.js';

/**
 * How long a request made while the connection is down waits for the reconnect before it answers `unavailable`
 * (503 with Retry-After at the gateway). Requests already in flight when the connection drops answer at once.
 */
export const RECONNECT_GRACE_MS = 2_000;

/**
 * The one NATS connection of a process: connects (namespaced name, endless reconnects), follows the link's state so
 * that requests fail fast across a NATS restart (`awaitLink`, `untilLinkLost`), and closes last at shutdown, after
 * whatever still needs it (`beforeClose`: the handlers in flight). The RPC client, the RPC server, the event bus and
 * the payload store are built on it.
 */
@Injectable()
export class NatsConnection implements OnApplicationShutdown {
  private readonly logger = new Logger(NatsConnection.name);
  private connection?: Connection;
  private connecting?: Promise<void>;
  private readonly reconnectListeners: (() => void)[] = [];
  private readonly closeBarriers: (() => Promise<unknown>)[] = [];
  /** False between a `disconnect` status and the next `reconnect`. */
  private linkUp = true;
  /** Requests in flight: each is told when the connection drops (its reply may never come). */
  private readonly onLinkLost = new Set<() => void>();
  /** Requests made while the connection is down, waiting for the reconnect. */
  private readonly onLinkBack = new Set<() => void>();

  constructor(
    @Inject(QDC_CONFIG) private readonly config: QdcConfig,
    @Inject(SERVICE_NAME) private readonly serviceName: string,
  ) {}

  /** Connects once (later calls wait for the same connection). */
  connect(): Promise<void> {
    if (this.connection) return Promise.resolve();
    this.connecting ??= this.open().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async open(): Promise<void> {
    const connection = await connect({
      ...natsServerOptions(this.config.NATS_URL),
      name: `${this.config.QDC_NAMESPACE}-${this.serviceName}`,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
      // nats.js otherwise captures a stack (an Error) for every request and subscription, to decorate a timeout:
      // ~0.4 ms of a small run's worker CPU under load. Our errors name the subject and request id instead.
      noAsyncTraces: true,
    }).catch((error: unknown) => {
      throw new DependencyUnavailable(`NATS at ${this.config.NATS_URL}`, error);
    });
    this.connection = connection;
    void this.followStatus(connection);
    this.logger.log(`connected to NATS ${this.config.NATS_URL} (namespace ${this.config.QDC_NAMESPACE})`);
  }

  /**
   * A lost server is one line per change (and per 5 s of reconnect attempts), not a stack trace. A disconnect fails
   * the requests in flight at once (their replies are lost with the connection) instead of leaving them to time out.
   */
  private async followStatus(connection: Connection): Promise<void> {
    let lastAttemptLog = 0;
    for await (const status of connection.status()) {
      if (status.type === 'disconnect') {
        this.logger.warn(`lost NATS ${this.config.NATS_URL}; reconnecting`);
        this.setLink(false);
      } else if (status.type === 'reconnect') {
        this.logger.log(`reconnected to NATS ${this.config.NATS_URL}`);
        this.setLink(true);
        for (const listener of this.reconnectListeners) listener();
      } else if (status.type === 'reconnecting' && Date.now() - lastAttemptLog > 5_000) {
        lastAttemptLog = Date.now();
        this.logger.warn(`NATS ${this.config.NATS_URL} is not answering; still reconnecting`);
      }
    }
  }

  /** Connection status changes (from the client's status events; public for unit specs' stand-in connections). */
  setLink(up: boolean): void {
    this.linkUp = up;
    const waiters = up ? this.onLinkBack : this.onLinkLost;
    for (const notify of [...waiters]) notify();
    waiters.clear();
  }

  get isConnected(): boolean {
    return !!this.connection && !this.connection.isClosed();
  }

  /** The nats.js connection, for JetStream work queues, KV buckets and wildcard subscriptions (lab nodes, streams). */
  get raw(): Connection {
    if (!this.connection) throw new RpcError('unavailable', 'NATS is not connected');
    return this.connection;
  }

  /** Largest message the server takes (object-store chunks are sized by it). */
  get maxPayload(): number {
    return this.connection?.info?.max_payload ?? 1024 * 1024;
  }

  jetstream(): JetStreamClient {
    return jetstream(this.raw);
  }

  jetstreamManager(): Promise<JetStreamManager> {
    return jetstreamManager(this.raw);
  }

  /** A subject of this QDC instance: `<namespace>.<name>`. */
  subject(name: string): string {
    return qualify(this.config.QDC_NAMESPACE, name);
  }

  /** A plain (core NATS) subscription to a fully qualified subject, for streams of messages. */
  subscribeRaw(subject: string, callback: (msg: Msg) => void): Subscription {
    return this.raw.subscribe(subject, { callback: (err, msg) => (err ? this.logger.error(`subscription ${subject} failed: ${err.message}`) : callback(msg)) });
  }

  /** Calls `listener` after every reconnect to NATS (messages published meanwhile were missed). */
  onReconnect(listener: () => void): void {
    this.reconnectListeners.push(listener);
  }

  /** While the connection is down, waits for the reconnect (at most RECONNECT_GRACE_MS, never past the timeout). */
  async awaitLink(subject: string, timeout: number): Promise<void> {
    if (this.linkUp) return;
    const grace = Math.min(RECONNECT_GRACE_MS, timeout);
    await new Promise<void>((resolve, reject) => {
      const back = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.onLinkBack.delete(back);
        reject(new RpcError('unavailable', `NATS is reconnecting; ${subject} was not sent (retry shortly)`));
      }, grace);
      this.onLinkBack.add(back);
    });
  }

  /** The reply, or `unavailable` as soon as the connection drops while waiting for it. */
  untilLinkLost<R>(subject: string, pending: Promise<R>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const lost = (): void => reject(new RpcError('unavailable', `NATS connection lost while ${subject} was in flight (retry shortly)`));
      this.onLinkLost.add(lost);
      pending.then(
        (value) => {
          this.onLinkLost.delete(lost);
          resolve(value);
        },
        (error: unknown) => {
          this.onLinkLost.delete(lost);
          reject(error);
        },
      );
    });
  }

  /** Shutdown waits for `barrier` before it drains the connection (e.g. handlers whose replies still go out). */
  beforeClose(barrier: () => Promise<unknown>): void {
    this.closeBarriers.push(barrier);
  }

  /** Shutdown, last step (after every other module and the HTTP server): flush and close the connection. */
  async onApplicationShutdown(): Promise<void> {
    if (!this.connection) return;
    await Promise.all(this.closeBarriers.map((barrier) => barrier()));
    await this.connection.drain().catch(() => undefined);
    this.connection = undefined;
  }
}
